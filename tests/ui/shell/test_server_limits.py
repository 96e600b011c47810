"""What a LAN neighbour can send before the join code is checked (#44): a request's headers
are capped, so no one grows the app's memory without the code. Real sockets on loopback,
uvicorn as ``companion app`` configures it; every loop is bounded."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.ui.shell.server import MAX_HEADER_BYTES, JoinGate
from tests.e2e.browser import free_port
from tests.helpers import ROOT
from tests.ui.shell.test_server_security import CODE, TOKEN, get, inner, serving

CHUNK = 64 * 1024


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with serving(JoinGate(inner, CODE, token=TOKEN)) as p:
        yield p


_SERVE = """
import sys, uvicorn
from companion.cli.app import server_config
from companion.ui.shell.server import JoinGate
from tests.ui.shell.test_server_security import CODE, TOKEN, inner
app = JoinGate(inner, CODE, token=TOKEN)
uvicorn.Server(server_config(app, "127.0.0.1", int(sys.argv[1]))).run()
"""


@pytest.fixture
def server_process() -> Iterator[tuple[int, int]]:
    """(port, process id) of the gate served by uvicorn in a process of its own, whose memory
    is then its own."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", _SERVE, str(port)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the test server did not start") from None
                time.sleep(0.1)
        yield port, server.pid
    finally:
        server.terminate()
        server.wait(30)


def _resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _send_header(port: int, size: int, finish: bool) -> socket.socket:
    """A socket that sent a request whose one header holds ``size`` bytes (stopping early if
    the server closes it), finished with its blank line or left hanging."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ")
    try:
        for _ in range(size // CHUNK):
            sock.sendall(b"a" * CHUNK)
        if finish:
            sock.sendall(b"\r\n\r\n")
    except OSError:
        pass  # the server refused it and closed the connection while it was still coming
    return sock


def _answer(sock: socket.socket) -> bytes:
    try:
        return sock.recv(200)
    except OSError:
        return b""  # reset: refused without an answer
    finally:
        sock.close()


def test_a_ten_megabyte_header_is_refused(port: int) -> None:
    answer = _answer(_send_header(port, 10 * 2**20, finish=True))
    assert not answer.startswith(b"HTTP/1.1 200")
    assert answer == b"" or answer.startswith(b"HTTP/1.1 400"), answer
    # A header within the cap still comes in.
    padding = "a" * (MAX_HEADER_BYTES // 2)
    assert get(port, X_Padding=padding)[0] == 200


def test_never_finished_headers_cannot_grow_memory(server_process: tuple[int, int]) -> None:
    port, pid = server_process
    before = _resident_mb(pid)
    hanging = [_send_header(port, 20 * 2**20, finish=False) for _ in range(10)]
    time.sleep(0.5)
    grown = _resident_mb(pid) - before
    for sock in hanging:
        sock.close()
    assert grown < 20, f"{grown:.0f} MB for 10 x 20 MB of headers"
    assert get(port)[0] == 200  # the app still answers
