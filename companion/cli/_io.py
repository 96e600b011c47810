"""Input shared by the sub-commands: a JSON document from a file or standard input, and the
bounded numbers of their options."""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from companion.errors import InputError, OutputError
from companion.formats.reading import MAX_CHARS, load_json
from companion.messages import Phrase, phrase, text

__all__ = ["read_json_input", "bounded_int", "write_whole", "write_bytes"]


def _read(path: str, name: Phrase | str) -> str:
    # Bytes, decoded strictly here: standard input's own decoder would let invalid UTF-8
    # through as surrogates where a file refuses it.
    if path == "-":
        if sys.stdin is None:  # started with standard input closed (``<&-``)
            raise InputError("input.unreadable", name=name, reason=phrase("input.closed"))
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text-only stream put in place of standard input
            return sys.stdin.read(MAX_CHARS + 1)
        data: bytes = stream.read(MAX_CHARS + 1)
    else:
        with open(path, "rb") as handle:
            data = handle.read(MAX_CHARS + 1)
    if len(data) > MAX_CHARS:
        raise InputError("input.too_large", name=name, mb=MAX_CHARS // 2**20)
    return data.decode("utf-8")


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


def _write_in_place(path: Path, write: Callable[[BinaryIO], object]) -> None:
    with path.open("wb") as file:
        write(file)


def _write_beside(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write a temporary file beside ``path``, then put it in its place: a failure (a full
    disk) leaves ``path`` as it was, and no half-written file behind."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part")
    # os.open, not mkstemp: the file gets the same permissions as any file the user writes.
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_whole(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Call ``write`` on a file that becomes ``path`` only once complete, or an ``OutputError``
    naming ``path`` (a device or a pipe, which holds nothing to lose, is written directly)."""
    try:
        if path.exists() and not path.is_file() and not path.is_dir():
            _write_in_place(path, write)
        else:
            _write_beside(path, write)
    except OSError as error:
        raise OutputError(str(path), error.strerror or str(error)) from None


def write_bytes(path: Path, data: bytes) -> None:
    """``write_whole`` of ``data``."""
    write_whole(path, lambda file: file.write(data))
