"""Five Tribes kernel: the board as arrays (``board``) and exact sowing enumeration
(``sowing``)."""

from .board import *  # noqa: F401,F403
from .sowing import *  # noqa: F401,F403
