"""Camel Up Cards kernel (docs/games/camel-up-cards.md).

Arrays in, arrays out; this package is the only implementation of the rules: ``track``
(movement, ranking, sandstorm, extension; stacks shared with Camel Up through
``kernels.stacks``), ``posterior`` (what the viewer knows of the race deck), ``leg`` (the
rest of a leg, exact or sampled), ``game`` (whole games) and ``policy``.
"""
