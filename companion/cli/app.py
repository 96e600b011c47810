"""``companion app``: the table-side app in the browser, for this computer and phones nearby.

companion app [--port 8550] [--host 0.0.0.0] [--data DIR] [--lang fr|en] [--webcam SOURCE]

By default it listens on every interface: phones on the local network come in with the join
code; ``--host 127.0.0.1`` keeps it to this computer.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from companion.cli._io import bounded_int
from companion.messages import text
from companion.storage import SqliteGameLog, default_data_dir
from companion.storage.lock import hold_data_folder
from companion.storage.paths import make_data_folder

__all__ = ["register"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("app", help="start the app (web, for phones on the network)")
    # A port past 65535 is no port: uvicorn would listen on another one than the URL printed.
    parser.add_argument("--port", type=bounded_int(1, 65535), default=8550)
    parser.add_argument(
        "--host", default="0.0.0.0", help="address to listen on (127.0.0.1: this computer only)"
    )
    parser.add_argument("--data", type=Path, default=None, help="data folder (default: yours)")
    parser.add_argument("--lang", choices=("fr", "en"), default="fr")
    parser.add_argument(
        "--webcam",
        type=webcam_source,
        default=0,
        metavar="SOURCE",
        help="the webcam of the live preview: a camera's number (default 0, the first), a "
        "stream's URL (a phone's camera app streaming over the network, e.g. "
        "http://192.168.1.20:8080/video) or a recorded video (played again when it ends)",
    )
    parser.set_defaults(handler=run)


def webcam_source(given: str) -> int | str:
    """An argparse type: a camera's number, a stream's URL, or a video file that exists; else
    argparse says so in one line (exit 2)."""
    text = given.strip()
    if text.isascii() and text.isdigit() and len(text) <= 3:
        return int(text)
    if "://" in text:
        return text
    if not Path(text).is_file():
        raise argparse.ArgumentTypeError(f"{given!r} is no camera number, stream URL or video file")
    return text


def server_config(app: Any, host: str, port: int) -> Any:
    """uvicorn's settings for the app (a ``uvicorn.Config``)."""
    import uvicorn

    from companion.ui.shell.server import MAX_CONNECTIONS, MAX_HEADER_BYTES

    # No proxy stands in front: X-Forwarded-For is never taken for the visitor's address
    # (uvicorn trusts it from loopback by default, which would dodge the join lockout).
    # h11, not httptools: it refuses a request whose line and headers pass MAX_HEADER_BYTES
    # (400) before the join gate sees it, where httptools buffers them without a limit.
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http="h11",
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        limit_concurrency=MAX_CONNECTIONS,
        ws_max_size=2**20,
        proxy_headers=False,
        server_header=False,
    )


def run(args: argparse.Namespace) -> int:
    # Set before Flet is imported: the web client is served from the installed flet-web
    # package, never fetched from a CDN (the table may have no internet).
    os.environ["FLET_WEB_NO_CDN"] = "1"
    import uvicorn

    from companion.cli._logs import configure

    # A bug in a handler is logged with its traceback (the page itself only stops updating).
    configure(debug=bool(os.environ.get("COMPANION_DEBUG")))

    from companion.ui.shell.server import build_asgi, lan_address, new_join_code, new_join_token

    data_dir = (args.data or default_data_dir()).expanduser().resolve()
    make_data_folder(data_dir)
    address = f"http://127.0.0.1:{args.port}/"
    # Held before anything in the folder is touched: a second app never empties the first
    # one's uploads.
    with hold_data_folder(data_dir, f"process {os.getpid()}, {address}"):
        log = SqliteGameLog.in_folder(data_dir)
        code, token = new_join_code(), new_join_token()
        app = build_asgi(log, data_dir, code, args.lang, token=token, webcam=args.webcam)
        print(f"Companion: {address}", flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            lan = lan_address()
            if lan is not None:
                # The link carries the long token: a phone that opens it never types the code.
                print(f"LAN / réseau local: http://{lan}:{args.port}/?join={token}", flush=True)
            print(f"Join code / code d'accès: {code}", flush=True)
            print(text("app.lockout_note", args.lang), flush=True)
        print(f"Data / données: {data_dir}", flush=True)
        try:
            uvicorn.Server(server_config(app, args.host, args.port)).run()
        finally:
            log.close()
    return 0
