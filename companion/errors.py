"""Errors that reach players: a stable ``code`` and its ``params``, never prose.

The words live in ``companion.messages`` (one template table per language, keyed by the code);
only the edges (CLI, app) render them, in the reader's language, and only they catch
``CompanionError``: anything else is a bug. Parameters name what is wrong: the card, the
player, the place (a ``Phrase``, so that it is said in the reader's language too), the file.

>>> error = TableError("table.river_size", n=4)
>>> error.message("en"), error.message("fr")
('the river has 4 cards, not 5', 'la rivière a 4 cartes, pas 5')
"""

from __future__ import annotations

from typing import Any, Final

from companion.messages import Phrase, phrase

__all__ = [
    "LANGUAGES",
    "CompanionError",
    "InputError",
    "TableError",
    "TableCode",
    "CardParseError",
    "DuplicateCardError",
    "PhotoLayoutError",
    "IllegalMoveError",
    "ImageDecodeError",
    "ModelLoadError",
    "OutputError",
    "DatabaseVersionError",
    "DatabaseDamagedError",
    "shortened",
]

LANGUAGES = ("en", "fr")
DAMAGE_SHOWN = 160  # characters of SQLite's damage report kept in the one-line message
TOKEN_SHOWN = 20  # characters of a bad token repeated in a message; a pasted page is cut
PATH_SHOWN = 120  # characters of a path repeated in a message


def shortened(token: str, limit: int = TOKEN_SHOWN) -> str:
    """``token`` as a message repeats it: its first ``limit`` characters, then "…" if cut.

    >>> shortened("As"), shortened("x" * 30)
    ('As', 'xxxxxxxxxxxxxxxxxxxx…')
    """
    return token if len(token) <= limit else token[:limit] + "…"


class CompanionError(Exception):
    """Base of every error shown to a player: ``code`` + ``params`` render in any language."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params: dict[str, Any] = dict(params)
        super().__init__(code)

    @property
    def phrase(self) -> Phrase:
        """The error as a message not yet in words, e.g. to nest it in another one."""
        return phrase(self.code, **self.params)

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` (English when the language is unknown)."""
        return self.phrase.text(lang)

    def __str__(self) -> str:
        return self.message("en")


class InputError(CompanionError, ValueError):
    """A file, option or field that cannot be read as given (not JSON, a wrong type...)."""


class TableError(CompanionError, ValueError):
    """A table that breaks its game's rules: a river of four, a hand short of a card..."""


class TableCode:
    """The codes of table errors that code tells apart (not only says), each named once."""

    NO_CARDS: Final = "table.no_cards"
    HOLE_COUNT: Final = "table.hole_count"
    NO_FRANCOIS_CARD: Final = "table.no_francois_card"
    RIVER_SIZE: Final = "table.river_size"
    RIVER2_SIZE: Final = "table.river2_size"
    BURNED_SIZE: Final = "table.burned_size"


class PhotoLayoutError(CompanionError, ValueError):
    """A photo whose cards do not lie as the game's layout expects."""


class CardParseError(InputError):
    """A token that is not a card, with where it was read (a ``Phrase`` or literal text)."""

    def __init__(self, token: str, where: Phrase | str) -> None:
        super().__init__("card.unreadable", token=shortened(token), where=where)


class DuplicateCardError(TableError):
    """The same physical card seen more often than the game's decks hold it."""

    def __init__(
        self,
        card: Any,
        places: tuple[Phrase | str, ...],
        decks: int = 1,
        knight: bool = False,
        joker: int = 0,
    ) -> None:
        count = len(places)
        if joker:  # ``joker``: the trumps the decks hold, each a joker
            code = "card.jokers_one_deck" if decks == 1 else "card.jokers_decks"
            params = {"places": _counted(places), "count": count, "decks": decks, "trumps": joker}
            super().__init__(code, card=card, **params)
            return
        if knight:  # a tarot deck holds one knight (suit-bound wild card) per suit
            code = "card.knight_twice" if decks == 1 else "card.knight_copies"
        elif decks > 1:
            code = "card.too_many_copies"
        else:
            code = "card.duplicate" if count == 2 else "card.copies_one_deck"
        super().__init__(code, card=card, places=_counted(places), count=count, decks=decks)


def _counted(places: tuple[Phrase | str, ...]) -> tuple[Phrase | str, ...]:
    """Each place once, in order, with how many times the card lies there when more than once
    (a hand holding it four times is named once, not four times)."""
    counts: dict[Phrase | str, int] = {}
    for place in places:
        counts[place] = counts.get(place, 0) + 1
    return tuple(
        place if n == 1 else phrase("place.times", place=place, n=n) for place, n in counts.items()
    )


class IllegalMoveError(CompanionError, ValueError):
    """A move refused by a game's rules; ``rule`` names the rule it breaks (for programs, never
    shown), and the message says it in words."""

    def __init__(self, game: str, rule: str, words: str | None = None, **params: Any) -> None:
        self.game = game
        self.rule = rule
        # ``words``: the template, when one rule is broken in ways said differently.
        super().__init__(words or f"{game}.{rule}", **params)

    @property
    def reason(self) -> Phrase:
        """What the rule says, without the "illegal move" before it."""
        return phrase(self.code, **self.params)

    @property
    def phrase(self) -> Phrase:
        return phrase("move.illegal", reason=self.reason)


class ImageDecodeError(InputError):
    """A file that cannot be read as an image; ``reason`` is an ``image.*`` phrase."""

    def __init__(self, path: str, reason: Phrase) -> None:
        super().__init__("image.unreadable", path=path, reason=reason)


class OutputError(CompanionError):
    """A file a command was asked to write that could not be written; it was left as it was."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__("output.unwritable", path=shortened(path, PATH_SHOWN), reason=reason)


class ModelLoadError(CompanionError):
    """The ONNX model is missing or unusable; ``reason`` is what onnxruntime or the OS said."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__("model.unusable", path=path, reason=reason)


class DatabaseVersionError(CompanionError):
    """A game log written by a newer Companion: never reset, never downgraded."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__("log.newer", path=path, found=found, known=known)


class DatabaseDamagedError(CompanionError):
    """A game log that SQLite cannot read; ``reason`` is SQLite's own words or a ``log.*``
    phrase."""

    def __init__(self, path: str, reason: Phrase | str) -> None:
        if isinstance(reason, str):
            # SQLite's integrity report runs to a line per damaged page: one line, cut short.
            reason = shortened(" ".join(reason.split()), DAMAGE_SHOWN)
        super().__init__("log.damaged", path=path, reason=reason)
