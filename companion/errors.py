"""Errors that reach players: a stable code, parameters, and a message in English or French.

Only the edges (CLI, app) catch ``CompanionError``; anything else is a bug.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = [
    "CompanionError",
    "CardParseError",
    "DuplicateCardError",
    "TableError",
    "IllegalMoveError",
    "ImageDecodeError",
    "ModelLoadError",
    "DatabaseVersionError",
    "DatabaseDamagedError",
    "LANGUAGES",
]

LANGUAGES = ("en", "fr")


class CompanionError(Exception):
    """Base of every error shown to a player: ``code`` + ``params`` render in any language."""

    code: ClassVar[str] = "error"
    templates: ClassVar[Mapping[str, str]] = {"en": "{detail}", "fr": "{detail}"}

    def __init__(self, **params: Any) -> None:
        self.params: dict[str, Any] = dict(params)
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` (English when the language is unknown)."""
        template = self.templates.get(lang, self.templates["en"])
        return template.format(**self.params)


class CardParseError(CompanionError, ValueError):
    """A token that is not a card, with where it was read."""

    code = "card_parse"
    templates = {
        "en": "{token!r} is not a card ({where}); write cards like As, Td, 10h, Q♥ or * for a wild",
        "fr": "{token!r} n'est pas une carte ({where}) ; "
        "écrivez par ex. As, Td, 10h, Q♥ ou * pour un joker",
    }

    def __init__(self, token: str, where: str) -> None:
        super().__init__(token=token, where=where)


class DuplicateCardError(CompanionError, ValueError):
    """The same physical card seen twice in a one-deck game."""

    code = "duplicate_card"
    templates = {
        "en": "{card} appears twice ({places}) but the game uses one deck",
        "fr": "{card} apparaît deux fois ({places}) alors que la partie se joue avec un seul jeu",
    }

    def __init__(self, card: str, places: tuple[str, ...]) -> None:
        super().__init__(card=card, places=" and ".join(places))


class TableError(CompanionError, ValueError):
    """A table description that breaks the variant's shape (missing river, wrong hand size...)."""

    code = "table"
    templates = {"en": "{detail}", "fr": "{detail_fr}"}

    def __init__(self, detail: str, detail_fr: str | None = None) -> None:
        super().__init__(detail=detail, detail_fr=detail_fr or detail)


class IllegalMoveError(CompanionError, ValueError):
    """A move refused by a game's rules; ``rule`` names the rule it breaks."""

    code = "illegal_move"
    templates = {"en": "illegal move: {detail}", "fr": "coup interdit : {detail_fr}"}

    def __init__(self, rule: str, detail: str, detail_fr: str | None = None) -> None:
        super().__init__(rule=rule, detail=detail, detail_fr=detail_fr or detail)

    @property
    def rule(self) -> str:
        return str(self.params["rule"])


class ImageDecodeError(CompanionError, ValueError):
    """A file that cannot be read as an image."""

    code = "image_decode"
    templates = {
        "en": "{path}: cannot be read as an image ({reason})",
        "fr": "{path} : illisible comme image ({reason})",
    }

    def __init__(self, path: str, reason: str = "unknown format") -> None:
        super().__init__(path=path, reason=reason)


class ModelLoadError(CompanionError):
    """The ONNX model is missing or unusable."""

    code = "model_load"
    templates = {
        "en": "cannot load the card model {path}: {reason}",
        "fr": "impossible de charger le modèle de cartes {path} : {reason}",
    }

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path=path, reason=reason)


class DatabaseVersionError(CompanionError):
    """A game log written by a newer Companion: never reset, never downgraded."""

    code = "database_version"
    templates = {
        "en": "{path} was written by a newer Companion (schema {found}, this one knows {known}); "
        "it was left untouched",
        "fr": "{path} a été écrit par une version plus récente de Companion (schéma {found}, "
        "celle-ci connaît {known}) ; il n'a pas été modifié",
    }

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(path=path, found=found, known=known)


class DatabaseDamagedError(CompanionError):
    """A game log that SQLite cannot read."""

    code = "database_damaged"
    templates = {
        "en": "{path} is damaged and cannot be opened ({reason}); it was left untouched",
        "fr": "{path} est endommagé et ne peut pas être ouvert ({reason}) ; il n'a pas été modifié",
    }

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path=path, reason=reason)
