"""Camel Up Cards positions checked against this leg's cards (docs/games/camel-up-cards.md
§13.4): a camel on the start card that cannot be there is refused in one line; legal
positions never are; the viewer may leave out their own discards, and the posterior of §9
then treats them as unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

import naive_cards as N
from cards_positions import deck_view, position_in_play
from kernel_boards import TYPES
from oddsbot.analyser.camel_up_cards import face as cuc
from oddsbot.analyser.camel_up_cards.encode import candidates
from oddsbot.analyser.camel_up_cards.record import load_record

ROOT = Path(__file__).resolve().parents[2]
BASE = ("camel-up-cards n=3 to=1 setup=10/5/3 blue=G1,G1,W1 "
        "own=G2.B1.B1.B2.Y1/W1.G1.O1/B1")

REFUSED = [
    # W left the start card by 2 this leg: it cannot stand there now
    (f"{BASE} line=W track=1:BGO,3:Y rev=W2",
     "line: W is on the start card, but W2 was revealed this leg: a "
     "camel that leaves the start card by 2 never comes back to it (§5.1): move the camels "
     "as the cards say"),
    (f"{BASE} line=BW track=1:GO,3:Y rev=Y1,O1,W2",
     "line: W is on the start card, but W2 was revealed this leg: a "
     "camel that leaves the start card by 2 never comes back to it (§5.1): move the camels "
     "as the cards say"),
    # W moved (by the fox on 1 it may be back), but then it stands behind B, which did not
    (f"{BASE} line=WB track=2:GO,3:Y rev=W1",
     "line: W is on the start card ahead of B, but W moved this leg (W1 revealed) "
     "and B did not: a camel back on the start card joins the end of the line-up "
     "(C-AMB-8): move the camels as the cards say"),
    (f"{BASE} line=YB track=2:WO,3:G play=0:Y1 hands=011",
     "line: Y is on the start card ahead of B, but Y moved this leg "
     "(Y1 played from a hand) and B did not: a camel back on the start card joins the "
     "end of the line-up (C-AMB-8): move the camels as the cards say"),
]


@pytest.mark.parametrize("text, message", REFUSED)
def test_a_camel_that_cannot_be_on_the_start_card_is_refused(oddsbot_cli, text, message):
    run = oddsbot_cli("validate", text)
    assert run.code == 2 and run.out == ""
    assert run.err == f"oddsbot: error: {message}\n"


ACCEPTED = [
    f"{BASE} line=W track=1:BGO,3:Y rev=W1",  # W1 onto the fox on 1, sent back
    f"{BASE} line=BW track=1:GO,3:Y rev=W1,O2",  # back behind B, which did not move
    f"{BASE} line=BWG track=2:O,3:Y rev=W1,G1",  # two came back, in either order
    f"{BASE} line=BGW track=2:O,3:Y rev=W1,G1",
    f"{BASE} line=W track=1:BGO,3:Y rev=O2,Y2",  # +2 cards of camels on the track
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_possible_start_cards_are_accepted(oddsbot_cli, text):
    run = oddsbot_cli("validate", text)
    assert run.code == 0, run.err


def _every_position(record: str) -> list:
    _, steps = load_record(record)
    return [pos for pos, _ in steps]


@pytest.mark.parametrize("players", range(2, 7))
def test_every_position_of_played_games_is_accepted(oddsbot_cli, players):
    for seed in range(4):
        run = oddsbot_cli("new", "camel-up-cards", "--players", players, "--seed", seed,
                          "--play", ("random", "heuristic")[seed % 2])
        assert run.code == 0
        positions = _every_position(run.out)
        assert len(positions) > 10
        for pos in positions:
            assert cuc.validate(cuc.parse(pos.to_notation())) == pos


@pytest.mark.parametrize("record", sorted((ROOT / "examples").glob("camel-up-cards-*.record")))
def test_every_position_of_the_shipped_records_is_accepted(record):
    for pos in _every_position(record.read_text()):
        assert cuc.validate(cuc.parse(pos.to_notation())) == pos


@pytest.mark.parametrize("seed", range(30))
def test_positions_in_play_are_accepted(seed):
    pos, _ = position_in_play(seed, 2 + seed % 5, 1 + seed % 9)
    assert cuc.validate(cuc.parse(pos.to_json_text())) == pos


# ------------------------------------------------------------ the viewer's discards left out

START = ("camel-up-cards n=3 to=0 setup=10/5/3 line=W track=1:BGO,3:Y blue=G1,G1,W1 "
         "own={}/W1.G1.O1/W1")


@pytest.mark.parametrize("discarded", ["-", "G2", "G2.B1.B1.B2"])
def test_discards_may_be_left_out(oddsbot_cli, discarded):
    run = oddsbot_cli("validate", START.format(discarded))
    assert run.code == 0, run.err
    assert f" own={discarded}/W1.G1.O1/W1 " in run.out


def test_more_discards_than_the_setup_are_still_refused(oddsbot_cli):
    run = oddsbot_cli("validate", START.format("G2.B1.B1.B2.Y1.Y1"))
    assert run.code == 2
    assert run.err == ("oddsbot: error: own (discarded): 6 cards, but each player "
                       "discards 5 (setup)\n")


def test_left_out_discards_widen_the_candidate_decks(oddsbot_cli):
    def decks(discarded: str) -> str:
        run = oddsbot_cli("advise", START.format(discarded), "--top", 1, "--seed", 1)
        assert run.code == 0, run.err
        caption = " ".join(run.out.split())
        return caption.split("race deck: ")[1].split(" possible decks")[0]

    assert decks("G2.B1.B1.B2.Y1") == "12 cards left, 593"
    assert decks("-") == "12 cards left, 1,619"  # the opponents may hold G2 now


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("keep", [0, 1])
def test_left_out_discards_are_unknown_cards_in_the_posterior(seed, keep):
    """The kernel's candidate decks are the naive §9 posterior over the pool that holds the
    left-out discards (docs §13.4)."""
    pos, _ = position_in_play(seed, 5, 4 + seed % 4)
    pos = pos.with_(own_discarded=pos.own_discarded[:keep])
    cuc.validate(pos)
    known, pool, k = deck_view(pos)
    assert len(pool) == 30 - len(pos.own_dealt) - sum(
        1 for s, b in enumerate(pos.blue) if b and s != pos.viewer) - sum(
        1 for s, _ in pos.played if s != pos.viewer)
    want = N.deck_posterior(known, pool, k, list(pos.revealed))
    m, w = candidates(pos)
    got = {tuple(sorted(TYPES[t] for t in range(len(row)) for _ in range(row[t]))):
           p for row, p in zip(m, w / w.sum())}
    assert got.keys() == want.keys()
    for key, p in want.items():
        assert got[key] == pytest.approx(float(p), abs=1e-12)


def test_a_game_played_on_from_left_out_discards_replays(oddsbot_cli):
    pos = cuc.parse(START.format("G2"))
    result = cuc.simulate(pos, seed=3)
    assert len(result.deal.seats[0].discarded) == 5
    assert "G2" in result.deal.seats[0].discarded
    assert result.text().startswith(f"start {pos.to_notation()}\n")  # own=G2/W1.G1.O1/W1
    _, steps = load_record(result.text())  # the deal's discards hold the start's G2
    assert steps[0][0] == pos.with_(own_discarded=result.deal.seats[0].discarded)
