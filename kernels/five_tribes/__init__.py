"""Five Tribes kernel: the board as arrays (``board``), the components (``data``), exact
sowing enumeration (``sowing``) and sowings counted and drawn without listing them
(``sowing_count``), final scoring (``scoring``), the whole position on one state vector
(``state``), the steps of one turn (``turn_steps``), a complete turn (``complete_turns``),
djinn powers (``djinn_powers``), the walk over a turn's choices (``turn_walk``), the store
of its results (``turn_store``) and tables of them within a budget (``turn_table``), the
round around the turns (``rounds``), whole games in batches (``batch_games``), the
``heuristic`` policy's turn and whole-game rollouts from a position (``rollouts``)."""

from .board import *  # noqa: F401,F403
from .data import *  # noqa: F401,F403
from .batch_games import *  # noqa: F401,F403
from .rounds import *  # noqa: F401,F403
from .scoring import *  # noqa: F401,F403
from .sowing import *  # noqa: F401,F403
from .sowing_count import *  # noqa: F401,F403
from .state import *  # noqa: F401,F403
from .turn_steps import *  # noqa: F401,F403
from .complete_turns import *  # noqa: F401,F403
from .djinn_powers import *  # noqa: F401,F403
from .turn_store import *  # noqa: F401,F403
from .turn_walk import *  # noqa: F401,F403
from .turn_table import *  # noqa: F401,F403
from .heuristic import *  # noqa: F401,F403
from .rollouts import *  # noqa: F401,F403
