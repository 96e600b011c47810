"""One app per data folder (#44): a second ``companion app`` on the same folder says where the
first one runs and touches nothing there, its uploads in flight included."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.storage.lock import FolderInUseError, hold_data_folder
from tests.e2e.browser import free_port
from tests.helpers import ROOT


def _argv(data: Path, port: int) -> list[str]:
    return [
        *(sys.executable, "-m", "companion", "app", "--data", str(data)),
        *("--port", str(port), "--host", "127.0.0.1", "--lang", "en"),
    ]


def _app(data: Path, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        _argv(data, port),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def _wait_for_line(app: subprocess.Popen[str], start: str, seconds: float = 120) -> None:
    assert app.stdout is not None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = app.stdout.readline()
        if line.startswith(start):
            return
        if not line and app.poll() is not None:
            raise AssertionError(
                f"the first app stopped: {app.stderr.read() if app.stderr else ''}"
            )
    raise AssertionError("the first app did not start in time")


def test_a_second_app_says_where_the_first_runs_and_keeps_its_uploads(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first_port = free_port()
    first = _app(data, first_port)
    try:
        _wait_for_line(first, "Data / données")
        pending = data / "uploads" / "photo.jpg"
        pending.write_bytes(b"\xff\xd8 an upload in flight")
        second = subprocess.run(
            _argv(data, free_port()), cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr.count("\n") == 1 and "already running" in second.stderr
        assert f"process {first.pid}" in second.stderr
        assert f"http://127.0.0.1:{first_port}/" in second.stderr
        assert pending.read_bytes() == b"\xff\xd8 an upload in flight"
        assert first.poll() is None  # the first one still runs
    finally:
        first.terminate()
        first.wait(30)


def test_the_lock_is_free_again_once_its_holder_is_done(tmp_path: Path) -> None:
    with hold_data_folder(tmp_path, "process 1, http://127.0.0.1:1/"):
        with pytest.raises(FolderInUseError, match="process 1, http://127.0.0.1:1/"):
            with hold_data_folder(tmp_path, "process 2"):
                pass
    with hold_data_folder(tmp_path, "process 3"):
        assert (tmp_path / "app.lock").read_text() == "process 3\n"
