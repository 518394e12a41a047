"""Players are named the same way everywhere: the line ``validate`` prints names the player
to move as the game's notation does (Kingdom Run ``to=1`` is player 1, Mumia's seat D is
player D), while the JSON keeps the integer seat in ``player``."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("example, name, seat", [
    ("kingdom-run-mid-4p.json", "1", 0),
    ("mumia-mid-4p.json", "D", 3),
    ("camel-up-start-4p.json", "0", 0),
    ("five-tribes-opening-4p.json", "2", 2),
    ("camel-up-cards-late.json", "3", 3),
])
def test_validate_names_the_player_as_the_notation_does(oddsbot_cli, example, name, seat):
    run = oddsbot_cli("validate", f"examples/{example}")
    assert run.code == 0 and run.err.endswith(f" position, player {name} to move\n"), run.err
    to = [word for word in run.out.split() if word.startswith("to=")]
    assert to in ([f"to={name}"], [])  # Five Tribes' mover follows from its turn track
    advice = oddsbot_cli("advise", f"examples/{example}", "--samples", "64", "-f", "json")
    assert advice.json()["player"] == seat
