"""The web server around the Flet app: no CDN, LAN visitors need the join code, uploads capped,
and no other web site can reach it through a browser.

Visitors from this computer (loopback, under a loopback name) come in directly. Anyone else
needs the join code shown on the host (typed in a small form, or ``/?join=CODE``) or the long
token of the printed link; it then gets a random session cookie that lasts a day. Wrong codes
are counted per address and overall: past either limit, typed codes are refused for a while,
so that guessing eight digits is hopeless, however many addresses the guesses come from.

Requests sent by another site's page (an ``Origin`` other than the app's own address, or a
``Sec-Fetch-Site: cross-site`` subrequest) are refused, websockets included: a page open in
the host's browser could otherwise drive the app and read the game log.

What a guest can make the app keep is bounded per client address (an IPv6 client by its /64
network: one device may take many addresses there): join sessions (a new one replaces the
client's oldest past ``SESSIONS_PER_CLIENT``; past ``MAX_SESSIONS`` in all new joins wait, and
no one else's session is ever dropped), and the pages that left (``LeftPages``).
"""

from __future__ import annotations

import collections
import html
import ipaddress
import logging
import os
import secrets
import shutil
import socket
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from companion.messages import text
from companion.storage import GameLog
from companion.ui.kit.services import MAX_UPLOAD_BYTES, LazyDetector, Services

__all__ = [
    "MAX_HEADER_BYTES",
    "MAX_CONNECTIONS",
    "MAX_SESSIONS",
    "SESSIONS_PER_CLIENT",
    "LEFT_PAGE_S",
    "LEFT_PER_CLIENT",
    "LEFT_PAGES",
    "client_of",
    "JoinGate",
    "LeftPages",
    "build_asgi",
    "fresh_upload_folder",
    "lan_address",
    "new_join_code",
    "new_join_token",
]

COOKIE = "companion_session"
CODE_DIGITS = 8
MAX_TRIES = 5  # wrong codes from one address before it waits LOCKOUT_S
LOCKOUT_S = 300.0
GLOBAL_TRIES = 20  # wrong codes from all addresses within GLOBAL_WINDOW_S, then all wait
GLOBAL_WINDOW_S = 600.0
SESSION_S = 24 * 3600.0  # a session lasts a day: a game night, and the morning after
MAX_SESSIONS = 1000  # join sessions in all; past it, new joins wait (no one is logged out)
SESSIONS_PER_CLIENT = 8  # a phone's browsers and reloads; a ninth join replaces its oldest
# A page that left (a phone locked, a tab reloaded) keeps its state for Flet to resume it this
# long, at most LEFT_PER_CLIENT per client address and LEFT_PAGES in all (newest kept): each
# holds a whole screen (about 0.2 MB), and a client opening and leaving pages in a loop grew the
# app by 0.9 GB in minutes with Flet's own hour.
LEFT_PAGE_S = 600
LEFT_PER_CLIENT = 4
LEFT_PAGES = 200
HIDDEN_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})
UPLOAD_PATH = "/upload"
MAX_HEADER_BYTES = 64 * 1024  # a request's line and headers; a browser's are a few KiB
MAX_CONNECTIONS = 200  # open at once (each phone keeps one websocket); past it, 503

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def new_join_code() -> str:
    """Eight digits: easy to type on a phone; guessing is capped per address and overall."""
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def new_join_token() -> str:
    """The long token of the printed link (128 bits): never guessed, never typed."""
    return secrets.token_urlsafe(16)


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


def client_of(host: str) -> str:
    """The client an address belongs to: an IPv4 address itself, an IPv6 one by its /64
    network (a device there may take any address of it)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


def _headers(scope: Scope) -> dict[bytes, str]:
    # Latin-1 never fails: a header of odd bytes is just not a match, never a 500.
    return {name.lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}


def _host_name(host: str) -> str:
    """The name part of a ``Host`` header (``[::1]:8550`` -> ``::1``)."""
    return urlsplit(f"//{host}").hostname or ""


def _loopback_name(host: str) -> bool:
    """Whether the ``Host`` header names this computer by a loopback name or address; a
    page on another site whose name was pointed at 127.0.0.1 (DNS rebinding) does not."""
    name = _host_name(host)
    return name == "localhost" or _is_loopback(name)


def cross_origin(scope: Scope) -> bool:
    """Whether a request comes from another site's page (its ``Origin`` is not this server)."""
    headers = _headers(scope)
    origin = headers.get(b"origin")
    if origin is not None:
        if origin == "null":
            return True
        return urlsplit(origin).netloc.lower() != headers.get(b"host", "").lower()
    site = headers.get(b"sec-fetch-site")
    navigating = (
        headers.get(b"sec-fetch-mode") == "navigate"
        and headers.get(b"sec-fetch-dest", "document") == "document"
        and scope.get("method") == "GET"
    )
    # A link followed from elsewhere opens the app in its own tab (and shows the form); in
    # another site's frame it is refused (clickjacking).
    return site == "cross-site" and not navigating


def fresh_upload_folder(data_dir: Path, name: str) -> Path:
    """``data_dir/name`` emptied of a killed run's leftovers, never following a link: if it is
    a link (or a file), only that entry goes; what it points to is left alone."""
    folder = data_dir / name
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        folder.unlink()
    elif folder.is_dir():
        # rmtree removes links found inside as links, and refuses a top that is one.
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


_FORM = """<!doctype html><html lang="fr"><meta name="viewport" content="width=device-width">
<title>Companion</title><body style="font-family:sans-serif;max-width:24em;margin:3em auto">
<h1>Companion</h1><p>Code d'accès affiché sur l'ordinateur hôte / join code shown on the host:</p>
<form method="get" action="/"><input name="join" inputmode="numeric" autofocus
 style="font-size:2em;width:8em"> <button style="font-size:1.5em">OK</button></form>
<p style="color:#b00">{error}</p></body></html>"""


def _flet_pages() -> MutableMapping[str, Any]:
    """Flet's registry of page sessions, by its own key (flet-web, pinned in pyproject: it
    offers no public listing; ``tests/ui/shell/test_server_sessions.py`` fails if it moves)."""
    from flet_web.fastapi.flet_app_manager import app_manager

    pages: MutableMapping[str, Any] = vars(app_manager)["_FletAppManager__sessions"]
    return pages


async def _delete_flet_page(key: str) -> None:
    from flet_web.fastapi.flet_app_manager import app_manager

    await app_manager.delete_session(key)


@dataclass
class LeftPages:
    """The page sessions Flet keeps after their page left, bounded: at most ``per_client`` per
    client address and ``most`` in all, the newest kept (Flet itself forgets them after
    ``LEFT_PAGE_S``). Pages still connected are never touched."""

    per_client: int = LEFT_PER_CLIENT
    most: int = LEFT_PAGES
    pages: Callable[[], MutableMapping[str, Any]] = _flet_pages
    delete: Callable[[str], Awaitable[None]] = _delete_flet_page

    def left(self) -> list[tuple[str, Any]]:
        """(key, session) of the pages that left, newest first."""
        gone = [
            (key, page)
            for key, page in list(self.pages().items())
            if page.connection is None and page.expires_at is not None
        ]
        return sorted(gone, key=lambda item: item[1].expires_at, reverse=True)

    async def prune(self) -> int:
        """Forget the pages past the bounds; how many were forgotten."""
        kept: collections.Counter[str] = collections.Counter()
        doomed = []
        for n, (key, page) in enumerate(self.left()):
            client = client_of(str(page.page.client_ip or "?"))
            kept[client] += 1
            if kept[client] > self.per_client or n >= self.most:
                doomed.append(key)
        for key in doomed:
            await self.delete(key)
        return len(doomed)


@dataclass
class JoinGate:
    """ASGI middleware: same-origin only; loopback passes, others need the code or the token
    once, then a session cookie; uploads past ``max_upload`` bytes leave nothing behind, and
    ``written`` is told the name of each upload written whole, as soon as it is answered."""

    app: ASGIApp
    code: str
    token: str | None = None
    upload_dir: Path | None = None
    max_upload: int = MAX_UPLOAD_BYTES
    written: Callable[[str], None] | None = None
    clock: Callable[[], float] = time.monotonic
    pages: LeftPages | None = None  # the app's pages that left, bounded after each one leaves
    sessions: dict[str, float] = field(default_factory=dict)  # cookie -> expiry
    owners: dict[str, str] = field(default_factory=dict)  # cookie -> client (``client_of``)
    failures: dict[str, tuple[int, float]] = field(default_factory=dict)
    recent_failures: collections.deque[float] = field(default_factory=collections.deque)

    # -- who may come in ------------------------------------------------------------------

    def _session(self, scope: Scope) -> bool:
        cookie = _headers(scope).get(b"cookie", "")
        for part in cookie.split(";"):
            key, _, value = part.strip().partition("=")
            if key == COOKIE:
                expiry = self.sessions.get(value)
                if expiry is not None and self.clock() < expiry:
                    return True
                self._drop(value)
        return False

    def _drop(self, token: str) -> None:
        self.sessions.pop(token, None)
        self.owners.pop(token, None)

    def _new_session(self, client: str) -> str | None:
        """A new session for ``client``, replacing its own oldest past ``SESSIONS_PER_CLIENT``;
        None when ``MAX_SESSIONS`` are held by others (never anyone else's dropped)."""
        now = self.clock()
        for token, expiry in list(self.sessions.items()):
            if expiry <= now:
                self._drop(token)
        own = [token for token, owner in self.owners.items() if owner == client]
        if len(own) >= SESSIONS_PER_CLIENT:
            self._drop(min(own, key=self.sessions.__getitem__))
        elif len(self.sessions) >= MAX_SESSIONS:
            return None
        token = secrets.token_urlsafe(24)
        self.sessions[token] = now + SESSION_S
        self.owners[token] = client
        return token

    def _locked(self, host: str) -> bool:
        now = self.clock()
        while self.recent_failures and now - self.recent_failures[0] > GLOBAL_WINDOW_S:
            self.recent_failures.popleft()
        if len(self.recent_failures) >= GLOBAL_TRIES:
            return True
        tries, since = self.failures.get(host, (0, 0.0))
        if tries >= MAX_TRIES and now - since < LOCKOUT_S:
            return True
        if tries >= MAX_TRIES:
            self.failures.pop(host, None)
        return False

    def _fail(self, host: str) -> None:
        now = self.clock()
        tries, _ = self.failures.get(host, (0, 0.0))
        self.failures[host] = (tries + 1, now)
        self.recent_failures.append(now)
        if len(self.failures) > 10 * MAX_SESSIONS:  # many addresses: keep the newest
            for stale in sorted(self.failures, key=lambda h: self.failures[h][1])[:MAX_SESSIONS]:
                del self.failures[stale]

    def _matches(self, given: bytes, host: str) -> bool:
        """Whether ``given`` is the long token (always checked) or the typed code (checked
        unless guessing has locked it); bytes, so that ``é`` is a wrong code, not a 500."""
        if self.token is not None and secrets.compare_digest(given, self.token.encode()):
            return True
        return not self._locked(host) and secrets.compare_digest(given, self.code.encode())

    # -- the ASGI entry -------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if cross_origin(scope):
            await _refuse(scope, send, 403, b"cross-origin request refused")
            return
        if scope.get("path") in HIDDEN_PATHS:
            await _refuse(scope, send, 404, b"not found")
            return
        client = scope.get("client")
        host = client[0] if client else None
        local = _is_loopback(host) and _loopback_name(_headers(scope).get(b"host", ""))
        if local or self._session(scope):
            await self._pass(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await self._join(scope, send, host or "?")

    async def _join(self, scope: Scope, send: Send, key: str) -> None:
        query = scope.get("query_string", b"").decode("latin-1")
        given = parse_qs(query).get("join", [""])[0].strip()
        if given and self._matches(given.encode("utf-8", "replace"), key):
            self.failures.pop(key, None)
            session = self._new_session(client_of(key))
            if session is None:
                words = f"{text('server.full', 'fr')} / {text('server.full', 'en')}"
                body = _FORM.format(error=html.escape(words)).encode()
                await _respond(send, 503, body, [(b"content-type", b"text/html; charset=utf-8")])
                return
            cookie = f"{COOKIE}={session}; Path=/; HttpOnly; SameSite=Strict"
            cookie += f"; Max-Age={int(SESSION_S)}"
            await _respond(send, 303, b"", [(b"location", b"/"), (b"set-cookie", cookie.encode())])
            return
        error = ""
        if given:
            self._fail(key)
            error = "Code incorrect / wrong code"
        if self._locked(key):
            # The global limit may lock typed codes for a guesser's neighbours too: the
            # printed link's token is never locked.
            error = (
                "Trop d'essais : attendez quelques minutes, ou ouvrez le lien affiché sur "
                "l'ordinateur hôte / too many tries: wait a few minutes, or open the link "
                "shown on the host"
            )
        body = _FORM.format(error=html.escape(error)).encode()
        await _respond(send, 401, body, [(b"content-type", b"text/html; charset=utf-8")])

    async def _pass(self, scope: Scope, receive: Receive, send: Send) -> None:
        """To the app, without its ``Access-Control-Allow-Origin: *``; an upload refused
        while it was written (too large, cut off) leaves no partial file, and one refused
        before (unsigned, expired) removes nothing: the file of that name is another's."""
        status: list[int] = []

        async def send_same_origin(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))
                if upload and _wrote_partial(status[0]):
                    # Before the answer leaves: the client may look right after it.
                    self._remove_partial(scope)
                elif upload and status[0] == 200 and self.written is not None:
                    self.written(_upload_name(scope))
                message["headers"] = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if not name.lower().startswith(_DROPPED)
                ] + _NO_FRAMES
            await send(message)

        if scope["type"] == "websocket":
            await self._page(scope, receive, send)
            return
        upload = scope.get("path") == UPLOAD_PATH
        if upload:
            declared = _headers(scope).get(b"content-length", "")
            if declared.isdigit() and int(declared) > self.max_upload:
                await _respond(send, 413, b"upload too large", [])
                return
        try:
            await self.app(scope, receive, send_same_origin)
        finally:
            if upload and (not status or _wrote_partial(status[0])):
                self._remove_partial(scope)

    async def _page(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A page's websocket. A page that leaves while it is being sent (a phone locked or
        reloaded mid-load) is one quiet line, never a traceback: the app's sends after it are
        dropped, so the app sees the page leave as any other (Flet's send loop raised, which
        also kept that page's session forever). Once a page has left, the pages that left
        are pruned (``LeftPages``)."""
        gone: list[str] = []

        async def send_while_there(message: Message) -> None:
            if gone:
                return
            try:
                await send(message)
            except OSError as error:  # uvicorn's ClientDisconnected: the page went away
                gone.append(type(error).__name__)

        try:
            await self.app(scope, receive, send_while_there)
        finally:
            if gone:
                client = scope.get("client")
                logger.info(
                    "a page left while it was being sent (%s)", client[0] if client else "?"
                )
            if self.pages is not None:
                await self.pages.prune()

    def _remove_partial(self, scope: Scope) -> None:
        if self.upload_dir is None:
            return
        name = _upload_name(scope)
        if not name:
            return
        folder = os.path.realpath(self.upload_dir)
        target = os.path.realpath(os.path.join(folder, name))
        if os.path.commonpath([target, folder]) == folder and target != folder:
            try:
                os.unlink(target)
            except (FileNotFoundError, IsADirectoryError, PermissionError):
                pass


def _upload_name(scope: Scope) -> str:
    """The file an upload request writes (its ``f``), "" if it names none."""
    query = scope.get("query_string", b"").decode("latin-1")
    return str(parse_qs(query).get("f", [""])[0])


def _wrote_partial(status: int) -> bool:
    """Whether an upload answered ``status`` may have left a file of its own: the upload
    handler writes only once the signature and the name are checked (400, 403 and 410 come
    before), and stops with 413 past the size limit, or fails (5xx)."""
    return status == 413 or status >= 500


async def _refuse(scope: Scope, send: Send, status: int, body: bytes) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    await _respond(send, status, body, [(b"content-type", b"text/plain; charset=utf-8")])


# Flet's ``Access-Control-Allow-Origin: *`` (no other site reads the app), and its
# ``Cross-Origin-Embedder-Policy``: that header isolates the page, which then runs Flutter's
# renderer on two threads, but only where the page is a secure context (this computer's own
# browser, and the browser tests). A phone on the LAN's plain http never is: without the
# header every browser runs the one-thread renderer the players' phones run.
_DROPPED = (b"access-control-", b"cross-origin-embedder-policy")

# No other site may show the app in a frame of its own (a click there would be a click here);
# the page loads scripts from this server only: nothing it asks for leaves the LAN (the web
# client's try at a CDN is stopped in the page itself, ``shell/no_cdn.py``; this refuses any
# other).
_NO_FRAMES = [
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"frame-ancestors 'none'; script-src-elem 'self' 'unsafe-inline' blob:",
    ),
]


async def _respond(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": headers + _NO_FRAMES + [(b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def build_asgi(
    log: GameLog,
    data_dir: Path,
    code: str,
    lang: str = "fr",
    detector: LazyDetector | None = None,
    token: str | None = None,
    secret_key: str | None = None,
    webcam: int | str = 0,
) -> ASGIApp:
    """The Flet web app (served from the installed package, no CDN) behind the join gate;
    ``secret_key`` signs upload URLs (random unless a test needs to sign one); ``webcam`` is
    the camera the live preview opens."""
    import flet_web.fastapi as flet_fastapi

    # Flet reads these from the environment over its arguments; left set, they could send
    # uploads outside the data folder, lift the size limit or keep left pages an hour.
    for name in (
        "FLET_UPLOAD_DIR",
        "FLET_ASSETS_DIR",
        "FLET_MAX_UPLOAD_SIZE",
        "FLET_SECRET_KEY",
        "FLET_SESSION_TIMEOUT",
    ):
        os.environ.pop(name, None)

    from companion.ui.kit.fonts import assets_dir
    from companion.ui.shell.app import UPLOAD_FOLDER, make_main
    from companion.ui.shell.no_cdn import NoCdnPage
    from companion.ui.shell.uploads import UploadFolder

    # Leftovers of a killed run are never read: uploads are consumed within one session.
    uploads = UploadFolder(fresh_upload_folder(data_dir, UPLOAD_FOLDER))
    services = Services(log, data_dir, detector or LazyDetector(), webcam)
    flet_app = flet_fastapi.app(
        make_main(services, uploads, lang),
        session_timeout_seconds=LEFT_PAGE_S,
        no_cdn=True,
        assets_dir=assets_dir(),  # the app's font (ui/fonts.py)
        upload_dir=str(uploads.path),
        max_upload_size=MAX_UPLOAD_BYTES,
        secret_key=secret_key or secrets.token_urlsafe(32),
        app_name="Companion",
    )
    # The API pages FastAPI adds by default say nothing to players: gone (the gate hides
    # them too, should a later Flet add them back another way).
    flet_app.router.routes = [
        route for route in flet_app.router.routes if getattr(route, "path", "") not in HIDDEN_PATHS
    ]
    page = NoCdnPage(flet_app)  # the web client's try at a CDN stopped in the page itself
    return JoinGate(
        page,
        code,
        token=token,
        upload_dir=uploads.path,
        written=uploads.written,
        pages=LeftPages(),
    )
