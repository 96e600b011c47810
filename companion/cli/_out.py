"""What the commands write to a terminal: every line as text a terminal shows, never acts on.

A player's name or a saved field may hold a newline, an escape sequence or a lone surrogate
(valid in JSON, not encodable): each is written as its escape (``\\n``, ``\\x1b``, ``\\ud800``),
so one logical line stays one line and nothing in the input can move the cursor or recolour
the screen.

>>> shown("Ana\\x1b[31m\\nBob\\ud800")
'Ana\\\\x1b[31m\\\\nBob\\\\ud800'
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import sys
from collections.abc import Iterable
from typing import IO, Any

__all__ = [
    "shown",
    "write_lines",
    "write_blocks",
    "write_json",
    "write_json_text",
    "OutputClosedError",
    "ClosedOutput",
    "Discarded",
    "silence_stdout",
]

# C0 and C1 controls, DEL, lone surrogates, and the line and paragraph separators.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029]")
# What ``json.dumps`` leaves raw among those: DEL, C1, surrogates and the separators.
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\ud800-\udfff\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def shown(line: str) -> str:
    """``line`` with every control character, separator and lone surrogate escaped."""
    return _UNSAFE.sub(_escape, line)


def write_lines(lines: Iterable[str], stream: IO[str] | None = None) -> None:
    """Write each logical line as one terminal line."""
    out = sys.stdout if stream is None else stream
    out.write("".join(shown(line) + "\n" for line in lines))
    out.flush()


def write_blocks(blocks: Iterable[Iterable[str]], stream: IO[str] | None = None) -> None:
    """Write blocks of lines, an empty line between two blocks."""
    lines: list[str] = []
    for block in blocks:
        if lines:
            lines.append("")
        lines.extend(block)
    write_lines(lines, stream)


def write_json(value: Any, indent: int | None = 2, stream: IO[str] | None = None) -> None:
    """``value`` as JSON (``write_json_text``)."""
    write_json_text(json.dumps(value, ensure_ascii=False, indent=indent), stream)


def write_json_text(document: str, stream: IO[str] | None = None) -> None:
    """A JSON document; characters a terminal would act on or cannot encode are written as
    ``\\uXXXX`` escapes, which read back as the same string (``json.dumps`` escapes the C0
    controls itself)."""
    out = sys.stdout if stream is None else stream
    out.write(_UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", document) + "\n")
    out.flush()


class OutputClosedError(OSError):
    """Standard output was closed when the command started (``>&-``): nothing can be shown."""

    def __init__(self) -> None:
        super().__init__(errno.EBADF, os.strerror(errno.EBADF))


class ClosedOutput(io.TextIOBase):
    """What ``sys.stdout`` is when the command started without one: ``print`` would write
    nowhere and say nothing; every write here fails instead, as writing to a closed file
    does."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OutputClosedError()


class Discarded(io.TextIOBase):
    """What ``sys.stderr`` is when it was closed: its lines go nowhere (the exit status still
    says how the command ended), never to standard output."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def silence_stdout() -> None:
    """After the reader of standard output left (a closed pipe): whatever is still buffered,
    and the interpreter's last flush, go nowhere instead of failing again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor behind it (a test's capture)
        pass
