"""``COMPANION_DEBUG=1`` logs Companion's details, never image bytes nor Flet's whole patches."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from companion.cli._logs import MAX_RECORD_CHARS, configure
from companion.ui.shell.state import AppState

JPEG = cv2.imencode(".jpg", np.full((120, 160, 3), 90, np.uint8))[1].tobytes()


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    names = ("companion", "flet", "flet_object_patch")
    levels = {name: logging.getLogger(name).level for name in names}
    stream = io.StringIO()
    configure(debug=True, stream=stream)
    yield stream
    root.handlers[:], root.level = saved
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def test_debug_logs_say_bytes_by_their_size(debug_log: io.StringIO) -> None:
    state = AppState(thumbnails=(("a" * 64, JPEG),))
    log = logging.getLogger("companion.ui.shell.app")
    log.debug("photo %s from %s", JPEG, "phone")
    log.debug("state now %r", state)
    log.debug("%s", "x" * 50_000)
    out = debug_log.getvalue()
    assert f"photo <{len(JPEG)} bytes> from phone" in out
    assert "state now AppState(" in out and "<bytes>" in out
    assert "\\xff\\xd8" not in out and "ÿØ" not in out
    assert all(len(line) < MAX_RECORD_CHARS + 100 for line in out.splitlines())
    assert "(46000 more characters)" in out


def test_flets_patch_dumps_stay_out_of_debug_logs(debug_log: io.StringIO) -> None:
    logging.getLogger("flet_object_patch").debug("\n_compare_dataclasses: %s", JPEG)
    logging.getLogger("flet").info("session started")
    logging.getLogger("companion.storage").debug("photo stored")
    out = debug_log.getvalue()
    assert "_compare_dataclasses" not in out
    assert "session started" in out and "photo stored" in out


def test_without_debug_only_warnings(debug_log: io.StringIO) -> None:
    stream = io.StringIO()
    configure(debug=False, stream=stream)
    logging.getLogger("companion.ui.shell.app").debug("details")
    logging.getLogger("companion.ui.shell.app").warning("something is off")
    assert stream.getvalue() == "WARNING companion.ui.shell.app: something is off\n"
