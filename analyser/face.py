"""The declared face of a game: what every game offers, and what it may offer.

A game declares itself once, in its analyser package's ``__init__.py``, as
``GAME = GameSpec(...)``. The declaration is light (no numba, no pandas): it names the game,
its rules variants, its capabilities, its game-only CLI options and the modules that
implement it, which are imported on first use:

- ``face``: the module implementing :class:`GameFace` (every game, required);
- ``designer``: the module implementing ``oddsbot.reports.face.DesignerFace`` (designer
  reports, and the position and replay charts where those capabilities are declared).

:class:`Capability` lists what a game may lack. The CLI asks :meth:`GameSpec.require`
before it uses one, so a missing capability is refused in one line from one place
(``five-tribes has no replay yet``). The conformance test (``tests/common``) checks every
registered game against this module: the face's members, and one protocol per declared
capability. How to add a game: ``docs/adding-a-game.md``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..errors import OddsbotError

if TYPE_CHECKING:  # the declarations stay light: no numba at import
    from .notation_errors import NotationKeys
    from .table import Table

Progress = Callable[[int, int], None]  # (done, planned) samples or turns


class Capability(Enum):
    """What a game may offer beyond the required face; the value is how the CLI names it."""

    RECORDS = "replay"                     # game records: the face's ``record`` (RecordFace)
    ROLLOUTS = "rollouts"                  # ``advise --rollouts`` / ``replay --rollouts``
    POSITION_CHART = "position charts"     # ``chart``: the designer's ``position_chart``
    REPLAY_CHART = "replay charts"         # ``replay --chart``: the designer's ``replay_chart``
    REPORTS = "designer reports"           # ``report``: the designer module
    PLAY = "play-along"                    # ``serve``: the face's ``apply`` (PlayFace)
    SEATS = "arena seats"                  # ``arena``, ``search``: the face's ``seats`` (SeatsFace)


@dataclass(frozen=True)
class GameOption:
    """A CLI option only some games have, e.g. Camel Up's ``--deck-model``.

    ``name`` is the keyword the face's functions take; the CLI lists the option in
    ``--help`` under the game's title, refuses it in one line for a game without it, and
    passes it (its ``default`` when not given) to the face of a game that has it."""

    name: str
    help: str
    default: str
    choices: tuple[str, ...]   # () for free text, which the face reads (one line if bad)
    commands: tuple[str, ...]  # the commands that take it: "advise", "odds", "replay", "new"

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class RuleParam:
    """A switchable rule parameter (``--rule NAME=VALUE`` on every command, listed by
    ``oddsbot rules GAME``): where the rules leave a detail open, the resolution chosen
    is its default. ``values`` says what may be written; the face reads the text."""

    name: str
    default: str
    values: str
    meaning: str


@dataclass(frozen=True)
class GameSpec:
    """One game, declared once (module docstring)."""

    name: str                      # the game id, e.g. "camel-up"
    title: str                     # for people, e.g. "Camel Up"
    variants: Mapping[str, str]    # rules variant id -> description; the game id included
    players: tuple[int, int]       # fewest and most players
    face: str                      # import path of the GameFace module
    docs: str                      # the rules as implemented, e.g. "docs/games/camel-up.md"
    capabilities: frozenset[Capability] = frozenset()
    options: tuple[GameOption, ...] = ()
    designer: str | None = None    # import path of the DesignerFace module (reports)
    default_top: int | None = None  # rows of the terminal EV table unless --top says
    policies: tuple[str, ...] = ()  # seat policies of whole simulated games (new --play)
    rollout_policies: tuple[str, ...] = ()  # of --rollouts (--policy); the first by default
    # the game's own columns of the advise and odds tables -> their meaning (in --help)
    advise_columns: Mapping[str, str] = field(default_factory=dict)
    odds_columns: Mapping[str, str] = field(default_factory=dict)
    # where a deal of ``oddsbot new`` starts, if a player may expect otherwise, and how to
    # go on from there (in ``new --help``)
    new_note: str = ""
    examples: tuple[str, ...] = ()  # command lines shown in --help (a test runs each one)
    aliases: tuple[str, ...] = field(default=())  # other ids that name the game
    # rule parameters; a game with any offers ``with_rules(pos, {name: text})`` and takes
    # ``rules={name: text}`` in ``new_position``, ``play`` and its designer's runs
    rules: tuple[RuleParam, ...] = ()
    # command ("advise", "odds", "chart") -> the default --target-se at which its Monte
    # Carlo stops; a command not named samples a fixed number (--samples) unless told
    target_se: Mapping[str, float] = field(default_factory=dict)
    # the game's board module for the page of ``oddsbot serve``: a file of the game's
    # analyser package (e.g. "board.js"), served at /games/<game>/board.js (docs/serve.md)
    board: str | None = None

    def __post_init__(self) -> None:
        if self.name not in self.variants:
            raise ValueError(f"{self.name}: its own id must be one of its variants")
        if (Capability.ROLLOUTS in self.capabilities) != bool(self.rollout_policies):
            raise ValueError(f"{self.name}: rollouts need their policies declared")
        if (Capability.REPORTS in self.capabilities) != (self.designer is not None):
            raise ValueError(f"{self.name}: designer reports need a designer module")

    def load(self) -> GameFace:
        """The game's face module (imported on first use; numba loads here)."""
        return importlib.import_module(self.face)

    def load_designer(self) -> ModuleType:
        """The game's designer module (reports and charts)."""
        self.require(Capability.REPORTS)
        return importlib.import_module(self.designer)

    def has(self, capability: Capability) -> bool:
        return capability in self.capabilities

    def require(self, capability: Capability, where: str | None = None) -> None:
        """One line for a capability the game lacks: ``five-tribes has no replay yet``,
        after ``where`` (the option that asked for it) when given."""
        if capability not in self.capabilities:
            raise OddsbotError(("" if where is None else f"{where}: ")
                               + f"{self.name} has no {capability.value} yet")

    def option(self, name: str) -> GameOption | None:
        return next((o for o in self.options if o.name == name), None)


@runtime_checkable
class GameResult(Protocol):
    """A whole simulated game: its turns, and the record text (``start ...`` first)."""

    turns: list

    def text(self) -> str: ...


@runtime_checkable
class GameFace(Protocol):
    """What every game's face module offers (module-level names).

    Conventions: a position is an immutable dataclass with ``to_notation()``,
    ``to_json()``, ``Position.from_json(obj)``, ``variant``, ``players`` and ``to_move``;
    bad input raises ``oddsbot.errors.OddsbotError`` (``PositionError`` for positions)
    with a one-line message. ``advise`` returns the EV table, an ``analyser.table.Table``
    (columns ``action, ev, se, method, gap`` first, rows best first, ``provenance``;
    ``.frame()`` for pandas); game-only options arrive as keywords (``GameOption.name``).
    Every view (``table_view``, ``odds_view``) is a Table too."""

    NAME: str
    VARIANTS: Mapping[str, str]
    POLICIES: tuple[str, ...]  # = the declaration's ``policies`` (new --play)
    # the JSON path -> notation key map that words a notation user's errors
    # (``analyser/notation_errors.py``)
    NOTATION_KEYS: NotationKeys
    Position: type

    def parse(self, text: str) -> Any: ...

    def parse_as(self, text: str, variant: str) -> Any: ...

    def validate(self, pos: Any) -> None: ...

    def legal_actions(self, pos: Any) -> list[str]: ...

    # how the notation and records name seat ``seat`` (0-based): "2", "D", ... Every line
    # for people names players so; JSON keeps the integer seat
    def player_name(self, pos: Any, seat: int) -> str: ...

    def moves(self, pos: Any) -> tuple[dict[str, int], list[str]]: ...

    def advise(self, pos: Any, *, samples: int | None, seed: int, target_se: float | None,
               progress: Progress | None, **options: Any) -> Table: ...

    def advise_caption(self, pos: Any, prov: dict) -> str: ...

    def table_view(self, table: Table, wide: bool = False) -> Table: ...

    def odds(self, pos: Any, *, samples: int | None, seed: int, target_se: float | None,
             progress: Progress | None) -> dict: ...

    def counts_line(self, counts: dict[str, int]) -> str: ...

    def warm_up(self) -> None: ...  # compile every kernel the commands use (oddsbot warm-up)

    def odds_view(self, result: dict, wide: bool = False, people: bool = True
                  ) -> tuple[Table, str]: ...

    def new_position(self, players: int, seed: int, variant: str) -> Any: ...

    def simulate(self, pos: Any, *, seed: int, policy: str) -> GameResult: ...

    def play(self, players: int, seed: int, variant: str, policy: str) -> str: ...


@runtime_checkable
class PlayFace(Protocol):
    """Capability PLAY: a game carried forward one action at a time (``oddsbot serve``,
    docs/serve.md); module-level names of the face.

    ``action`` is a label exactly as ``advise`` and ``moves`` print it; an ``outcome`` is
    a chance result named in the words the game's docs use (``blue 2`` for a Camel Up
    die). ``outcomes(pos, action)`` lists ``(outcome, probability)`` pairs, probabilities
    summing to 1, or ``[]`` when the action involves no chance; ``apply`` refuses a
    missing, unknown or unneeded outcome and an illegal action with an ``OddsbotError``
    (one line). The rules stay in the kernels: ``apply`` runs the kernel's own step.
    ``record_text(start, moves)`` is the record (``oddsbot replay`` reads it) of the
    game played from ``start`` by the ``(action, outcome)`` pairs, and ``record_moves``
    reads one back: ``record_moves(record_text(s, m)) == (s, m)``."""

    def outcomes(self, pos: Any, action: str) -> list[tuple[str, float]]: ...

    def apply(self, pos: Any, action: str, outcome: str | None = None) -> Any: ...

    def record_text(self, start: Any, moves: list[tuple[str, str | None]]) -> str: ...

    def record_moves(self, text: str) -> tuple[Any, list[tuple[str, str | None]]]: ...


@runtime_checkable
class SeatsFace(Protocol):
    """Capability SEATS: whole games played one decision at a time, each seat by its own
    policy (``oddsbot arena``, the ``search`` player, a user's Python policy:
    docs/strategies.md); module-level names of the face, implemented in the game's
    ``seats.py``.

    The game is run on *true* positions: the referee's, with everything the rules hide
    (cards in hand, face-down bets, the order of a deck) filled in. A policy sees only
    ``seat_view(pos, seat)``, what that seat may know (``pos`` itself where nothing is
    hidden); ``legal_actions(view)`` are the seat's legal actions, labelled as ``advise``
    labels them. Seeds are stream seeds (``kernels.rng``, 0..2**64-1): the same seed gives
    the same result on any number of threads.

    - ``deal(players, seed, variant, rules)``: the true start of a new game (``rules``:
      ``{name: text}`` of ``--rule``, ``{}`` for the defaults).
    - ``choose(view, policy, seed)``: the action a compiled policy (one of ``POLICIES``)
      takes for the player to move, from the view alone; its random choices from ``seed``.
    - ``step(pos, action, seed)``: the true position after the player to move takes
      ``action``, its chance drawn by the rules from ``seed``, and that chance in the words
      of ``outcomes`` (``None`` where the action has none).
    - ``game_result(pos)``: ``None`` while the game goes on; once it is over, every seat's final
      score and its win share (1 for the winner, 1/k each for k tied winners after the
      rules' tie-breaks; the shares sum to 1).
    - ``candidates(view, k, seed)``: at most ``k`` actions worth searching, best first by
      the game's own ``advise`` ranking (computed the cheapest way that ranks as ``advise``
      does), every legal action when there are at most ``k``; always including what
      ``heuristic`` and ``greedy`` would choose.
    - ``playouts(view, actions, n=, seed=, policy=)``: ``(scores, wins)``, float64 arrays
      of shape ``(len(actions), n, players)``: the final scores and win shares of ``n``
      games played on from the view after each action, every seat by ``policy``. Rollout
      ``i`` of every action draws its chance (and what the view hides, sampled from the
      model the game's docs state) from the same stream, so actions are compared on common
      random numbers.
    - ``seated_record(positions, moves)``: the record of a game played so (``new --play
      search``), in the game's record format, which ``replay`` reads back: ``positions``
      the true positions before each move and after the last, ``moves`` the (action,
      outcome) pairs ``step`` gave."""

    def deal(self, players: int, seed: int, variant: str, rules: Mapping[str, str]
             ) -> Any: ...

    def seat_view(self, pos: Any, seat: int) -> Any: ...

    def choose(self, view: Any, policy: str, seed: int) -> str: ...

    def step(self, pos: Any, action: str, seed: int) -> tuple[Any, str | None]: ...

    def game_result(self, pos: Any) -> tuple[tuple[float, ...], tuple[float, ...]] | None: ...

    def candidates(self, view: Any, k: int, seed: int) -> list[str]: ...

    def playouts(self, view: Any, actions: list[str], *, n: int, seed: int, policy: str
                 ) -> tuple[Any, Any]: ...

    def seated_record(self, positions: list[Any], moves: list[tuple[str, str | None]]
                      ) -> str: ...


@runtime_checkable
class RecordFace(Protocol):
    """Capability RECORDS: the face's ``record`` module reads and annotates game records.

    ``load_record(text)`` returns ``(record, steps)``: ``record.start`` is the start
    position; ``steps`` is the list of (position before, turn) pairs, with ``over``,
    ``to_move``, ``final`` (the position after the record's last line as the player to
    move sees it, where play goes on: ``advise RECORD``; it may be None once the game is
    over) and the result when the game is over."""

    def load_record(self, text: str) -> tuple[Any, Any]: ...

    def status(self, steps: Any) -> str: ...

    def result(self, steps: Any) -> dict | None: ...

    def annotate(self, steps: Any, *, samples: int, seed: int, rollouts: int | None,
                 policy: str | None, progress: Progress | None = None,
                 **options: Any) -> Table: ...

    def table_view(self, table: Table, wide: bool = False) -> Table: ...

    def ev_lost_by_player(self, table: Table, players: int) -> list[float]: ...

    def caption(self, steps: Any, lost: list[float], *, samples: int, seed: int,
                rollouts: int | None) -> str: ...
