"""Calls to a large kernel through a named cell, so that its callers, and the kernel itself
where it recurses, do not compile it again.

numba links the whole of every kernel a kernel calls into the caller's machine code, and
optimises and generates it again there: a kernel of 20 s of compiling, called from five
kernels, is compiled six times (docs/benchmarks.md, "Where the compile time goes").
:func:`unlinked` gives a kernel's callers a call through a named cell instead, which
holds the address of the one compiled copy once the kernel's module is imported: the
callers hold a call, not a copy.

A recursive kernel calls itself through :func:`ahead`, declared before the kernel with
its signature: numba then sees no recursion, and does not type the whole kernel again at
each recursive call to find its return type (numba's ``return_types_from_partial``, about
6 s of the Five Tribes walk's compile), although the signature is given.

A call costs what a call to a kernel that is not inlined costs, plus one load of the
cell (the kernel is too large for LLVM to inline anyway); numba's exceptions pass through
it as through any call. Only for a kernel with one explicit signature: it is compiled, or
loaded from numba's cache, as its module is imported, before any caller can run. A
cached caller holds the cell's name, not the kernel's code: when the kernel's types
change, its callers must be compiled again, which ``cache_guard`` ensures (any change to
a game's kernel sources clears that game's cache).
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable

import llvmlite.binding as ll
from llvmlite import ir
from numba import types
from numba.core import cgutils, config
from numba.core.typing import Signature
from numba.extending import intrinsic

_CELLS: dict[str, tuple[Signature, ctypes.c_void_p, Callable]] = {}  # symbol: its cell


def ahead(sig: Signature, symbol: str) -> Callable:
    """A function that jitted code calls with signature ``sig`` through the cell named
    ``symbol`` (unique in the process, e.g. ``"oddsbot.five_tribes.walk"``), to be filled
    by ``unlinked(kernel, symbol)`` once the kernel is compiled; a kernel may call it
    before that, in its own body. With numba's JIT disabled, a function that calls the
    kernel given to ``unlinked``. Declared again (a module imported again), the same
    function."""
    if symbol in _CELLS:
        if _CELLS[symbol][0] != sig:
            raise ValueError(f"the cell {symbol!r} is declared with another signature")
        return _CELLS[symbol][2]
    cell = ctypes.c_void_p()
    if config.DISABLE_JIT:
        held: list[Callable] = []

        def call(*args: Any) -> Any:
            return held[0](*args)

        call.held = held  # type: ignore[attr-defined]
    else:
        ll.add_symbol(symbol, ctypes.addressof(cell))
        call = _through(sig, symbol)
    _CELLS[symbol] = (sig, cell, call)
    return call


def unlinked(kernel: Any, symbol: str) -> Callable:
    """A function that jitted code calls as ``kernel``'s one signature, through the cell
    ``symbol`` (declared here unless ``ahead`` declared it), rather than a copy of the
    kernel; with numba's JIT disabled, ``kernel`` itself."""
    if config.DISABLE_JIT:
        if symbol in _CELLS:
            _CELLS[symbol][2].held[:] = [kernel]  # type: ignore[attr-defined]
        return kernel
    (args,) = kernel.signatures
    compiled = kernel.overloads[args]
    if symbol not in _CELLS:
        ahead(compiled.signature, symbol)
    _, cell, call = _CELLS[symbol]
    cell.value = compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)
    return call


def _through(sig: Signature, symbol: str) -> Callable:
    """The intrinsic that calls the function whose address the cell ``symbol`` holds, as
    a numba kernel of signature ``sig``."""

    @intrinsic
    def call(typingctx, *given):
        if len(given) == 1 and isinstance(given[0], types.StarArgTuple):
            given = tuple(given[0])  # (typed again from numba's folded arguments)
        if len(given) != len(sig.args) or not all(
                typingctx.can_convert(g, want) for g, want in zip(given, sig.args)):
            return None
        return sig.return_type(types.StarArgTuple(given)), codegen

    def codegen(context, builder, signature, packed):
        given = signature.args[0]
        values = [context.cast(builder, v, g, want) for v, g, want in
                  zip(cgutils.unpack_tuple(builder, packed[0]), given, sig.args)]
        fnty = context.call_conv.get_function_type(sig.return_type, sig.args)
        cell = builder.module.globals.get(symbol)
        if cell is None:  # declared: the cell's address is bound to ``symbol``
            cell = ir.GlobalVariable(builder.module, fnty.as_pointer(), symbol)
        status, result = context.call_conv.call_function(
            builder, builder.load(cell), sig.return_type, sig.args, values)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result

    call.__doc__ = f"A kernel of type ``{sig}``, called through the cell ``{symbol}``."
    return call
