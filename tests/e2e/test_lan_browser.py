"""No request leaves the LAN: every request the page makes, from its load through each screen
and a photo read, goes to the app's own server, and the page asks no other host at all. The web
client's one try at a CDN (``rive_native.js``, an animation runtime the app never uses) is
stopped in the page before it is asked (``ui/shell/no_cdn.py``): no request, and no error in
the console about it. And the page is drawn as a phone on the LAN draws it: not cross-origin
isolated, so by Flutter's one-thread renderer."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import browser
from tests.e2e.test_seats_browser import PLAYERS, upload
from tests.ui.showdown import photos

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing())),
]


def test_every_request_goes_to_the_app_only(tmp_path: Path) -> None:
    data, port = tmp_path / "data", browser.free_port()
    requests: dict[str, str] = {}
    offline: list[str] = []
    console: list[str] = []
    with (
        browser.running_app(data, port) as url,
        browser.phone_page(url, offline, requests, console=console) as page,
    ):
        browser.start_night(page, PLAYERS)
        upload(page, photos.scene(), tmp_path, "table")
        for tab, shows in (
            ("Game night", "Vaults 0 / 3"),
            ("History", "Export all (JSON)"),
            ("Cribbage", "Count a show"),
            ("Spit", "Spit referee"),
            ("Showdown", "Photo of the table"),
        ):
            browser.open_tab(page, tab, shows)
        # Rendered as on a phone over the LAN's plain http: one thread, no isolated page.
        isolated = page.evaluate("crossOriginIsolated")
    assert isolated is False
    assert len(requests) > 10, requests
    # Not even one the page's policy would refuse: asked of no host but the app's own.
    elsewhere = {u: failed for u, failed in requests.items() if not u.startswith(url)}
    assert elsewhere == {} and offline == [], (elsewhere, offline)
    errors = [line for line in console if line.startswith("error")]
    assert errors == [] and not any("rive_native" in line for line in console), console
