"""What a new player reads in ``--help`` and the captions (issue 34, items 3, 4, 6 and 9):
``new --help`` says where a Five Tribes deal starts and how to reach its turns; ``advise
--help`` names Mumia's picture die as it looks (a pyramid) and each game's own columns
(Kingdom Run's ``turn ev`` / ``final ev``, the ``on`` columns); a refused picture lists
the words accepted; Mumia's caption says where ``on`` counts from. Through the CLI."""

from __future__ import annotations

import re

import pytest

from checks import assert_bad_input

MID = "examples/mumia-mid-4p.json"


def help_text(oddsbot_cli, monkeypatch, command: str) -> str:
    """``oddsbot COMMAND --help`` as one line of words: the frames and wrapping gone."""
    monkeypatch.setenv("COLUMNS", "100")
    run = oddsbot_cli(command, "--help")
    assert run.code == 0, run.err
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", run.out).split())


def test_new_help_says_a_five_tribes_deal_starts_with_the_bids(oddsbot_cli, monkeypatch):
    said = help_text(oddsbot_cli, monkeypatch, "new")
    assert ("Five Tribes: a deal starts in the bidding phase: no one has bid, and advise "
            "values the bids. For the first turn (the turns phase), write the bids made at "
            "the table as a record: a 'start' line with the deal, then 'round 1 pN bid K' "
            "for each bid") in said
    assert "oddsbot advise examples/five-tribes-bids-4p.record" in said


def test_the_note_is_the_new_command_s_only(oddsbot_cli, monkeypatch):
    assert "bidding phase" not in help_text(oddsbot_cli, monkeypatch, "advise")


def test_advise_help_names_the_picture_die_as_it_looks(oddsbot_cli, monkeypatch):
    said = help_text(oddsbot_cli, monkeypatch, "advise")
    assert ("in words: pawn or pyramid (P: the pawn's cone reads as a pyramid), mummy (M), "
            "both, pawn+mummy or pyramid+mummy (PM), e.g. 4,pyramid.") in said


@pytest.mark.parametrize("picture", ["CAMEL", "cone"])
def test_a_refused_picture_lists_the_letters_and_words(oddsbot_cli, picture):
    said = assert_bad_input(oddsbot_cli("advise", MID, "--roll", f"5,{picture}"))
    assert said == ("oddsbot: error: --roll: the picture die shows P (a pawn), M (the mummy) "
                    "or PM (both), or in words pawn, pyramid, mummy, both, pawn+mummy, "
                    f"pyramid+mummy, mummy+pawn, mummy+pyramid; got '{picture.upper()}'")


def test_every_word_listed_is_read(oddsbot_cli):
    """The words the refusal lists are those ``--roll`` reads: each gives its letters'
    table."""
    from oddsbot.analyser.mumia.labels import SYMBOL_WORDS

    def table(picture: str) -> str:
        run = oddsbot_cli("advise", MID, "--roll", f"5,{picture}", "--rollouts", "4",
                          "-f", "csv")
        assert run.code == 0, run.err
        return run.out
    tables = {letters: table(letters) for letters in set(SYMBOL_WORDS.values())}
    for word, letters in SYMBOL_WORDS.items():
        assert table(word) == tables[letters], word


def test_advise_help_describes_each_game_s_columns(oddsbot_cli, monkeypatch):
    said = help_text(oddsbot_cli, monkeypatch, "advise")
    assert ("headed by what it measures where a game has two meanings (Kingdom Run: turn "
            "ev, final ev)") in said
    for line in (("Kingdom Run · turn ev: the ev column's heading without --rollouts: the "
                  "mover's score minus the best other player's after this turn, expected "
                  "(JSON key ev)."),
                 ("Kingdom Run · final ev: its heading with --rollouts: the expected final "
                  "margin over the best other player (JSON key ev)"),
                 ("Kingdom Run · on: where the runner of each catchup, bath, sleep or wake "
                  "step stands (its space)"),
                 ("Mumia · on: the field the piece the row moves stands on now, before the "
                  "move, counted along the track from START = 0 (docs/games/mumia.md §0)")):
        assert line in said, line


def test_mumia_caption_says_where_on_counts_from(oddsbot_cli):
    run = oddsbot_cli("advise", MID, "--roll", "5,pyramid")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert max(map(len, lines)) <= 80
    table_end = max(i for i, line in enumerate(lines) if line.startswith("└"))
    caption = " ".join(" ".join(lines[table_end + 1:]).split())
    assert ("player D to move · ev: expected change of final score · on: the field the "
            "piece to move stands on now, counted from START = 0 · roll 5,P") in caption
    header = next(line for line in lines if "action" in line)
    assert header.split("┃")[2].strip() == "on"
