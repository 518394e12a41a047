"""One look for every chart: a colour, edge, hatch and marker per camel, and the series
colours of designer charts.

Camels keep their own colours, taken from the Okabe-Ito colour-blind-safe set where it
has the hue. Two fallbacks keep camels visible on a white page: white is drawn light grey
with a dark edge and a hatch, yellow a deeper gold with a dark edge. Every camel also has
its own marker, so line charts stay readable in greyscale.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Style:
    colour: str
    edge: str
    hatch: str
    marker: str


EDGE = "#333333"

CAMELS: dict[str, Style] = {
    "blue": Style("#0072B2", EDGE, "", "o"),
    "green": Style("#009E73", EDGE, "", "s"),
    "yellow": Style("#F2D400", EDGE, "", "^"),
    "red": Style("#D55E00", EDGE, "", "D"),
    "purple": Style("#8E4BA8", EDGE, "", "v"),
    "orange": Style("#E69F00", EDGE, "", "P"),
    "white": Style("#D9D9D9", EDGE, "//", "X"),
    "black": Style("#222222", EDGE, "", "*"),
}

# series that are not camels (variants, seats, policies, action kinds): Okabe-Ito order
SERIES = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
          "#000000")


def camel(name: str) -> Style:
    """The style of camel ``name`` (a colour name such as ``blue`` or ``white``)."""
    return CAMELS[name]


def series(i: int) -> str:
    """Colour of the ``i``-th non-camel series."""
    return SERIES[i % len(SERIES)]
