"""Matplotlib figures off screen: making, checking output paths, saving.

Figures are made with ``figure(width, height)`` (inches at ``DPI``, constrained layout,
so the saved image is exactly ``width * DPI`` x ``height * DPI`` pixels and no label is
clipped) and never touch pyplot's global state, so they are safe in threads and workers.
"""

from __future__ import annotations

import io
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..errors import OddsbotError
from ..outputs import check_not_input, replacing

DPI = 100
FORMATS = ("png", "svg")


def figure(width: float, height: float) -> Figure:
    """An empty figure of ``width`` x ``height`` inches with an Agg canvas."""
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def image_format(path: Path, option: str = "--out") -> str:
    """``png`` or ``svg`` from ``path``'s suffix; a one-line error otherwise."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise OddsbotError(f"{option}: {str(path)!r} must end in .png or .svg")
    return fmt


def check_out(path: Path, inputs: list[Path], option: str = "--out") -> str:
    """Check that ``path`` may be written: a known image suffix, an existing folder, not
    a folder itself and not one of the user's ``inputs`` (by file identity: a hard link
    or a symlink to an input is refused too). Returns the format."""
    fmt = image_format(path, option)
    if path.is_dir():
        raise OddsbotError(f"{option}: {str(path)!r} is a folder")
    if not path.parent.is_dir():
        raise OddsbotError(f"{option}: folder {str(path.parent)!r} does not exist")
    check_not_input(path, inputs, option)
    return fmt


def title(fig: Figure, heading: str, subject: str) -> None:
    """Title ``fig`` inside its image: ``heading`` (what the chart shows) over ``subject``
    (the run or position it shows it for), replacing any earlier title."""
    fig.suptitle(f"{heading}\n{subject}", fontsize="medium")


def save(fig: Figure, path: Path, option: str = "--out") -> None:
    """Write ``fig`` to ``path`` in the format its suffix names (PNG at ``DPI``), whole
    or not at all (``outputs.replacing``); a failed write is one line naming
    ``option``."""
    try:
        with replacing(path) as f:
            fig.savefig(f, format=image_format(path, option), dpi=DPI)
    except OddsbotError as exc:
        raise OddsbotError(f"{option}: {exc}") from None


def png_bytes(fig: Figure) -> bytes:
    """``fig`` as PNG bytes at ``DPI`` (for embedding in a self-contained page)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()
