"""Every sentence a player reads, one template table per language (``en``, ``fr``).

A message is a key and its parameters, rendered only at the edge (CLI, app) in the reader's
language. Parameters are plain values, cards (shown with suit glyphs), sequences of them, or
``Phrase`` values (another key with its parameters, e.g. a place: ``phrase("place.hand",
name="Ana")``), rendered in the same language. A field ``{n:p:card|cards}`` picks the singular
or the plural by the number ``n`` (French takes the singular for 0 and 1). A field
``{name:de}`` writes French's "de" before it, elided before a vowel or an h ("d'Ana").

>>> text("place.hand", "fr", name="Ana")
"la main d'Ana"
>>> text("place.hand", "fr", name="Bob")
'la main de Bob'
>>> text("table.players_count", "en", variant=phrase("variant.circular"), low=3, high=10, n=2)
'circular is played by 3 to 10 players, not 2'
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from companion.messages import en, fr
from companion.messages.numbers import numbers

__all__ = ["LANGS", "Phrase", "phrase", "named", "text", "render", "has_text"]

LANGS = ("fr", "en")  # the app's order: French first, its default
_TABLES: Mapping[str, Mapping[str, str]] = {"en": en.MESSAGES, "fr": fr.MESSAGES}


@runtime_checkable
class _Shown(Protocol):
    """A value with its own way to be shown to players (a card: ``A♠``)."""

    def pretty(self) -> str: ...


@dataclass(frozen=True)
class Phrase:
    """A message not yet in words: its key and parameters."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    def text(self, lang: str = "en") -> str:
        return text(self.key, lang, **dict(self.params))


def phrase(key: str, /, **params: Any) -> Phrase:
    """``Phrase(key, params)`` with the parameters given by name."""
    return Phrase(key, tuple(params.items()))


def render(value: Any, lang: str) -> Any:
    """A parameter as shown in ``lang``; numbers stay numbers, for plurals and format specs."""
    if isinstance(value, Phrase):
        return value.text(lang)
    if isinstance(value, bool):
        return text("word.yes" if value else "word.no", lang)
    if isinstance(value, int | float):
        return value
    if isinstance(value, _Shown):
        return value.pretty()
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence):
        items = [render(item, lang) for item in value]
        if all(isinstance(item, _Shown) for item in value):
            return " ".join(str(item) for item in items) or "—"
        words = [str(item) for item in items]
        if len(words) < 2:
            return "".join(words)
        return ", ".join(words[:-1]) + text("word.and", lang) + words[-1]
    return value


# French elides "de" before these first letters (a name's h taken as mute: "d'Hugo").
_ELIDING = frozenset("aeiouyhàâäéèêëîïôöùûüÿæœ")


def _de(name: str) -> str:
    """French "de" before ``name``: "d'Ana", "de Bob"."""
    return f"d'{name}" if name[:1].casefold() in _ELIDING else f"de {name}"


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "de":
            return _de(str(value))
        if format_spec.startswith("p:"):
            one, _, many = format_spec[2:].partition("|")
            singular = value in (0, 1) if self.lang == "fr" else value == 1
            return one if singular else many
        written = str(super().format_field(value, format_spec))
        # A number with decimals in the reader's way: "3,5 Mo" in French.
        return numbers(self.lang).marked(written) if isinstance(value, float) else written


_FORMATTERS = {lang: _Formatter(lang) for lang in _TABLES}


def has_text(key: str) -> bool:
    return key in _TABLES["en"]


def named(key: str, name: str) -> Phrase | str:
    """The words for ``name`` (e.g. a variant, ``key`` ``variant.classic``), or the name as it
    is when the tables do not know it (one saved by a newer Companion)."""
    return phrase(key) if has_text(key) else name


def text(key: str, lang: str = "en", /, **params: Any) -> str:
    """The template ``key`` in ``lang`` (English when the language is unknown), filled in."""
    table = _TABLES.get(lang, _TABLES["en"])
    template = table.get(key)
    if template is None:
        raise KeyError(f"no {lang!r} text for {key!r}")  # a bug: every key has both languages
    shown = {name: render(value, lang) for name, value in params.items()}
    return _FORMATTERS.get(lang, _FORMATTERS["en"]).format(template, **shown)
