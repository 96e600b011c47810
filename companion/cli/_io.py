"""Input shared by the sub-commands: a JSON document from a file or standard input."""

from __future__ import annotations

import json
import sys
from typing import Any

from companion.errors import InputError
from companion.messages import phrase

__all__ = ["read_json_input"]


def read_json_input(path: str) -> Any:
    """The JSON document in ``path`` (``-``: standard input), or an InputError naming the file."""
    name = phrase("place.stdin") if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise InputError(
            "input.unreadable", name=name, reason=error.strerror or str(error)
        ) from None
    except UnicodeDecodeError:
        raise InputError("input.not_utf8", name=name) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            "input.not_json", name=name, line=error.lineno, column=error.colno, detail=error.msg
        ) from None
