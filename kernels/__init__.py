"""Compiled game kernels: numba functions over integer arrays, no Python objects or I/O."""

from .cache_guard import purge_stale_caches

purge_stale_caches()
