"""Five Tribes kernel: the board as arrays (``board``), the components (``data``), exact
sowing enumeration (``sowing``) and sowings counted and drawn without listing them
(``sowing_count``), final scoring (``scoring``), the whole position on one state vector
(``state``), the steps of one turn (``turn_steps``), a complete turn (``complete_turns``),
djinn powers (``djinn_powers``), the walk over a turn's choices (``turn_walk``), the store
of its results (``turn_store``) and tables of them within a budget (``turn_table``), the
round around the turns (``rounds``), whole games in batches (``batch_games``), the
``heuristic`` policy's turn and whole-game rollouts from a position (``rollouts``).

The modules that hold the turn walk (``turn_walk``, which numba compiles as it is
imported: its signature is explicit, as it is called through ``unlinked.py``;
and those that import it) load on the first use of one of their names (``__getattr__``),
so that a command that only lists sowings or checks a position (``moves``,
``validate``) does not compile the walk. Every name is the object the star imports of
all the modules would give (``tests/five_tribes/test_package.py``)."""

from importlib import import_module

from .board import *  # noqa: F401,F403
from .data import *  # noqa: F401,F403
from .rounds import *  # noqa: F401,F403
from .scoring import *  # noqa: F401,F403
from .sowing import *  # noqa: F401,F403
from .sowing_count import *  # noqa: F401,F403
from .state import *  # noqa: F401,F403
from .turn_steps import *  # noqa: F401,F403
from .complete_turns import *  # noqa: F401,F403
from .djinn_powers import *  # noqa: F401,F403
from .turn_store import *  # noqa: F401,F403
from .heuristic import *  # noqa: F401,F403

del complete_turns  # noqa: F821 (the module: the name is the function ``turn_table`` holds)

WALK_MODULES = ("turn_walk", "turn_table", "batch_games", "rollouts")


def __getattr__(name: str) -> object:
    """A public name of the modules that hold the walk: they are imported and their
    public names bound here, as the star imports above bind the others'."""
    if not name.startswith("_"):
        for module in WALK_MODULES:
            found = vars(import_module(f"{__name__}.{module}"))
            globals().update((k, v) for k, v in found.items() if not k.startswith("_"))
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
