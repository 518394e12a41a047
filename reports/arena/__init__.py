"""The arena (``oddsbot arena``, docs/strategies.md): policies play each other on paired
deals with every seating, and the table ranks them with 95 % intervals.

- ``lineups``: who sits where (every seat permutation of the policies);
- ``stats``: the table from the games (win rates, scores, margins, ratings);
- ``run``: playing the games, in the kernel's whole games (compiled policies only) or one
  decision at a time (``search``, a user's Python policy).
"""
