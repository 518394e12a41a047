"""Five Tribes kernel: the board as arrays (``board``), the components (``data``), exact
sowing enumeration (``sowing``), final scoring (``scoring``), the whole position on one
state vector (``state``), the steps of one turn (``turn_steps``), every complete turn
(``complete_turns``), the round around the turns (``rounds``) and whole games in batches
(``batch_games``)."""

from .board import *  # noqa: F401,F403
from .data import *  # noqa: F401,F403
from .batch_games import *  # noqa: F401,F403
from .rounds import *  # noqa: F401,F403
from .scoring import *  # noqa: F401,F403
from .sowing import *  # noqa: F401,F403
from .state import *  # noqa: F401,F403
from .turn_steps import *  # noqa: F401,F403
from .complete_turns import *  # noqa: F401,F403
