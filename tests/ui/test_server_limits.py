"""What a LAN neighbour can send before the join code is checked (#44): a request's headers
are capped, so no one grows the app's memory without the code. Real sockets on loopback,
uvicorn as ``companion app`` configures it; every loop is bounded."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.ui.server import MAX_HEADER_BYTES, JoinGate
from tests.ui.test_server_security import CODE, TOKEN, get, inner, serving

CHUNK = 64 * 1024


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with serving(JoinGate(inner, CODE, token=TOKEN)) as p:
        yield p


def _resident_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096 / 2**20


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


def test_never_finished_headers_cannot_grow_memory(port: int) -> None:
    before = _resident_mb()
    hanging = [_send_header(port, 5 * 2**20, finish=False) for _ in range(10)]
    time.sleep(0.5)
    grown = _resident_mb() - before
    for sock in hanging:
        sock.close()
    assert grown < 15, f"{grown:.0f} MB for 10 x 5 MB of headers"
    assert get(port)[0] == 200  # the app still answers
