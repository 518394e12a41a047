"""Compiled game kernels: numba functions over integer arrays, no Python objects or I/O.

Compile time (docs/benchmarks.md, "First run"). numba compiles a jitted function once for
every distinct set of argument types it is called with, and a constant is a type of its
own (``Literal[int](0)``), also when it only starts a counter that a loop then changes;
and a jitted function links, optimises and emits again the machine code of everything it
calls. So kernels pass no constant flags or offsets to jitted callees (a flag that must be
constant is written ``np.bool_(False)``, a counter starts at ``np.int64(0)``), give every
optional input one type (an empty array rather than ``None``), inline thin dispatching
functions into their callers (``inline="always"``: one level less to link), and run in
parallel on threads (``threads``), not with numba's ``parallel=True``.
"""

from .cache_guard import purge_stale_caches

purge_stale_caches()
