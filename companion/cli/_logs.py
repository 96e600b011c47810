"""The app's logs: warnings by default; with ``COMPANION_DEBUG=1`` Companion's own details.

Flet's debug loggers write every page update whole, the state's photos and thumbnails
included (hundreds of kilobytes a second): they stay at INFO. Whatever logs, a record never
carries image bytes: a bytes value is written as its size, and a long record is cut.
"""

from __future__ import annotations

import logging
import re
from typing import IO, Any

__all__ = ["configure", "Readable", "MAX_RECORD_CHARS"]

MAX_RECORD_CHARS = 4000
# Flet's loggers that dump whole patches, controls and messages at DEBUG.
_CHATTY = ("flet", "flet_transport", "flet_object_patch", "flet_controls", "flet_components")
# A bytes literal as repr() writes one (inside a dataclass's repr, say), of 32 characters or more.
_BYTES_REPR = re.compile(r"""b(['"])(?:\\.|(?!\1).){32,}?\1""")


def _shown(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(value)} bytes>"
    return value


class Readable(logging.Filter):
    """Records as a person reads them: bytes by their size, no longer than
    ``MAX_RECORD_CHARS``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, dict):
            record.args = {key: _shown(value) for key, value in record.args.items()}
        elif record.args:
            record.args = tuple(_shown(value) for value in record.args)
        message = _BYTES_REPR.sub(lambda m: "<bytes>", record.getMessage())
        if len(message) > MAX_RECORD_CHARS:
            cut = len(message) - MAX_RECORD_CHARS
            message = f"{message[:MAX_RECORD_CHARS]}… ({cut} more characters)"
        record.msg, record.args = message, None
        return True


def configure(debug: bool, stream: IO[str] | None = None) -> logging.Handler:
    """Set up the process's logging once; returns the handler that writes the records."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(Readable())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO if debug else logging.WARNING)
    logging.getLogger("companion").setLevel(logging.DEBUG if debug else logging.NOTSET)
    for name in _CHATTY:
        logging.getLogger(name).setLevel(logging.INFO if debug else logging.NOTSET)
    return handler
