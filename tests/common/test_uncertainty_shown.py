"""Every estimate shown with its SE, every modelling assumption in the caption (issue 34,
item 7), in the tables people read: Camel Up's exact leg assumes no other player acts
until the leg ends; Mumia's sampled win probability has its ``±``; Camel Up Cards' sampled
leg places have their largest SE in the caption."""

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
