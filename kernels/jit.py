"""``njit`` for every kernel: numba's, compiled once per argument *types*, not per constant.

numba types a constant argument of a call from one kernel to another as a literal
(``Literal[int](0)``, ``Literal[bool](False)``) and compiles the callee again for every
pattern of constants its callers pass: one helper of Five Tribes was compiled 31 times
(docs/benchmarks.md, "Where the compile time goes"). The dispatcher here first asks for
the callee compiled for the plain types (``int64``, ``bool``), which every such call then
shares; only a kernel that cannot be typed without its constants (none today) falls back
to numba's literal specialisation. The machine code is the same: LLVM still inlines and
folds a small callee at each call site. Calls from Python are unchanged (numba never
types their arguments as literals).
"""

from __future__ import annotations

from typing import Any, Callable

from numba.core import config, typeinfer, types
from numba.core.errors import TypingError
from numba.core.registry import CPUDispatcher


class PlainDispatcher(CPUDispatcher):
    """A CPU dispatcher whose jitted callers share one compilation per argument types."""

    def get_call_template(self, args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
        if plain != tuple(args) or plain_kws != kws:
            try:
                return super().get_call_template(plain, plain_kws)
            except TypingError:
                pass  # needs its constants: numba's literal specialisation below
        return super().get_call_template(args, kws)


def njit(*args: Any, cache: bool = False, **options: Any) -> Any:
    """``numba.njit`` with a :class:`PlainDispatcher`: ``@njit``, ``@njit(cache=True,
    nogil=True, inline="always")`` or ``@njit(signature, cache=True)``."""
    signatures = None
    if args and not callable(args[0]):
        signatures, args = args[0], args[1:]

    def wrap(func: Callable) -> PlainDispatcher | Callable:
        if config.DISABLE_JIT:
            return func
        disp = PlainDispatcher(py_func=func, locals={},
                               targetoptions={"nopython": True, **options})
        if cache:
            disp.enable_caching()
        if signatures is not None:
            with typeinfer.register_dispatcher(disp):
                for sig in signatures if isinstance(signatures, list) else [signatures]:
                    disp.compile(sig)
                disp.disable_compile()
        return disp

    if args:
        return wrap(args[0])
    return wrap
