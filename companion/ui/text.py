"""The app's words: the templates of ``companion.messages``, French when the language is unknown."""

from __future__ import annotations

from companion.messages import LANGS, text

__all__ = ["LANGS", "t"]


def t(key: str, lang: str, /, **params: object) -> str:
    """The text ``key`` in ``lang`` (French when unknown), filled with ``params``."""
    return text(key, lang if lang in LANGS else "fr", **params)
