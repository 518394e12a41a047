"""Compiled game kernels: numba functions over integer arrays, no Python objects or I/O.

Compile time (docs/benchmarks.md, "First run", "Where the compile time goes"). numba
compiles a jitted function once for every distinct set of argument types it is called
with, and a jitted function links, optimises and emits again the machine code of
everything it calls. So every kernel is declared with ``jit.njit`` (one compilation per
plain argument types, whatever constants its callers pass), gives every optional input
one type (an empty array rather than ``None``), inlines thin dispatching functions into
their callers (``inline="always"``: one level less to link), and runs in parallel on
threads (``threads``), not with numba's ``parallel=True``.
"""

from .cache_guard import purge_stale_caches

purge_stale_caches()
