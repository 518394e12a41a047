"""Compiled game kernels: numba functions over integer arrays, no Python objects or I/O."""
