"""The web server around the Flet app: no CDN, LAN visitors need the join code, uploads capped.

Visitors from this computer (loopback) come in directly. Anyone else needs the join code shown
on the host, given once in the URL (``/?join=CODE``) or typed in a small form; it then gets a
random session cookie. Wrong codes are counted per address and locked out after a few tries.
"""

from __future__ import annotations

import html
import ipaddress
import os
import secrets
import shutil
import socket
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from companion.storage import GameLog
from companion.ui.services import MAX_UPLOAD_BYTES, PhotoReader, Services

__all__ = ["JoinGate", "build_asgi", "lan_address", "new_join_code"]

COOKIE = "companion_session"
MAX_TRIES = 5
LOCKOUT_S = 300.0

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def new_join_code() -> str:
    """Six digits: easy to type on a phone; guessing is capped by ``MAX_TRIES``."""
    return f"{secrets.randbelow(10**6):06d}"


def lan_address() -> str | None:
    """This computer's address on the local network (no packet is sent), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


def _is_loopback(host: str | None) -> bool:
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


_FORM = """<!doctype html><html lang="fr"><meta name="viewport" content="width=device-width">
<title>Companion</title><body style="font-family:sans-serif;max-width:24em;margin:3em auto">
<h1>Companion</h1><p>Code d'accès affiché sur l'ordinateur hôte / join code shown on the host:</p>
<form method="get" action="/"><input name="join" inputmode="numeric" autofocus
 style="font-size:2em;width:6em"> <button style="font-size:1.5em">OK</button></form>
<p style="color:#b00">{error}</p></body></html>"""


@dataclass
class JoinGate:
    """ASGI middleware: loopback passes, others need the code once, then a session cookie."""

    app: ASGIApp
    code: str
    sessions: set[str] = field(default_factory=set)
    failures: dict[str, tuple[int, float]] = field(default_factory=dict)

    def _cookie(self, scope: Scope) -> str | None:
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                for part in value.decode("latin-1").split(";"):
                    key, _, val = part.strip().partition("=")
                    if key == COOKIE:
                        return str(val)
        return None

    def _locked(self, host: str) -> bool:
        tries, since = self.failures.get(host, (0, 0.0))
        if tries >= MAX_TRIES and time.monotonic() - since < LOCKOUT_S:
            return True
        if tries >= MAX_TRIES:
            self.failures.pop(host, None)
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        host = client[0] if client else None
        if _is_loopback(host) or self._cookie(scope) in self.sessions:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        given = parse_qs(scope.get("query_string", b"").decode()).get("join", [""])[0].strip()
        key = host or "?"
        if given and not self._locked(key) and secrets.compare_digest(given, self.code):
            token = secrets.token_urlsafe(24)
            self.sessions.add(token)
            self.failures.pop(key, None)
            await _respond(
                send,
                303,
                b"",
                [
                    (b"location", b"/"),
                    (
                        b"set-cookie",
                        f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict".encode(),
                    ),
                ],
            )
            return
        error = ""
        if given:
            tries, _ = self.failures.get(key, (0, 0.0))
            self.failures[key] = (tries + 1, time.monotonic())
            error = "Code incorrect / wrong code"
        if self._locked(key):
            error = "Trop d'essais, attendez 5 minutes / too many tries, wait 5 minutes"
        body = _FORM.format(error=html.escape(error)).encode()
        await _respond(send, 401, body, [(b"content-type", b"text/html; charset=utf-8")])


async def _respond(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": headers + [(b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def build_asgi(
    log: GameLog, data_dir: Path, code: str, lang: str = "fr", reader: PhotoReader | None = None
) -> ASGIApp:
    """The Flet web app (served from the installed package, no CDN) behind the join gate."""
    import flet_web.fastapi as flet_fastapi

    # Flet reads these from the environment over its arguments; left set, they could send
    # uploads outside the data folder or lift the size limit.
    for name in ("FLET_UPLOAD_DIR", "FLET_ASSETS_DIR", "FLET_MAX_UPLOAD_SIZE", "FLET_SECRET_KEY"):
        os.environ.pop(name, None)

    from companion.ui.app import UPLOAD_FOLDER, make_main
    from companion.ui.fonts import assets_dir

    upload_dir = (data_dir / UPLOAD_FOLDER).resolve()
    # Leftovers of a killed run are never read: uploads are consumed within one session.
    shutil.rmtree(upload_dir, ignore_errors=True)
    upload_dir.mkdir(parents=True)
    services = Services(log, data_dir, reader or PhotoReader())
    flet_app = flet_fastapi.app(
        make_main(services, upload_dir, lang),
        no_cdn=True,
        assets_dir=assets_dir(),  # the app's font (ui/fonts.py)
        upload_dir=str(upload_dir),
        max_upload_size=MAX_UPLOAD_BYTES,
        secret_key=secrets.token_urlsafe(32),
        app_name="Companion",
    )
    return JoinGate(flet_app, code)
