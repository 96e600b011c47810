"""The message above a screen: what just happened, or what went wrong, in the reader's words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError
from companion.messages import LANGS, Phrase, phrase

__all__ = ["Banner"]


@dataclass(frozen=True)
class Banner:
    """A message not yet in words (``companion.messages``), red when it is an error."""

    message: Phrase
    error: bool = False

    @classmethod
    def of(cls, key: str, **params: Any) -> Banner:
        return cls(phrase(key, **params))

    @classmethod
    def of_error(cls, error: CompanionError) -> Banner:
        return cls(error.phrase, error=True)

    @property
    def key(self) -> str:
        return self.message.key

    def text(self, lang: str) -> str:
        return self.message.text(lang if lang in LANGS else "fr")
