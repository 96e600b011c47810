"""The app's words: the templates of ``companion.messages``, French when the language is unknown."""

from __future__ import annotations

from companion.messages import LANGS, render, text
from companion.messages.variants import variant_words

__all__ = ["LANGS", "t", "variant_name", "heist_words"]


def t(key: str, lang: str, /, **params: object) -> str:
    """The text ``key`` in ``lang`` (French when unknown), filled with ``params``."""
    return text(key, lang if lang in LANGS else "fr", **params)


def variant_name(variant: str, lang: str, tokens: str = "base") -> str:
    """A house variant in words, with its token rule unless base; one this Companion does not
    know (a newer one's) as it is."""
    return str(render(variant_words(variant, tokens), lang if lang in LANGS else "fr"))


def heist_words(number: int, opened: bool, lang: str) -> str:
    """A heist as a screen reader says it: "Heist 2: alarm"."""
    return t("heist_line", lang, n=number, verdict=t("vault" if opened else "alarm_word", lang))
