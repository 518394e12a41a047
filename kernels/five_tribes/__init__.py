"""Five Tribes kernel: the board as arrays (``board``), exact sowing enumeration
(``sowing``) and final scoring (``scoring``)."""

from .board import *  # noqa: F401,F403
from .data import *  # noqa: F401,F403
from .scoring import *  # noqa: F401,F403
from .sowing import *  # noqa: F401,F403
