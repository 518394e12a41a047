"""Mumia kernel (docs/games/mumia.md).

Arrays in, arrays out; this package is the only implementation of the rules: ``layout``
(the state vector, the rules vector, fields and scores), ``moves`` (every piece movement,
collection, mummy tokens, hats, action tokens, the end tests), ``setup`` (a new game),
``choices`` (the legal choices of a roll and the policies), ``game`` (turns, whole games
and batches), ``exact`` (expectimax over the dice) and ``rollouts``.
"""
