"""Every estimate shown with its SE, every modelling assumption in the caption (issue 34,
item 7), in the tables people read: Camel Up's exact leg assumes no other player acts
until the leg ends; Mumia's sampled win probability has its ``±``; Camel Up Cards' sampled
leg places have their largest SE in the caption; each player's sampled odds (Kingdom Run,
Mumia) show win_se and score_se, and Five Tribes' caption the largest SE of the final score."""

from __future__ import annotations

import math

from checks import ok


def words(text: str) -> str:
    """``text`` with the table's line breaks and padding folded to single spaces."""
    return " ".join(text.split())


def test_camel_up_caption_names_the_leg_model(oddsbot_cli):
    out = ok(oddsbot_cli("advise", "examples/camel-up-start-4p.json", "--top", "3",
                         "--samples", "4096")).out
    assert "leg exact, no other player acting until the leg ends" in words(out)


def test_mumia_shows_the_se_of_win_p(oddsbot_cli):
    args = ("advise", "examples/mumia-mid-4p.json", "--roll", "4,PM", "--samples", "64")
    table = ok(oddsbot_cli(*args)).out
    header = next(line for line in table.splitlines() if "win_p" in line)
    assert [cell.strip() for cell in header.split("┃")[-3:-1]] == ["win_p", "±"]
    data = ok(oddsbot_cli(*args, "-f", "json")).json()
    shown = f"{data['actions'][0]['win_se']:.3f}"
    first = next(line for line in table.splitlines() if data["actions"][0]["action"] in line)
    assert first.split("│")[-2].strip() == shown  # the last column: the first row's win_se


def test_camel_up_cards_sampled_leg_places_have_their_se(oddsbot_cli):
    run = ok(oddsbot_cli("odds", "examples/camel-up-cards-4p.json", "--samples", "2000"))
    data = ok(oddsbot_cli("odds", "examples/camel-up-cards-4p.json", "--samples", "2000",
                          "-f", "json")).json()
    n = data["provenance"]["leg_samples"]
    worst = max(math.sqrt(c[f"p{k}"] * (1 - c[f"p{k}"]) / n) for c in data["camels"]
                for k in range(1, 6))
    assert f"sampled, {n:,} legs, SE at most {worst:.4f}" in words(run.out)


def _cells(table: str) -> list[list[str]]:
    """The header and data rows of a rich table, as lists of stripped cells."""
    return [[c.strip() for c in line.strip("┃│ ").replace("┃", "│").split("│")]
            for line in table.splitlines() if line.startswith(("┃", "│"))]


def test_each_player_s_odds_show_their_se(oddsbot_cli):
    """Kingdom Run's and Mumia's sampled odds: win_p and score each beside its SE, in
    the table's default view, the same figures as the JSON's."""
    for position in ("examples/kingdom-run-mid-4p.json", "examples/mumia-mid-4p.json"):
        args = ("odds", position, "--samples", "200")
        header, *rows = _cells(ok(oddsbot_cli(*args)).out)
        assert header == ["player", "win_p", "win_se", "score", "score_se"]
        players = ok(oddsbot_cli(*args, "-f", "json")).json()["players"]
        assert rows == [[p["player"], *(f"{p[k]:.4f}" for k in header[1:])] for p in players]
        assert all(p["win_se"] > 0 and p["score_se"] > 0 for p in players)


def test_mumia_s_exact_odds_show_no_se(oddsbot_cli):
    header, *rows = _cells(ok(oddsbot_cli("odds", "examples/mumia-endgame.json")).out)
    assert header == ["player", "win_p", "score"]  # the SE columns apply to no row


def test_five_tribes_final_score_has_its_se(oddsbot_cli):
    args = ("odds", "examples/five-tribes-opening-4p.json", "--samples", "256")
    standings = ok(oddsbot_cli(*args, "-f", "json")).json()["standings"]
    worst = (max(s["win_se"] for s in standings), max(s["final_se"] for s in standings))
    assert (f"(SE at most: win_p {worst[0]:.4f}, final {worst[1]:.2f})"
            in words(ok(oddsbot_cli(*args)).out))
