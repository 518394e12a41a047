"""A result table: named columns, rows in order, and where the numbers came from.

``advise`` returns one (the EV table) and every terminal view is one; the renderings
(``render``) take it as it is. It is deliberately small and free of pandas: a warm
``oddsbot advise`` must start in well under a second, and importing pandas alone takes
0.3 s of that on a 2-core machine (docs/benchmarks.md, "Speed at the prompt"). For
analysis, ``frame()`` gives the same table as a pandas DataFrame (provenance in
``attrs["provenance"]``), and ``Table.from_frame`` makes one from a DataFrame.

Conventions: a cell that does not apply to a row is ``None`` (a DataFrame shows NaN);
numbers are Python ``int`` or ``float``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


def plain(value: Any) -> Any:
    """A cell as a plain Python value: numpy scalars to Python, NaN to None."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


_KEPT = (str, int, bool, type(None))  # cells ``plain`` returns as they are


def _plain_column(column: pd.Series) -> list[Any]:
    """``plain`` of every cell of ``column``: numpy's bool, int and float columns converted
    whole (``tolist`` gives Python values), NaN to None; any other column cell by cell."""
    kind = column.dtype.kind if isinstance(column.dtype, np.dtype) else "O"
    if kind not in "biuf":
        return [v if type(v) in _KEPT else plain(v) for v in column.tolist()]
    out = column.to_numpy().tolist()
    if kind == "f":
        return [None if v != v else v for v in out]
    return out


@dataclass(frozen=True)
class Table:
    """Columns, rows (tuples in column order) and provenance (how the numbers were made)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    provenance: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dicts(cls, rows: Iterable[Mapping[str, Any]], columns: Sequence[str],
                   provenance: Mapping[str, Any] | None = None) -> Table:
        """Rows given as dicts; a column a row lacks is ``None`` there."""
        return cls(tuple(columns), tuple(tuple(plain(r.get(c)) for c in columns)
                                         for r in rows), dict(provenance or {}))

    @classmethod
    def from_columns(cls, columns: Mapping[str, Sequence[Any]],
                     provenance: Mapping[str, Any] | None = None) -> Table:
        """Columns given as name -> values (all of one length)."""
        names = tuple(columns)
        values = [list(columns[n]) for n in names]
        return cls(names, tuple(tuple(plain(v) for v in row) for row in zip(*values)),
                   dict(provenance or {}))

    @classmethod
    def from_frame(cls, df: pd.DataFrame) -> Table:
        """A DataFrame's columns and rows (NaN as None), with its ``attrs["provenance"]``.
        Converted a column at a time (a Five Tribes turn table has 45,000 rows)."""
        cells = [_plain_column(df.iloc[:, i]) for i in range(df.shape[1])]
        rows = tuple(zip(*cells)) if cells else ((),) * len(df)
        return cls(tuple(str(c) for c in df.columns), rows,
                   dict(df.attrs.get("provenance", {})))

    def __len__(self) -> int:
        return len(self.rows)

    def __contains__(self, name: object) -> bool:
        return name in self.columns

    def __getitem__(self, name: str) -> list[Any]:
        """The values of column ``name``, in row order."""
        i = self.columns.index(name)
        return [row[i] for row in self.rows]

    def dicts(self) -> list[dict[str, Any]]:
        """Every row as a dict of every column."""
        return [dict(zip(self.columns, row)) for row in self.rows]

    def records(self) -> list[dict[str, Any]]:
        """Every row as a dict, leaving out the cells that do not apply (None)."""
        return [{c: v for c, v in zip(self.columns, row) if v is not None}
                for row in self.rows]

    def head(self, k: int) -> Table:
        """The first ``k`` rows."""
        return Table(self.columns, self.rows[:k], self.provenance)

    def select(self, names: Sequence[str]) -> Table:
        """Only the columns ``names``, in that order."""
        index = [self.columns.index(n) for n in names]
        return Table(tuple(names), tuple(tuple(row[i] for i in index) for row in self.rows),
                     self.provenance)

    def with_columns(self, columns: Mapping[str, Sequence[Any]]) -> Table:
        """This table with columns added (or replaced, in place) from name -> values."""
        names = list(self.columns) + [n for n in columns if n not in self.columns]
        current = {n: self[n] for n in self.columns} | {n: list(v) for n, v in
                                                        columns.items()}
        return Table.from_columns({n: current[n] for n in names}, self.provenance)

    def sorted_by(self, name: str) -> Table:
        """Rows ordered by column ``name``, largest first; ties keep their order."""
        i = self.columns.index(name)
        return Table(self.columns, tuple(sorted(self.rows, key=lambda r: -r[i])),
                     self.provenance)

    def numeric(self, name: str) -> bool:
        """Whether column ``name`` holds numbers only (cells that do not apply aside)."""
        values = [v for v in self[name] if v is not None]
        return bool(values) and all(isinstance(v, (int, float)) for v in values)

    def frame(self) -> pd.DataFrame:
        """The table as a pandas DataFrame (None as NaN in numeric columns), provenance in
        ``attrs["provenance"]``."""
        import pandas as pd

        df = pd.DataFrame(list(self.rows), columns=list(self.columns))
        for name in self.columns:
            if df[name].dtype == object and self.numeric(name):
                df[name] = df[name].astype(float)
        df.attrs["provenance"] = dict(self.provenance)
        return df
