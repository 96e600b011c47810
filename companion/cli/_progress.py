"""A long job's progress on a terminal: one line of standard error, rewritten in place as the
job goes and cleared when it ends. Where standard error is not a terminal (a file, a pipe, a
script's capture) nothing is written at all, so what scripts read is unchanged.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import IO

from companion.cli._out import shown

__all__ = ["on_terminal", "Progress"]

EVERY_S = 0.25  # a terminal line rewritten at most four times a second


def on_terminal(stream: IO[str] | None) -> bool:
    """Whether ``stream`` is a terminal a person watches (a closed one is not)."""
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False


class Progress:
    """``show(line)`` as the job goes; the line is cleared on leaving the ``with`` block."""

    def __init__(
        self, stream: IO[str] | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.active = on_terminal(self.stream)
        self.clock = clock
        self.shown_at = -EVERY_S
        self.width = 0

    def show(self, line: str, now: bool = False) -> None:
        """Rewrite the line (``now``: even within ``EVERY_S`` of the last time)."""
        if not self.active or (not now and self.clock() - self.shown_at < EVERY_S):
            return
        self.shown_at = self.clock()
        self._write(shown(line))

    def _write(self, line: str) -> None:
        try:
            self.stream.write("\r" + line.ljust(self.width))
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: the job goes on without it
            self.active = False
        self.width = len(line)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.active and self.width:
            try:
                self.stream.write("\r" + " " * self.width + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
