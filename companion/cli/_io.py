"""Input shared by the sub-commands: a JSON document from a file or standard input."""

from __future__ import annotations

import json
import sys
from typing import Any

from companion.errors import TableError

__all__ = ["read_json_input"]


def read_json_input(path: str) -> Any:
    """The JSON document in ``path`` (``-``: standard input), or a TableError naming the file."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise TableError(
            f"cannot read {name}: {error.strerror}", f"impossible de lire {name} : {error.strerror}"
        ) from None
    except UnicodeDecodeError:
        raise TableError(f"{name} is not UTF-8 text", f"{name} n'est pas du texte UTF-8") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise TableError(
            f"{name} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})",
            f"{name} n'est pas du JSON valide (ligne {error.lineno}, colonne {error.colno})",
        ) from None
