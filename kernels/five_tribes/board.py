"""The Five Tribes board as arrays: 5 rows x 6 columns of tiles, tile ``6 * row + col``
(r0c0 top-left), meeple colours in the order Y (viziers), W (elders), B (builders),
G (merchants), R (assassins). A board's meeples are ``counts[30, 5]`` (int64)."""

import numpy as np

ROWS = 5
COLS = 6
N_TILES = ROWS * COLS
N_COLOURS = 5
COLOURS = "YWBGR"


def _neighbours() -> np.ndarray:
    """``[tile, k]``: the k-th orthogonal neighbour (up, left, right, down), -1 if none."""
    out = np.full((N_TILES, 4), -1, dtype=np.int64)
    for t in range(N_TILES):
        r, c = divmod(t, COLS)
        k = 0
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            if 0 <= r + dr < ROWS and 0 <= c + dc < COLS:
                out[t, k] = (r + dr) * COLS + c + dc
                k += 1
    return out


NEIGHBOURS = _neighbours()


def tile_name(t: int) -> str:
    """``r{row}c{col}`` of tile index ``t``."""
    return f"r{t // COLS}c{t % COLS}"
