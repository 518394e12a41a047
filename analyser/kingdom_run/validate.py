"""Every invariant of a Kingdom Run position, each refused as ``field: reason``
(docs/games/kingdom-run.md §12.1; the rules they come from: §3-§8).

Whether the game is over is the kernel's to say; here only what a reachable position
cannot break.
"""

from __future__ import annotations

from collections import Counter

from ...errors import PositionError
from .position import CLANS, MAX_PLAYERS, OFF, RUNNER_NAMES, RUNNERS, Position
from .rules import BATH, CATCHUP, COPY, FACE_NAMES, SCATTER

MOVES = (SCATTER, CATCHUP, BATH)  # the actions that carry a runner across the line


def validate(pos: Position) -> None:
    """Raise ``PositionError`` for the first broken invariant."""
    _players(pos)
    _track(pos)
    _runners(pos)
    _asleep(pos)
    _finishers(pos)
    _tokens(pos)
    _dice(pos)
    _crossed(pos)
    _to_move_finished(pos)


def _name(r: int) -> str:
    return RUNNER_NAMES[r] if 0 <= r < RUNNERS else str(r)


def _players(pos: Position) -> None:
    if not 2 <= pos.players <= MAX_PLAYERS:
        raise PositionError("players", f"must be from 2 to {MAX_PLAYERS}, got {pos.players}")
    if len(pos.clans) != pos.players:
        raise PositionError("clans", f"one clan per player: {pos.players} players, got "
                            f"{len(pos.clans)} clans")
    for i, c in enumerate(pos.clans):
        if c not in tuple(CLANS):
            raise PositionError(f"clans[{i}]", f"{c!r} is not a clan (K, W, F or G)")
        if c in pos.clans[:i]:
            raise PositionError(f"clans[{i}]", f"clan {c} is played twice")
    if not 0 <= pos.to_move < pos.players:
        raise PositionError("to_move", f"must be a player from 0 to {pos.players - 1}, got "
                            f"{pos.to_move}")


def _track(pos: Position) -> None:
    spaces = pos.rules.spaces()
    if len(pos.where) != RUNNERS:
        raise PositionError("track", f"must place {RUNNERS} runners, got {len(pos.where)}")
    for r, s in enumerate(pos.where):
        if s != OFF and not 0 <= s < spaces:
            raise PositionError(f"track.{s}", f"{RUNNER_NAMES[r]} is on space {s} but the "
                                f"track has spaces 0..{spaces - 1}")
    held = Counter(s for s in pos.where if s != OFF)
    for s, n in sorted(held.items()):
        if n > pos.rules.capacity:
            raise PositionError("track", f"space {s} holds {n} runners, at most "
                                f"{pos.rules.capacity} (capacity)")


def _runners(pos: Position) -> None:
    """Every runner exactly once: on the track, the podium, crossed or out."""
    seen = {r: "track" for r, s in enumerate(pos.where) if s != OFF}
    lists = (("podium", pos.podium), ("crossed", tuple(c[0] for c in pos.crossed)),
             ("out", pos.out))
    for field, runners in lists:
        for i, r in enumerate(runners):
            at = f"{field}[{i}]" + (".runner" if field == "crossed" else "")
            if not 0 <= r < RUNNERS:
                raise PositionError(at, f"{r} is not a runner id (0..{RUNNERS - 1})")
            if r in seen:
                also = "named twice" if seen[r] == field else f"also in {seen[r]}"
                if seen[r] == "track":
                    also = f"also on space {pos.where[r]}"
                raise PositionError(at, f"{RUNNER_NAMES[r]} is {also}")
            seen[r] = field
    missing = [RUNNER_NAMES[r] for r in range(RUNNERS) if r not in seen]
    if missing:
        raise PositionError("track", f"every runner must be on the track, the podium, "
                            f"crossed or out; missing: {', '.join(missing)}")


def _asleep(pos: Position) -> None:
    for i, r in enumerate(pos.asleep):
        if not 0 <= r < RUNNERS or pos.where[r] == OFF:
            raise PositionError(f"asleep[{i}]", f"{_name(r)} is not on the track (only "
                                f"runners on the track sleep)")
    asleep = set(pos.asleep)
    for c, clan in enumerate(CLANS):
        own = range(4 * c, 4 * c + 4)
        if all(pos.where[r] != OFF and r in asleep for r in own):
            raise PositionError("asleep", f"all four {clan} runners are on the track and "
                                f"asleep: the last awake runner of a clan cannot be put to "
                                f"sleep (§6.5)")


def _finishers(pos: Position) -> None:
    places = pos.rules.places()
    if len(pos.podium) > places:
        raise PositionError("podium", f"{len(pos.podium)} runners but the podium has "
                            f"{places} places")
    if pos.out and len(pos.podium) < places:
        raise PositionError("out", f"surplus finishers only once the podium is full "
                            f"({len(pos.podium)} of {places} places taken)")
    two_own = pos.players == 2 and pos.rules.two_player_end == "own_runners_only"
    if pos.out and pos.rules.surplus_finishers == "stay" and not two_own:
        raise PositionError("out", "with surplus_finishers=stay a surplus finisher stays on "
                            "the track")


def _tokens(pos: Position) -> None:
    if len(pos.tokens) != pos.players:
        raise PositionError("tokens", f"one count per player: {pos.players} players, got "
                            f"{len(pos.tokens)}")
    for i, t in enumerate(pos.tokens):
        if t < 0:
            raise PositionError(f"tokens[{i}]", f"must be at least 0, got {t}")
    total = pos.players * pos.rules.tokens_per_player(pos.players)
    if sum(pos.tokens) != total:
        raise PositionError("tokens", f"{sum(pos.tokens)} in play, the game has {total}")


def _dice(pos: Position) -> None:
    rules = pos.rules
    roll = pos.roll
    if roll is None:
        if pos.rerolled:
            raise PositionError("rerolled", "true before rolling (roll is null)")
        if pos.used:
            raise PositionError("used", "dice used before rolling (roll is null)")
    else:
        if len(roll) != rules.dice:
            raise PositionError("roll", f"{len(roll)} dice, the game rolls {rules.dice}")
        for i, f in enumerate(roll):
            if f not in rules.die_faces:
                raise PositionError(f"roll[{i}]", f"{_face(f)} is not a face of the dice "
                                    f"(die_faces)")
    if (pos.used or pos.crossed) and not pos.rerolled:
        raise PositionError("rerolled", "must be true once dice are used or runners have "
                            "crossed this turn (the re-roll comes first)")
    left = Counter(roll or ())
    count: Counter = Counter()
    for i, (f, a) in enumerate(pos.used):
        at = f"used[{i}]"
        if not (0 <= f < len(FACE_NAMES) and 0 <= a < len(FACE_NAMES)):
            raise PositionError(at, f"face {f} as action {a}: not a face and an action")
        if left[f] == 0:
            raise PositionError(at, f"no {FACE_NAMES[f]} die left in the roll to use")
        left[f] -= 1
        if f != COPY and a != f:
            raise PositionError(at, f"a {FACE_NAMES[f]} die is used as {FACE_NAMES[f]} only")
        if f == COPY:
            if a == COPY:
                raise PositionError(at, "a Copy cannot copy a Copy")
            if a not in roll:  # type: ignore[operator]
                raise PositionError(at, f"a Copy used as {FACE_NAMES[a]} needs a "
                                    f"{FACE_NAMES[a]} die in the roll")
            if left[a] > 0:
                raise PositionError(at, f"copy:{FACE_NAMES[a]} before every {FACE_NAMES[a]} "
                                    f"die of the roll was used (a Copy never takes a real "
                                    f"die's place, §6.6)")
        count[a] += 1
        if count[a] > rules.per_action_limit:
            raise PositionError(at, f"{FACE_NAMES[a]} used {count[a]} times this turn, at "
                                f"most {rules.per_action_limit} (per_action_limit)")


def _face(f: int) -> str:
    return FACE_NAMES[f] if 0 <= f < len(FACE_NAMES) else str(f)


def _crossed(pos: Position) -> None:
    spaces = pos.rules.spaces()
    last = 0
    for i, (r, a, s) in enumerate(pos.crossed):
        at = f"crossed[{i}]"
        if not 0 <= a < len(pos.used):
            raise PositionError(f"{at}.action", f"{a} is not a die used this turn (used has "
                                f"{len(pos.used)})")
        if pos.used[a][1] not in MOVES:
            raise PositionError(f"{at}.action", f"used[{a}] is a {FACE_NAMES[pos.used[a][1]]},"
                                f" which moves no runner")
        if a < last:
            raise PositionError(f"{at}.action", "runners are listed in crossing order: the "
                                "actions never go back")
        last = a
        if not 0 <= s < spaces:
            raise PositionError(f"{at}.from", f"space {s} is not on the track "
                                f"(0..{spaces - 1})")


def _to_move_finished(pos: Position) -> None:
    """§4: in 3-4 player games a player whose runners have all crossed takes no turns."""
    if pos.players < 3 or len(pos.podium) >= pos.rules.places():
        return
    c = CLANS.index(pos.clans[pos.to_move])
    done = set(pos.podium) | set(pos.out)
    if all(r in done for r in range(4 * c, 4 * c + 4)):
        raise PositionError("to_move", f"player {pos.to_move + 1} ({pos.clans[pos.to_move]}) "
                            f"has all four runners across and takes no more turns")
