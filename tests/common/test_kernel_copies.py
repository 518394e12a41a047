"""No kernel copies an array into a slice (``dst[a:b] = src``, ``out[i, :] = row``).

numba compiles the error such a copy raises on a shape mismatch, string formatting, into
every kernel that holds one and optimises it again in each caller: seconds of every
first run (docs/benchmarks.md, "array copies without numba's slice assignment"). Kernels
copy with ``kernels/arrays.py``'s loops instead. Checked on the source: in every jitted
function, an assignment to a subscript with a slice whose value is not a constant (a
scalar fill such as ``a[:] = 0`` or ``= np.nan`` raises no such error; a fill by a scalar
*variable* is flagged too, as the source cannot tell it from an array: write it as a loop).
A copy into a row by an integer index (``states[0] = s``) does the same but cannot be told
from a scalar store on the source; ``bench/bench_compile.py`` shows it (a string function
compiled).
"""

from __future__ import annotations

import ast
from pathlib import Path

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def _jitted(fn: ast.FunctionDef) -> bool:
    names = {ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in fn.decorator_list}
    return any(name.split(".")[-1] == "njit" for name in names)


def _constant(value: ast.expr) -> bool:
    """A literal, a negated literal or a numpy constant (``np.nan``, ``np.inf``)."""
    if isinstance(value, ast.UnaryOp):
        value = value.operand
    return isinstance(value, ast.Constant) or (
        isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
        and value.value.id == "np")


def slice_copies(source: str) -> list[str]:
    """``line: statement`` of every array-into-slice assignment in a jitted function."""
    found = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.FunctionDef) or not _jitted(fn):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and not _constant(node.value):
                for target in node.targets:
                    if isinstance(target, ast.Subscript) and any(
                            isinstance(n, ast.Slice) for n in ast.walk(target.slice)):
                        found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_check_finds_a_slice_copy_and_passes_a_fill():
    source = ("@njit(cache=True)\ndef f(a, b, n):\n    a[:n] = b[:n]\n    a[:] = 0\n"
              "    a[1:] = -1.5\n    a[:] = np.nan\n    b[0] = n\n    a[n, :] = b\n"
              "def g(a, b):\n    a[:] = b\n")
    assert slice_copies(source) == ["3: a[:n] = b[:n]", "8: a[n, :] = b"]


def test_no_kernel_copies_an_array_into_a_slice():
    found = {str(path.relative_to(KERNELS)): copies for path in sorted(KERNELS.rglob("*.py"))
             if (copies := slice_copies(path.read_text(encoding="utf-8")))}
    assert not found, f"array copies into slices (use kernels/arrays.py): {found}"
