"""A notation user's errors in the notation's words: when a position was typed as one-line
notation, a complaint names the key the user typed (``bets``), not the JSON field the
position keeps it in (``leg_tickets``), and says how to write that key.

A game declares once, in its notation module, which JSON path each notation key (or
positional word) holds, and how it is written::

    NOTATION_KEYS = NotationKeys({"leg_tickets": Key("bets", "one entry per player, ..."),
                                  ...})

and its face exports it. Whoever reads a user's notation (the CLI's ``load``, a record's
``start`` line) parses it within ``in_notation_words(keys)`` and validates it within
``in_notation_words(keys, validating=True)``; a ``PositionError`` raised there comes out as
a :class:`NotationError` with

- its field renamed: the longest declared path it begins with becomes the key, its
  numbers taken over (``leg_tickets[2]`` -> ``bets[2]``; ``players[*]`` -> ``p*`` turns
  ``players[1].gold`` into ``p1.gold``: a ``*`` stands for a whole number); a field the
  parser already names by the key (``bets[1]``) stays;
- the declared paths its reason names renamed too (``no marker is left on turn_track`` ->
  ``... on turn=``); only paths that cannot be plain words (they hold ``_``, ``.`` or
  ``[``), so "players" in "for 4 players" stays a word;
- the fix appended, unless the reason says it already. A complaint from the parser (how
  a key is written) gets the form of the field's key, or if it has none of the first key
  its reason names; a complaint from validation (what the position breaks) gets the form
  only of a key its reason names whole (``turn=``: the key the user must write), never of
  its own field's (``bets: green tickets held [5, 5] ...`` is not a syntax slip).

A game whose notation names seats by letter (Mumia's ``A``..``F``) passes ``seats``: a
key's name writes ``@`` for a number shown as a seat letter (``collected[0]`` -> ``collected
A``), and a reason's ``seat 0`` becomes ``seat A``; ``words`` renames whole words of a reason
(``START`` -> ``S``).

A complaint about nothing declared is left as it is; JSON input keeps the JSON names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import PositionError


@dataclass(frozen=True)
class Key:
    """Where a JSON path is written in a game's notation.

    ``name``: as a message shows it, each ``*`` taking the path's next number (``bets``,
    ``p*``, ``t (space *)``), each ``@`` the next number as a seat letter (``seats``);
    ``form``: how to write it, e.g. ``one entry per player, comma-separated, ... e.g.
    bets=P5,G5P3,,``; ``whole``: the path's rest (``tiles[0]``'s
    ``[0]``) means nothing in the notation and is left out; ``positional``: a word of the
    notation, not a ``key=value`` (a reason shows ``track``, not ``track=``)."""

    name: str
    form: str = ""
    whole: bool = False
    positional: bool = False

    @property
    def bare(self) -> bool:
        """Whether the key is a plain ``key=value`` key (a reason shows it as ``key=``)."""
        return not self.positional and re.fullmatch(r"\w+", self.name) is not None


class NotationError(PositionError):
    """A ``PositionError`` already in the notation's words (translated once only)."""


def _pattern(path: str) -> str:
    return re.escape(path).replace(r"\*", r"([0-9]+)")


def _fill(name: str, numbers: tuple[str, ...], seats: str = "") -> str:
    """``name`` with each ``*`` (or ``@``: as a seat letter) taking the next number."""
    for number in numbers:
        m = re.search(r"[*@]", name)
        if m is None:
            break
        shown = seats[int(number)] if m[0] == "@" and int(number) < len(seats) else number
        name = name[:m.start()] + shown + name[m.end():]
    return name


class NotationKeys:
    """A game's JSON path -> notation :class:`Key` map (module doc)."""

    def __init__(self, keys: Mapping[str, Key], seats: str = "",
                 words: Mapping[str, str] | None = None) -> None:
        self.keys = dict(keys)
        self.seats = seats
        self.words = dict(words or {})
        # a field is a declared JSON path, or a key's own name (the parser's words; the
        # first key declared of a name, with its form)
        fields = {}
        for key in self.keys.values():
            fields.setdefault(key.name, key)
        fields.update(self.keys)
        self._fields = [(re.compile(_pattern(p) + r"(?=$|[\[. ])"), fields[p])
                        for p in sorted(fields, key=len, reverse=True)]
        self._paths = [(re.compile(r"(?<![\w.\[])" + _pattern(p) + r"(?!\w)"), self.keys[p])
                       for p in sorted(self.keys, key=len, reverse=True)
                       if re.search(r"[_.\[]", p)]

    def field(self, field: str) -> tuple[str, Key] | None:
        """(``field`` in notation words, its key), or None if it is nothing declared."""
        for pattern, key in self._fields:
            m = pattern.match(field)
            if m:
                shown = _fill(key.name, m.groups(), self.seats)
                return shown + ("" if key.whole else field[m.end():]), key
        return None

    def reason(self, reason: str) -> tuple[str, list[Key]]:
        """(``reason`` with the declared paths it names in notation words, the keys it
        names whole, ``turn=``, in order)."""
        hits = sorted(((m, key) for pattern, key in self._paths
                       for m in pattern.finditer(reason)),
                      key=lambda hit: (hit[0].start(), -len(hit[0][0])))
        parts, whole, at = [], [], 0
        for m, key in hits:
            if m.start() < at:  # inside a longer path already renamed
                continue
            shown = _fill(key.name, m.groups(), self.seats)
            bare = key.bare and reason[m.end():m.end() + 1] not in ("[", ".")
            parts += [reason[at:m.start()], shown + "=" if bare else shown]
            whole += [key] if bare else []
            at = m.end()
        return self._renamed("".join(parts) + reason[at:]), whole

    def _renamed(self, reason: str) -> str:
        """``reason`` with its seat numbers as letters and its ``words`` renamed."""
        if self.seats:
            reason = re.sub(r"\bseat ([0-9]+)\b",
                            lambda m: "seat " + _fill("@", (m[1],), self.seats), reason)
        for word, shown in self.words.items():
            reason = re.sub(rf"\b{re.escape(word)}\b", shown, reason)
        return reason

    def worded(self, exc: PositionError, validating: bool = False) -> PositionError:
        """``exc`` in notation words (module doc), or ``exc`` if it names nothing
        declared."""
        if isinstance(exc, NotationError):
            return exc
        found = self.field(exc.field)
        reason, named = self.reason(exc.reason)
        if found is None and reason == exc.reason:
            return exc
        field, key = found or (exc.field, None)
        own = [] if validating or key is None else [key]
        forms = [k.form for k in own + named if k.form]
        fix = f"; {forms[0]}" if forms and forms[0] not in reason else ""
        return NotationError(field, reason + fix)


@contextmanager
def in_notation_words(keys: NotationKeys | None, validating: bool = False
                      ) -> Iterator[None]:
    """Around parsing (or, ``validating``, checking) a user's notation: a
    ``PositionError`` comes out in the notation's words (module doc); with ``keys`` None
    (JSON input) as it is."""
    try:
        yield
    except PositionError as exc:
        if keys is None:
            raise
        raise keys.worded(exc, validating) from None
