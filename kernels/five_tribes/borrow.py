"""Arrays that numba counts no references to, for the arguments a walk passes down.

numba counts a reference to each array a function receives, on entry and again on exit
(atomic adds): a tuple of 30 arrays passed to a function costs 60, and LLVM's pass that
removes such pairs leaves them in functions with several exits. ``turn_walk.walk`` passes
its context, about 30 arrays, to itself and its helpers on every step of a turn.
"""

from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic


def _unowned(context, builder, ty, value):
    """``value`` of type ``ty`` with every array in it unowned (no meminfo, no parent)."""
    if isinstance(ty, types.Array):
        ary = context.make_array(ty)(context, builder, value=value)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    if isinstance(ty, types.BaseTuple):
        return context.make_tuple(builder, ty, [
            _unowned(context, builder, t, builder.extract_value(value, i))
            for i, t in enumerate(ty)])
    return value


@intrinsic
def _borrowed(typingctx, value):
    """``value`` (an array, or tuples of arrays and scalars, nested) as arrays of the same
    memory that no one owns, so that no reference to them is counted. Only for a
    function's own arguments (its caller keeps them alive while it runs), used during the
    call: never returned, never kept."""
    def codegen(context, builder, sig, args):
        return _unowned(context, builder, sig.args[0], args[0])
    return value(value), codegen


def _same(value):
    return value


borrowed = _same if config.DISABLE_JIT else _borrowed  # (plain Python counts nothing)
