"""No web page can reach the app, and the join code cannot be guessed (#17): over real HTTP
and websockets on loopback, with uvicorn as ``companion app`` configures it."""

from __future__ import annotations

import asyncio
import http.client
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from companion.cli.app import server_config
from companion.ui.shell.server import (
    GLOBAL_TRIES,
    SESSION_S,
    JoinGate,
    fresh_upload_folder,
)
from tests.e2e.browser import free_port

CODE = "12345678"
TOKEN = "a-long-token-of-the-printed-link"


async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A stand-in app that, like Flet's, says ``Access-Control-Allow-Origin: *`` and
    ``Cross-Origin-Embedder-Policy: require-corp``."""
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "hello"})
        await send({"type": "websocket.close", "code": 1000})
        return
    if scope["type"] != "http":
        return
    headers = [
        (b"content-length", b"3"),
        (b"access-control-allow-origin", b"*"),
        (b"cross-origin-embedder-policy", b"require-corp"),
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"app"})


@contextmanager
def serving(app: Any) -> Iterator[int]:
    """``app`` served by uvicorn on a free loopback port, with the app's own settings."""
    port = free_port()
    server = uvicorn.Server(server_config(app, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def get(port: int, path: str = "/", **headers: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("GET", path, skip_host="Host" in headers)
    for name, value in headers.items():
        conn.putheader(name.replace("_", "-"), value)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with serving(JoinGate(inner, CODE, token=TOKEN)) as p:
        yield p


def test_this_computer_comes_in_without_a_code_and_without_cors(port: int) -> None:
    status, headers, body = get(port)
    assert (status, body) == (200, b"app")
    assert "access-control-allow-origin" not in headers  # the app's '*' is taken out
    assert "cross-origin-embedder-policy" not in headers  # the page is never isolated
    assert headers["x-frame-options"] == "DENY"  # and no other site may frame it
    assert "frame-ancestors 'none'" in headers["content-security-policy"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"},
        {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"},
        {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"},
    ],
)
def test_another_sites_page_is_refused(port: int, headers: dict[str, str]) -> None:
    assert get(port, "/", **headers)[0] == 403


def test_a_link_from_elsewhere_and_the_apps_own_origin_pass(port: int) -> None:
    assert get(port, "/", Sec_Fetch_Site="cross-site", Sec_Fetch_Mode="navigate")[0] == 200
    assert get(port, "/", Origin=f"http://127.0.0.1:{port}")[0] == 200


def test_a_rebound_name_on_loopback_needs_the_code(port: int) -> None:
    """DNS rebinding: evil.example pointed at 127.0.0.1 has the right origin, not the name."""
    origin = f"http://evil.example:{port}"
    status, _, body = get(port, "/", Host=f"evil.example:{port}", Origin=origin)
    assert status == 401 and b"code" in body


@pytest.mark.parametrize("path", ["/docs", "/openapi.json", "/redoc"])
def test_api_pages_are_off(port: int, path: str) -> None:
    assert get(port, path)[0] == 404


def test_forwarded_addresses_are_not_trusted(port: int) -> None:
    """From loopback, an X-Forwarded-For must not make the visitor someone else (uvicorn's
    default would trust it, and a lockout per address could be dodged with it)."""
    assert get(port, "/", X_Forwarded_For="192.168.1.50")[0] == 200


def raw_get(port: int, target: bytes, host: bytes) -> bytes:
    """A request sent as bytes: a phone's browser may send ``é`` unescaped."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(
            b"GET " + target + b" HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n"
        )
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize("target", [b"/?join=%C3%A9", "/?join=\u00e9".encode(), b"/?join=%FF%FE"])
def test_a_non_ascii_code_is_a_wrong_code_not_a_500(port: int, target: bytes) -> None:
    answer = raw_get(port, target, f"companion.local:{port}".encode())
    # Escaped, it is a wrong code (401); raw, the HTTP parser itself refuses it (400).
    assert (
        answer.startswith(b"HTTP/1.1 401")
        and b"incorrect" in answer
        or (answer.startswith(b"HTTP/1.1 400") and b"%" not in target)
    ), answer[:200]


async def _websocket(port: int, origin: str | None, host: str | None = None) -> str:
    headers = {"Host": host} if host else {}
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws",
        origin=origin,
        additional_headers=headers,  # type: ignore[arg-type]
    ) as ws:
        return str(await ws.recv())


def test_a_cross_origin_websocket_is_refused(port: int) -> None:
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        asyncio.run(_websocket(port, "https://evil.example"))
    assert refused.value.response.status_code == 403
    assert asyncio.run(_websocket(port, f"http://127.0.0.1:{port}")) == "hello"


# -- the join code, at the ASGI level (addresses are made up) ---------------------------------


def client(gate: JoinGate, ip: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=gate, client=(ip, 5000))  # type: ignore[arg-type]
    return httpx.AsyncClient(transport=transport, base_url="http://companion")


async def _guess(gate: JoinGate, ip: str, code: str) -> httpx.Response:
    async with client(gate, ip) as phone:
        return await phone.get(f"/?join={code}")


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_guesses_from_rotating_addresses_hit_a_global_limit(anyio_backend: str) -> None:
    gate = JoinGate(inner, CODE, token=TOKEN)
    for n in range(GLOBAL_TRIES):
        assert (await _guess(gate, f"10.0.{n // 250}.{n % 250 + 1}", f"{n:08d}")).status_code == 401
    refused = await _guess(gate, "10.9.9.9", CODE)  # the right code, but guessing is locked
    assert refused.status_code == 401 and "too many tries" in refused.text
    assert (await _guess(gate, "10.9.9.10", TOKEN)).status_code == 303  # the link still works


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_sessions_expire_after_a_day(anyio_backend: str) -> None:
    now = [1000.0]
    gate = JoinGate(inner, CODE, clock=lambda: now[0])
    async with client(gate, "192.168.1.20") as phone:
        assert (await phone.get(f"/?join={CODE}")).status_code == 303
        assert (await phone.get("/")).text == "app"
        now[0] += SESSION_S + 1
        assert (await phone.get("/")).status_code == 401
        websocket_gate = gate.sessions
        assert not websocket_gate  # the expired session is forgotten


# -- the upload folder -------------------------------------------------------------------------


def test_a_linked_upload_folder_is_unlinked_not_emptied(tmp_path: Path) -> None:
    elsewhere = tmp_path / "precious"
    elsewhere.mkdir()
    (elsewhere / "thesis.pdf").write_bytes(b"years of work")
    data = tmp_path / "data"
    data.mkdir()
    (data / "uploads").symlink_to(elsewhere, target_is_directory=True)
    folder = fresh_upload_folder(data, "uploads")
    assert (elsewhere / "thesis.pdf").read_bytes() == b"years of work"
    assert folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir())


def test_leftovers_are_removed_but_links_inside_are_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "precious"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("keep")
    uploads = tmp_path / "data" / "uploads"
    uploads.mkdir(parents=True)
    (uploads / "old.jpg").write_bytes(b"x")
    (uploads / "link").symlink_to(elsewhere, target_is_directory=True)
    fresh_upload_folder(tmp_path / "data", "uploads")
    assert not any(uploads.iterdir()) and (elsewhere / "keep.txt").read_text() == "keep"


# -- uploads through the real Flet app -------------------------------------------------------


@pytest.fixture(scope="module")
def flet_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    from companion.storage import SqliteGameLog
    from companion.ui.kit.services import LazyDetector
    from companion.ui.shell.server import build_asgi
    from tests.ui.conftest import no_model

    data = tmp_path_factory.mktemp("data")
    log = SqliteGameLog.in_folder(data)
    app = build_asgi(log, data, CODE, detector=LazyDetector(no_model), secret_key=SECRET)
    with serving(app) as p:
        yield p, data / "uploads"
    log.close()


SECRET = "a-test-secret-to-sign-upload-urls"


def _put(port: int, name: str, chunks: Iterator[bytes], length: int | None = None) -> int:
    from flet_web.uploads import build_upload_url

    url = build_upload_url("upload", name, 60, SECRET)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Length": str(length)} if length is not None else {}
    headers = headers or {"Transfer-Encoding": "chunked"}
    try:
        conn.request("PUT", url, body=chunks, headers=headers, encode_chunked=length is None)
        status = conn.getresponse().status
    except (BrokenPipeError, ConnectionResetError):
        status = 413  # the server answered and closed while the body was still going
    conn.close()
    return status


def test_an_oversize_upload_leaves_no_partial_file(flet_port: tuple[int, Path]) -> None:
    from companion.ui.kit.services import MAX_UPLOAD_BYTES

    port, uploads = flet_port
    megabyte = b"\xff" * 2**20
    size = MAX_UPLOAD_BYTES // 2**20 + 2
    # Chunked: no length to refuse up front; Flet stops past the limit, the gate cleans up.
    assert _put(port, "big.jpg", iter([megabyte] * size)) == 413
    # Declared too large: refused before a byte is written.
    assert _put(port, "declared.jpg", iter([megabyte]), length=size * 2**20) == 413
    assert not any(uploads.iterdir())
    # A photo within the limit is kept for the app to read.
    assert _put(port, "fine.jpg", iter([megabyte]), length=2**20) == 200
    assert (uploads / "fine.jpg").stat().st_size == 2**20


def test_an_unsigned_upload_never_removes_the_file_it_names(flet_port: tuple[int, Path]) -> None:
    port, uploads = flet_port
    assert _put(port, "pending.jpg", iter([b"\xff" * 1000]), length=1000) == 200
    for query in ("f=pending.jpg", "f=pending.jpg&e=2099-01-01T00:00:00%2B00:00&s=forged"):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("PUT", f"/upload?{query}", body=b"x", headers={"Content-Length": "1"})
        assert conn.getresponse().status in (400, 403)
        conn.close()
    assert (uploads / "pending.jpg").read_bytes() == b"\xff" * 1000
