"""Five Tribes kernel: the board as arrays (``board``), the components (``data``), exact
sowing enumeration (``sowing``), final scoring (``scoring``) and the whole position on one
state vector (``state``)."""

from .board import *  # noqa: F401,F403
from .data import *  # noqa: F401,F403
from .scoring import *  # noqa: F401,F403
from .sowing import *  # noqa: F401,F403
from .state import *  # noqa: F401,F403
