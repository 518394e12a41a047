"""Calls to a large kernel through a symbol, so that its callers do not compile it again;
a recursive kernel's calls to itself that numba does not type as a recursion.

numba links the whole of every kernel a kernel calls into the caller's machine code, and
optimises and generates it again there: a kernel of 20 s of compiling, called from five
kernels, is compiled six times (docs/benchmarks.md, "Where the compile time goes").
:func:`unlinked` gives a kernel's callers a call through a named symbol instead, bound to
the one compiled copy when the kernel's module is imported: the callers hold a call,
not a copy. A call costs what a call to a kernel that is not inlined costs (the kernel
is too large for LLVM to inline anyway); numba's exceptions pass through it as through
any call.

numba types a recursive kernel again at each call it makes to itself, to find the call's
return type, although the signature is given (numba's ``return_types_from_partial``:
about 6 s of the Five Tribes walk's compile, for its 11 recursive calls).
:func:`itself` is such a call typed from the signature alone; its machine code is the
same direct call to the kernel that numba's recursion makes.

Only for a kernel with one explicit signature (it is compiled, or loaded from numba's
cache, as its module is imported, before any caller can run). A cached caller holds the
symbol's name, not the kernel's code: when the kernel's types change, its callers must
be compiled again, which ``cache_guard`` ensures (any change to a game's kernel sources
clears that game's cache).
"""

from __future__ import annotations

from typing import Any, Callable

import llvmlite.binding as ll
from numba import types
from numba.core import cgutils, config
from numba.core.typing import Signature
from numba.extending import intrinsic


def unlinked(kernel: Any, symbol: str) -> Callable:
    """A function that jitted code calls as ``kernel``'s one signature, through ``symbol``
    (a name unique in the process, e.g. ``"oddsbot.five_tribes.walk"``) rather than a
    copy of the kernel; with numba's JIT disabled, ``kernel`` itself."""
    if config.DISABLE_JIT:
        return kernel
    (args,) = kernel.signatures
    compiled = kernel.overloads[args]
    ll.add_symbol(symbol, compiled.library.get_pointer_to_function(
        compiled.fndesc.llvm_func_name))

    def callee(builder: Any, fnty: Any) -> Any:
        return cgutils.get_or_insert_function(builder.module, fnty, symbol)

    return _call_as(compiled.signature, callee,
                    f"``{kernel.py_func.__qualname__}``, called through ``{symbol}``.")


def itself(sig: Signature, plain: Callable) -> Callable:
    """The call that a kernel of the one signature ``sig`` makes to itself, written in its
    body in place of its own name (``walk_again = itself(sig, lambda *a: walk(*a))``):
    only in that kernel's body. With numba's JIT disabled, ``plain``, a function that
    calls the kernel."""
    if config.DISABLE_JIT:
        return plain

    def callee(builder: Any, fnty: Any) -> Any:
        if builder.function.function_type != fnty:
            raise TypeError(f"a call to itself of type {sig} in {builder.function.name}, "
                            "which is not of that type")
        return builder.function

    return _call_as(sig, callee, f"The kernel of type ``{sig}`` calling itself.")


def _call_as(sig: Signature, callee: Callable[[Any, Any], Any], doc: str) -> Callable:
    """An intrinsic that calls, as a kernel of signature ``sig``, the function
    ``callee(builder, its LLVM type)`` gives."""

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
        status, result = context.call_conv.call_function(
            builder, callee(builder, fnty), sig.return_type, sig.args, values)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result

    call.__doc__ = doc
    return call
