"""Every estimate shown with its SE, every modelling assumption in the caption (issue 34,
item 7), in the tables people read: Camel Up's exact leg assumes no other player acts
until the leg ends, and its captions name the race's and the deck's models; Mumia's sampled
win probability has its ``±`` and the gap its ``gap_se``; Camel Up Cards' sampled leg places
have their SE (the largest in the caption, each with --wide and in the JSON), as have race
ends this leg and legs left; each player's sampled odds (Kingdom Run, Mumia) show win_se
and score_se, and Five Tribes' caption the largest SE of the final score; rollouts show
ev's and margin's SEs, and Five Tribes' caption names only the columns shown."""

from __future__ import annotations

import math

import numpy as np
import pytest
from oddsbot.analyser.camel_up_cards import face as cards
from oddsbot.analyser.camel_up_cards.encode import deck_of, track_of
from oddsbot.analyser.camel_up_cards.outcomes import race_places
from oddsbot.inputs import EXAMPLES
from oddsbot.kernels.camel_up_cards import leg as K

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


def _table(out: str) -> list[dict[str, str]]:
    """A rich table's data rows as dicts keyed by its header (one line a row)."""
    header, *rows = _cells(out)
    return [dict(zip(header, row)) for row in rows]


def _fits(out: str) -> None:
    """Every line of a default (not --wide) output fits 80 columns."""
    assert max(len(line) for line in out.splitlines()) <= 80


def test_camel_up_cards_each_leg_place_has_its_se(oddsbot_cli):
    """Each sampled leg place with its SE: ``p_se`` in the JSON (binomial, of the legs
    sampled), a column beside each place with --wide and in the CSV; race ends this leg
    and legs left with theirs, and the race model, in the caption."""
    args = ("odds", "examples/camel-up-cards-4p.json", "--samples", "8192")
    data = ok(oddsbot_cli(*args, "-f", "json")).json()
    n = data["provenance"]["leg_samples"]
    for camel in data["camels"]:
        assert camel["p_se"] == pytest.approx(
            [math.sqrt(camel[f"p{k}"] * (1 - camel[f"p{k}"]) / n) for k in range(1, 6)])
    ends = data["race_ends_this_leg"]
    assert data["race_ends_se"] == pytest.approx(math.sqrt(ends * (1 - ends) / n))
    assert 0 < data["legs_left_se"] < 0.1
    wide = ok(oddsbot_cli(*args, "--wide")).out
    rows = _table(wide)
    assert list(rows[0])[:11] == ["camel", "1st", "1st_se", "2nd", "2nd_se", "3rd", "3rd_se",
                                  "4th", "4th_se", "5th", "5th_se"]
    assert [[row[f"{p}_se"] for p in ("1st", "2nd", "3rd", "4th", "5th")] for row in rows] \
        == [[f"{se:.4f}" for se in c["p_se"]] for c in data["camels"]]
    compact = ok(oddsbot_cli(*args)).out
    _fits(compact)
    for shown in (words(compact), words(wide)):
        assert (f"race ends this leg: {ends:.4f} ± {data['race_ends_se']:.4f} · legs left: "
                f"{data['legs_left']:.2f} ± {data['legs_left_se']:.4f}") in shown
        assert ("race model: later legs of uniformly chosen cards, no figures placed and no "
                "hand cards played") in shown
    csv = ok(oddsbot_cli(*args, "-f", "csv")).out.splitlines()[0].split(",")
    assert csv[:10] == ["camel", "leg_1", "leg_2", "leg_3", "leg_4", "leg_5", "race_win",
                        "win_se", "race_lose", "lose_se"]  # the columns scripts read stay
    assert csv[10:] == [f"leg_{k}_se" for k in range(1, 6)]


def test_camel_up_cards_exact_leg_places_have_no_se(oddsbot_cli):
    args = ("odds", "examples/camel-up-cards-late.json", "--samples", "4096")
    data = ok(oddsbot_cli(*args, "-f", "json")).json()
    assert data["provenance"]["leg"] == "exact"
    assert all(c["p_se"] is None for c in data["camels"]) and data["race_ends_se"] is None
    wide = ok(oddsbot_cli(*args, "--wide")).out
    assert not any(name.endswith("_se") and name[0].isdigit() for name in _cells(wide)[0])
    assert f"race ends this leg: {data['race_ends_this_leg']:.4f} ·" in words(wide)


def _legs(pos, first: int, count: int, seed: int) -> np.ndarray:
    """The kernel's race counts of races ``first .. first + count - 1`` in one range."""
    out = np.zeros((6, 5))
    K.race_samples(track_of(pos), deck_of(pos).m, deck_of(pos).cum, pos.deck_size,
                   np.uint64(seed), first, count, out)
    return out


def test_camel_up_cards_legs_left_se_is_that_of_batch_means():
    """legs_left's SE: the batch means of the ranges the races are drawn in (4,096 races,
    the last fewer), and near the SE of single races' legs (the kernel run one race at a
    time)."""
    pos = cards.parse((EXAMPLES / "camel-up-cards-4p.json").read_text())
    n, seed = 4096 * 12 + 1000, 7
    race = race_places(track_of(pos), deck_of(pos), pos.deck_size, n, seed)
    sizes = [4096] * 12 + [1000]
    means = np.array([_legs(pos, 4096 * j, size, seed)[5, 1] / size
                      for j, size in enumerate(sizes)])
    assert race.legs == pytest.approx(np.dot(sizes, means) / n)
    spread = np.dot(sizes, (means - race.legs) ** 2) / (len(sizes) - 1)
    assert race.legs_se == pytest.approx(math.sqrt(spread / n))
    single = [_legs(pos, i, 1, seed)[5, 1] for i in range(8000)]
    assert race.legs_se == pytest.approx(np.std(single, ddof=1) / math.sqrt(n), rel=0.5)
    assert race_places(track_of(pos), deck_of(pos), pos.deck_size, 4096, seed).legs_se is None


def test_camel_up_captions_name_the_models(oddsbot_cli):
    """advise names the leg's, the race's and the deck's models; odds the leg's
    assumption and the race's model; every line fits 80 columns."""
    args = ("examples/camel-up-start-4p.json", "--samples", "4096")
    advise = ok(oddsbot_cli("advise", *args, "--top", "3")).out
    _fits(advise)
    assert ("leg exact, no other player acting until the leg ends · race MC 4,096 samples"
            in words(advise))
    assert ("race: later legs dice only, no spectator tiles · bets: hidden cards uniform "
            "(--deck-model)") in words(advise)
    racing = ok(oddsbot_cli("advise", *args, "--top", "3", "--deck-model", "race")).out
    assert "bets: hidden cards by race odds (--deck-model)" in words(racing)
    odds = ok(oddsbot_cli("odds", *args)).out
    _fits(odds)
    assert ("1st-5th: places at the end of this leg (exact, no other player acting until "
            "the leg ends)") in words(odds)
    assert "race: later legs dice only, no spectator tiles" in words(odds)
    first = ok(oddsbot_cli("odds", "examples/camel-up-2014.json")).out  # its tiles' word
    assert "race: later legs dice only, no desert tiles" in words(first)


def test_camel_up_rollouts_show_the_se_of_ev_and_of_margin(oddsbot_cli):
    """Compact: ev beside its SE (empty when exact) in 80 columns; --wide: margin beside
    margin_se, the JSON's figures."""
    args = ("advise", "examples/camel-up-start-4p.json", "--samples", "4096",
            "--rollouts", "32", "--top", "6")
    actions = {a["action"]: a for a in ok(oddsbot_cli(*args, "-f", "json")).json()["actions"]}
    compact = ok(oddsbot_cli(*args)).out
    _fits(compact)
    rows = _table(compact)
    assert list(rows[0]) == ["action", "win_p", "±", "p_best", "margin", "ev", "se", "gap"]
    assert {row["method"] for row in map(actions.get, (r["action"] for r in rows))} == {
        "exact", "monte-carlo"}  # both kinds shown
    for row in rows:
        want = actions[row["action"]]
        assert row["se"] == ("" if want["method"] == "exact" else f"{want['se']:.3f}")
    wide = _table(ok(oddsbot_cli(*args, "--wide")).out)
    header = list(wide[0])
    assert header[header.index("margin") + 1] == "margin_se"
    assert all(row["margin_se"] == f"{actions[row['action']]['margin_se']:.3f}"
               for row in wide)


def test_mumia_gap_has_its_se(oddsbot_cli):
    """Mumia's rollouts: the gap's paired SE in the JSON (``gap_se``) and beside the gap
    with --wide; the caption says where."""
    args = ("advise", "examples/mumia-mid-4p.json", "--roll", "4,PM", "--rollouts", "64")
    actions = {a["action"]: a for a in ok(oddsbot_cli(*args, "-f", "json")).json()["actions"]}
    assert any(a["gap_se"] > 0 for a in actions.values())
    wide = ok(oddsbot_cli(*args, "--wide")).out
    rows = _table(wide)
    assert list(rows[0])[4:6] == ["gap", "gap_se"]
    assert all(row["gap_se"] == f"{actions[row['action']]['gap_se']:.3f}" for row in rows)
    compact = ok(oddsbot_cli(*args)).out
    assert "--wide: gap_se, the SE of the gap (paired rollouts)" in words(compact)


def test_five_tribes_rollout_caption_names_the_columns_shown(oddsbot_cli):
    """The compact rollout table shows win_p, its SE and p_best: the caption names those
    and what --wide adds (the exact gap, gap_se, margin and its SE), and the tie once."""
    args = ("advise", "examples/five-tribes-opening-4p.json", "--rollouts", "8",
            "--candidates", "3", "--top", "5")
    compact = ok(oddsbot_cli(*args)).out
    _fits(compact)
    assert _cells(compact)[0] == ["action", "win_p", "±", "p_best", "ev"]
    said = words(compact)
    assert "win_p (±: its SE), p_best: 8 rollouts of 3 turns (--candidates)" in said
    assert ("--wide adds gap (exact, as ev is), gap_se (the SE of win_p's gap to the best), "
            "margin (final VP over the best other) and margin_se") in said
    assert "win_p, margin:" not in said
    assert said.count("at the best ev") == 1, said  # "3 rolled out of 65 turns tied at..."
    data = ok(oddsbot_cli(*args, "-f", "json")).json()["actions"]
    rolled = [a for a in data if a.get("win_p") is not None]
    assert rolled and all(a["gap_se"] >= 0 and a["se"] is None for a in rolled)  # ev exact
    header = _cells(ok(oddsbot_cli(*args, "--wide")).out)[0]
    assert {"gap", "gap_se", "margin", "margin_se"} <= set(header)


def test_five_tribes_bids_rollout_caption(oddsbot_cli):
    """While bidding the compact table keeps the gap: the caption says what --wide adds
    and that the bid model's ev and gap have no SE."""
    start = ok(oddsbot_cli("new", "five-tribes", "--players", "4", "--seed", "1", "-f",
                           "notation")).out.strip()
    out = ok(oddsbot_cli("advise", start, "--rollouts", "4")).out
    _fits(out)
    assert _cells(out)[0][:5] == ["action", "win_p", "±", "p_best", "ev"]
    assert ("win_p (±: its SE), p_best: 4 rollouts of every bid, every seat heuristic, seed 0 "
            "· --wide adds gap_se (the SE of win_p's gap to the best), margin (final VP over "
            "the best other) and margin_se; ev and gap are the bid model's, no SE"
            ) in words(out)
