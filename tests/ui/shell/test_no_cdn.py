"""The page the app serves keeps any script of another site out of itself: the web client's try
at a CDN (``rive_native.js``) is stopped before a request is made. The script is checked here
on the real server; the browser test (``tests/e2e/test_lan_browser.py``) sees no request leave
and no error in the console."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.storage import SqliteGameLog
from companion.ui.kit.services import LazyDetector
from companion.ui.shell.no_cdn import GUARD, with_guard
from companion.ui.shell.server import build_asgi
from tests.ui.conftest import no_model
from tests.ui.shell.test_server_security import CODE, get, serving


@pytest.fixture(scope="module")
def app_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    data: Path = tmp_path_factory.mktemp("data")
    log = SqliteGameLog.in_folder(data)
    with serving(build_asgi(log, data, CODE, detector=LazyDetector(no_model))) as port:
        yield port
    log.close()


def test_the_guard_comes_first_in_the_head() -> None:
    page = b"<html><HEAD><script src='a.js'></script></HEAD></html>"
    guarded = with_guard(page)
    assert guarded.index(GUARD) < guarded.index(b"a.js") and guarded.count(GUARD) == 1
    assert with_guard(b"no head here") == b"no head here"


def test_the_served_page_holds_the_guard_before_its_scripts(app_port: int) -> None:
    for path in ("/", "/night"):  # the page, and a route the web client opens on reload
        status, headers, body = get(app_port, path)
        assert status == 200 and headers["content-type"].startswith("text/html")
        assert int(headers["content-length"]) == len(body)
        head = body.index(b"<head>")
        assert body.index(GUARD) == head + len(b"<head>\n")
        assert body.index(GUARD) < body.index(b"<script", body.index(GUARD) + len(GUARD))
        assert b"Flutter app loaded" in body  # the page itself, whole
    # The web client's own scripts are sent as they are.
    status, headers, body = get(app_port, "/flutter_bootstrap.js")
    assert status == 200 and GUARD not in body and int(headers["content-length"]) == len(body)
