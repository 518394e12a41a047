"""Camel Up editions as rules variants: names, letters and the kernel's rules parameters."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import PositionError, quote

CRAZY_NAMES = ("white", "black")
CRAZY_LETTERS = ("W", "K")
GREY_DIE = "grey"
GREY_LETTER = "X"
SIDES = ("cheer", "boo")  # the sides' internal names, the 2nd edition's words
TILE_WORD = "spectator"  # the 2nd edition's word for the tile action


@dataclass(frozen=True)
class Variant:
    """One edition. Racing camels are listed in kernel order (camel index 0..4)."""

    id: str
    description: str
    colours: tuple[str, ...]
    letters: tuple[str, ...]
    crazy: bool
    leg_left: int  # dice left in the pyramid when the leg ends
    tickets: tuple[int, ...]  # a colour's betting tickets, top first
    partnerships: bool
    min_players: int
    max_players: int
    tile_word: str = TILE_WORD  # the tile action's first word in labels
    side_words: tuple[str, str] = SIDES  # the words for the cheer and boo sides in labels

    @property
    def camels(self) -> tuple[str, ...]:
        """Every camel name, kernel order: racing camels, then white and black crazy."""
        return self.colours + (CRAZY_NAMES if self.crazy else ())

    @property
    def camel_letters(self) -> tuple[str, ...]:
        return self.letters + (CRAZY_LETTERS if self.crazy else ())

    @property
    def dice(self) -> tuple[str, ...]:
        """Dice names, kernel order: one per racing colour, then the grey die."""
        return self.colours + ((GREY_DIE,) if self.crazy else ())

    @property
    def dice_letters(self) -> tuple[str, ...]:
        return self.letters + ((GREY_LETTER,) if self.crazy else ())

    def camel(self, token: object, field: str) -> str:
        """The camel named by ``token`` (full name or one letter, any case)."""
        if isinstance(token, str):
            low = token.strip().lower()
            for name, letter in zip(self.camels, self.camel_letters):
                if low == name or low == letter.lower():
                    return name
        letters = " ".join(self.camel_letters)
        raise PositionError(field, f"unknown camel {quote(token)} (expected a letter, "
                                   f"{letters}, or the colour's name)")

    def colour(self, token: object, field: str) -> str:
        """The racing colour named by ``token``."""
        name = self.camel(token, field)
        if name not in self.colours:
            raise PositionError(field, f"{name} is a crazy camel, not a racing colour")
        return name

    def die(self, token: object, field: str) -> str:
        if isinstance(token, str):
            low = token.strip().lower()
            for name, letter in zip(self.dice, self.dice_letters):
                if low in (name, letter.lower()) or (name == GREY_DIE and low == "gray"):
                    return name
        raise PositionError(field, f"unknown die {quote(token)} (expected one of "
                                   f"{', '.join(self.dice)})")

    def side(self, token: object, field: str) -> str:
        """The side (``cheer`` or ``boo``) named by ``token``: the 2nd edition's word or the
        edition's own (docs/games/camel-up.md §13.1, Appendix A)."""
        if isinstance(token, str):
            low = token.strip().lower()
            for words in (SIDES, self.side_words):
                if low in words:
                    return SIDES[words.index(low)]
        names = " or ".join(map(repr, SIDES))
        if self.side_words != SIDES:
            names += f" ({' or '.join(map(repr, self.side_words))} also read)"
        raise PositionError(field, f"side must be {names}, got {quote(token)}")

    def is_tile_word(self, word: str) -> bool:
        """Whether ``word`` starts a tile action: the edition's word or ``spectator``."""
        return word.lower() in (self.tile_word, TILE_WORD)

    def side_word(self, side: str) -> str:
        """The edition's word for the side ``side`` (``cheer`` or ``boo``)."""
        return self.side_words[SIDES.index(side)]


CAMEL_UP = Variant(
    id="camel-up",
    description="Camel Up 2nd edition (2018): crazy camels, grey die, spectator tiles",
    colours=("blue", "green", "yellow", "red", "purple"),
    letters=("B", "G", "Y", "R", "P"),
    crazy=True,
    leg_left=1,
    tickets=(5, 3, 2, 2),
    partnerships=True,
    min_players=3,
    max_players=8,
)

CAMEL_UP_2014 = Variant(
    id="camel-up-2014",
    description="Camel Up 1st edition (2014): no crazy camels, 5 dice, desert tiles "
                "(oasis = cheer, mirage = boo), tickets 5/3/2",
    colours=("blue", "green", "orange", "yellow", "white"),
    letters=("B", "G", "O", "Y", "W"),
    crazy=False,
    leg_left=0,
    tickets=(5, 3, 2),
    partnerships=False,
    min_players=2,
    max_players=8,
    tile_word="desert",
    side_words=("oasis", "mirage"),
)

VARIANTS: dict[str, Variant] = {v.id: v for v in (CAMEL_UP, CAMEL_UP_2014)}
MAX_PLAYERS = max(v.max_players for v in VARIANTS.values())
MAX_SEAT = MAX_PLAYERS - 1


def variant(name: object) -> Variant:
    if isinstance(name, str) and name in VARIANTS:
        return VARIANTS[name]
    raise PositionError("variant", f"unknown variant {quote(name)} (known: "
                                   f"{', '.join(VARIANTS)})")
