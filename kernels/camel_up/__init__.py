"""Camel Up kernel (2nd edition, and the 2014 1st edition as a rules variant).

Arrays in, arrays out; this package is the only implementation of the rules:
``track`` (movement, ranking), ``leg`` (exact leg enumeration), ``race`` (Monte Carlo),
``exact_race`` (exact race odds), ``race_size`` (its states counted without it),
``game`` (actions and scoring on a whole-game state vector), ``policy`` (how simulated
players choose) and ``rollout`` (whole games and rollouts under policies).
"""

from .batch_games import *  # noqa: F401,F403
from .exact_race import race_exact  # noqa: F401
from .game import *  # noqa: F401,F403
from .leg import *  # noqa: F401,F403
from .policy import *  # noqa: F401,F403
from .race import *  # noqa: F401,F403
from .rollout import *  # noqa: F401,F403
from .track import *  # noqa: F401,F403
from .track import _index_of_keys  # noqa: F401
