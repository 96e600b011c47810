"""The one JSON reader of every entry point (CLI files, standard input, the app's pasted text),
with limits: a document that is too large, too deep or holds an absurd number is refused in
words before anything is built from it.

>>> load_json('{"board": "As Kd"}', "table.json")
{'board': 'As Kd'}
>>> load_json("[" * 100 + "]" * 100, "table.json")
Traceback (most recent call last):
...
companion.errors.InputError: table.json nests lists or objects more than 32 levels deep
"""

from __future__ import annotations

import json
import math
from typing import Any

from companion.errors import InputError, shortened
from companion.messages import Phrase

__all__ = ["MAX_CHARS", "MAX_DEPTH", "MAX_DIGITS", "MAX_CONTAINERS", "load_json", "key_names"]

MAX_CHARS = 64 * 2**20  # a batch of 10,000 tables is about 4 MB
MAX_DEPTH = 32  # the formats nest 4 levels; the rest is room for notes
MAX_DIGITS = 18  # token counts, decks and sizes are small; 18 digits fit in an int64
# Lists and objects in one document: a batch of 10,000 tables holds about 100,000, where 3
# million token moves (57 MB) took a minute and 900 MB to read before any check could see them.
MAX_CONTAINERS = 500_000


def _number(text: str, name: Phrase | str) -> None:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise InputError("input.number_too_long", name=name, digits=MAX_DIGITS)


def _integer(name: Phrase | str) -> Any:
    def parse(text: str) -> int:
        _number(text, name)
        return int(text)

    return parse


def _real(name: Phrase | str) -> Any:
    def parse(text: str) -> float:
        if len(text) > 2 * MAX_DIGITS:
            raise InputError("input.number_too_long", name=name, digits=MAX_DIGITS)
        value = float(text)
        if not math.isfinite(value):
            raise InputError("input.number_too_long", name=name, digits=MAX_DIGITS)
        return value

    return parse


def _constant(name: Phrase | str) -> Any:
    def parse(text: str) -> None:
        # NaN and Infinity are not JSON; Python's reader takes them unless told.
        raise InputError("input.not_json", name=name, line=1, column=1, detail=text)

    return parse


def _depth(value: Any) -> int:
    """How deep ``value`` nests lists and objects (iterative: a deep one must not recurse)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return deepest


def key_names(keys: Any) -> tuple[str, ...]:
    """Unknown keys as a message names them: printable, cut short, sorted."""
    return tuple(sorted(shortened(k if k.isprintable() else repr(k)) for k in map(str, keys)))


def load_json(text: str, name: Phrase | str) -> Any:
    """The JSON document in ``text`` (read from ``name``), or an ``InputError`` in words."""
    if len(text) > MAX_CHARS:
        raise InputError("input.too_large", name=name, mb=MAX_CHARS // 2**20)
    # Counted on the raw text (brackets inside strings too: at worst an absurd name is refused).
    if text.count("{") + text.count("[") > MAX_CONTAINERS:
        raise InputError("input.too_many_values", name=name, most=MAX_CONTAINERS)
    try:
        value = json.loads(
            text,
            parse_int=_integer(name),
            parse_float=_real(name),
            parse_constant=_constant(name),
        )
    except json.JSONDecodeError as error:
        raise InputError(
            "input.not_json", name=name, line=error.lineno, column=error.colno, detail=error.msg
        ) from None
    except RecursionError:
        raise InputError("input.too_deep", name=name, depth=MAX_DEPTH) from None
    if _depth(value) > MAX_DEPTH:
        raise InputError("input.too_deep", name=name, depth=MAX_DEPTH)
    return value
