"""Five Tribes kernel: the board as arrays (``board``), the components (``data``), exact
sowing enumeration (``sowing``), final scoring (``scoring``), the whole position on one
state vector (``state``) and the pieces of a turn (``turn``)."""

from .board import *  # noqa: F401,F403
from .data import *  # noqa: F401,F403
from .designer import *  # noqa: F401,F403
from .rounds import *  # noqa: F401,F403
from .scoring import *  # noqa: F401,F403
from .sowing import *  # noqa: F401,F403
from .state import *  # noqa: F401,F403
from .turn import *  # noqa: F401,F403
from .turns import *  # noqa: F401,F403
