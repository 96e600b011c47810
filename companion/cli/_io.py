"""Input shared by the sub-commands: a JSON document from a file or standard input, and the
bounded numbers of their options."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from companion.errors import InputError
from companion.formats.reading import MAX_CHARS, load_json
from companion.messages import Phrase, phrase, text

__all__ = ["read_json_input", "bounded_int"]


def _read(path: str, name: Phrase | str) -> str:
    if path == "-":
        if sys.stdin is None:  # started with standard input closed (``<&-``)
            raise InputError("input.unreadable", name=name, reason=phrase("input.closed"))
        return sys.stdin.read(MAX_CHARS + 1)
    with open(path, encoding="utf-8") as handle:
        return handle.read(MAX_CHARS + 1)


def read_json_input(path: str) -> Any:
    """The JSON document in ``path`` (``-``: standard input), or an InputError naming the file."""
    name: Phrase | str = phrase("place.stdin") if path == "-" else path
    try:
        content = _read(path, name)
    except InputError:
        raise
    except OSError as error:
        raise InputError(
            "input.unreadable", name=name, reason=error.strerror or str(error)
        ) from None
    except UnicodeDecodeError:
        raise InputError("input.not_utf8", name=name) from None
    except ValueError as error:  # a closed or detached stream
        raise InputError("input.unreadable", name=name, reason=str(error)) from None
    return load_json(content, name)


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, read without building a
    5,000-digit integer first; out of range, argparse says so in one line (exit 2)."""

    def parse(given: str) -> int:
        digits = given.strip().lstrip("+-")
        if (
            not (digits.isascii() and digits.isdigit())
            or len(digits) > len(str(max(abs(low), abs(high)))) + 1
        ):
            raise argparse.ArgumentTypeError(
                text("option.whole_number", "en", value=given[:20], low=low, high=high)
            )
        value = int(given)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                text("option.whole_number", "en", value=given, low=low, high=high)
            )
        return value

    return parse
