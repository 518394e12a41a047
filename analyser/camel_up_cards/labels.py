"""Turn labels of Camel Up Cards (docs/games/camel-up-cards.md §14.1) and the kernel's turn
codes: ``turn_label`` writes them, ``parse_turn`` reads them (colours by name or letter,
any case). A turn is one race action (``reveal``, ``hand <colour>``, ``fox <space>``,
``palm <space>``) with at most one bet (``leader|midfield|winner|loser <colour>``) before
or after it, joined by `` + ``."""

from __future__ import annotations

from ...errors import OddsbotError, PositionError, quote
from ...kernels.camel_up_cards import game as K
from ...kernels.camel_up_cards import track as T
from ...strict import read_int
from .position import COLOURS, MAX_LAST

COLOUR_NAMES = ("white", "green", "orange", "blue", "yellow")  # by colour index (§0)
BET_KINDS = ("leader", "midfield", "winner", "loser")  # by bet code // 5 (game.BET_*)
RACE_WORDS = ("reveal", "hand", "fox", "palm")
RACE_SHAPES = "reveal, hand <colour>, fox <space>, palm <space>"


def bet_label(b: int) -> str:
    """A kernel bet code as a label: ``leader orange``."""
    return f"{BET_KINDS[b // T.N_CAMELS]} {COLOUR_NAMES[b % T.N_CAMELS]}"


def race_label(race: int, hand_colour: int = -1) -> str:
    """A kernel race action as a label (``hand_colour``: the hand card's colour)."""
    if race == K.RACE_REVEAL:
        return "reveal"
    if race == K.RACE_HAND:
        return f"hand {COLOUR_NAMES[hand_colour]}"
    if race < K.PALM_BASE:
        return f"fox {race - K.FOX_BASE}"
    return f"palm {race - K.PALM_BASE}"


def turn_label(bet1: int, race: int, bet2: int, hand_colour: int = -1) -> str:
    """A kernel turn as the EV table labels it."""
    parts = [bet_label(bet1)] if bet1 != K.NO_BET else []
    parts.append(race_label(race, hand_colour))
    if bet2 != K.NO_BET:
        parts.append(bet_label(bet2))
    return " + ".join(parts)


def colour_code(word: str, what: str) -> int:
    """A colour index from its name (``orange``) or letter (``O``), any case."""
    low = word.lower()
    if low in COLOUR_NAMES:
        return COLOUR_NAMES.index(low)
    if word.upper() in COLOURS:
        return COLOURS.index(word.upper())
    raise OddsbotError(f"{what}: unknown colour {quote(word)} (colours: "
                       f"{', '.join(COLOUR_NAMES)}, or W G O B Y)")


def _race(words: list[str]) -> tuple[int, int]:
    kind = words[0].lower()
    if kind == "reveal" and len(words) == 1:
        return K.RACE_REVEAL, -1
    if kind == "hand" and len(words) == 2:
        return K.RACE_HAND, colour_code(words[1], "hand")
    if kind in ("fox", "palm") and len(words) == 2:
        try:
            space = read_int(words[1], f"{kind} space", 1, MAX_LAST)
        except PositionError as exc:
            raise OddsbotError(str(exc)) from None
        return (K.FOX_BASE if kind == "fox" else K.PALM_BASE) + space, -1
    raise OddsbotError(f"cannot read the race action {quote(' '.join(words))} "
                       f"(race actions: {RACE_SHAPES})")


def _bet(words: list[str]) -> int:
    kind = words[0].lower()
    if kind not in BET_KINDS or len(words) != 2:
        raise OddsbotError(f"cannot read the bet {quote(' '.join(words))} (bets: "
                           f"{'|'.join(BET_KINDS)} <colour>)")
    return BET_KINDS.index(kind) * T.N_CAMELS + colour_code(words[1], kind)


def parse_turn(text: str) -> tuple[int, int, int, int]:
    """(bet before, race action, bet after, the hand card's colour or -1) of a turn
    label; OddsbotError in one line for anything else."""
    parts = [part.split() for part in text.split("+")]
    races = [i for i, words in enumerate(parts) if words and words[0].lower() in RACE_WORDS]
    if len(parts) > 2 or len(races) != 1 or not all(parts):
        raise OddsbotError(f"cannot read the turn {quote(text.strip())}: a turn is one race "
                           f"action ({RACE_SHAPES}) with at most one bet "
                           f"({'|'.join(BET_KINDS)} <colour>) before or after it, joined "
                           f"by ' + '")
    at = races[0]
    race, colour = _race(parts[at])
    bet = _bet(parts[1 - at]) if len(parts) == 2 else K.NO_BET
    return (bet, race, K.NO_BET, colour) if at == 1 else (K.NO_BET, race, bet, colour)


def parse_bet_or_none(text: str) -> int:
    """The bet code of what is left of a turn after its race action (phase ``race``):
    a bet label, or ``no bet``."""
    if text.strip().lower() == "no bet":
        return K.NO_BET
    return _bet(text.split())


def turn_codes(label: str, phase: str = "start") -> tuple[int, int, int]:
    """The kernel's (bet before, race action, bet after) of a label of the EV table in
    ``phase`` (in phase ``race`` only the bet counts: the race action is done)."""
    if phase == "race":
        return parse_bet_or_none(label), K.RACE_REVEAL, K.NO_BET
    return parse_turn(label)[:3]
