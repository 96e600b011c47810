"""Where the seconds go from a photo picked on the phone to its cards on screen, in the real
app in Chromium (``companion app``'s server, uvicorn on loopback, Flet's upload endpoint behind
the join gate, the page at phone size).

    PYTHONPATH=. python3 benchmarks/photo_read.py --app FOLDER --browser [--megapixels 12]

Each photo of ``FOLDER`` is uploaded in turn through the page's photo button, then the first
again (the same photo, warm). The app runs in this process, its steps timed where they run:

- ``to PUT``: the file picked until its upload request reaches the server (the page tells
  the server the file, is given an upload URL, starts the upload);
- ``PUT``: the upload's bytes received and written;
- ``to read``: the upload written until the app takes it (the page reports it uploaded);
- ``decode``, ``keep`` (the photo stored in the log), ``read`` (the detector told the table's
  layout, grouped), ``page photo`` (the photo drawn for the page), each its own time;
- ``to sent``: the server's last step ended until the page's update is sent (the app's
  state made, the page built, its changes found and packed);
- ``drawn``: sent until the page shows the cards (the browser unpacking the update, laying
  the page out and drawing the photo);
- ``total``: picked to shown.

Then the page photo's size, the bytes sent the page per photo, and those sent for a banner
alone while a photo is shown (the photo must not travel again). Each photo's total is also
a ratio to a fixed OpenCV job run just before it (``vision_latency``'s reference, median of
5), which moves less than seconds do on a shared machine. ``--megapixels`` scales each photo
to about that many pixels first (its aspect kept), as a phone of that camera would save it.
"""

from __future__ import annotations

import re
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2

STEPS = (
    "to PUT",
    "PUT",
    "to read",
    "decode",
    "keep",
    "read",
    "page photo",
    "to sent",
    "drawn",
    "total",
)


class Clock:
    """When each step of the photo under way started and ended (perf_counter seconds), and
    the bytes the app sent the page."""

    def __init__(self) -> None:
        self.marks: dict[str, float] = {}
        self.spans: dict[str, float] = {}
        self.photo_bytes = 0
        self.sent = 0

    def clear(self) -> None:
        self.marks.clear()
        self.spans.clear()
        self.sent = 0

    def mark(self, name: str) -> None:
        self.marks.setdefault(name, time.perf_counter())

    def timed(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(function)
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.spans[name] = self.spans.get(name, 0.0) + time.perf_counter() - start
                self.marks[f"{name} end"] = time.perf_counter()

        return run

    def steps(self, picked: float, shown: float) -> dict[str, float]:
        m = self.marks
        # The last step the server took before the page was updated: the page photo's, or
        # the read's when the page photo was made beside it.
        done = max(m.get("page photo end", 0.0), m.get("read end", 0.0), m.get("keep end", 0.0))
        return {
            "to PUT": m["put start"] - picked,
            "PUT": m["put end"] - m["put start"],
            "to read": m["taken"] - m["put end"],
            "decode": self.spans.get("decode", 0.0),
            "keep": self.spans.get("keep", 0.0),
            "read": self.spans.get("read", 0.0),
            "page photo": self.spans.get("page photo", 0.0),
            "to sent": m["sent"] - done,
            "drawn": shown - m["sent"],
            "total": shown - picked,
        }


def _instrument(clock: Clock, app: Any, log: Any, detector: Any) -> Any:
    """The app's steps wrapped with ``clock`` (their modules' names and the log's and the
    detector's methods rebound, the page's messages counted); returns the ASGI app with the
    upload request timed."""
    import flet_web.fastapi.flet_app as flet_app
    import msgpack

    from companion.ui.shell import uploads
    from companion.ui.showdown import actions

    taken, small = uploads._uploaded, actions._small_photo

    def first_taken(*args: Any) -> Any:
        clock.mark("taken")
        return taken(*args)

    def page_photo(*args: Any) -> Any:
        shown = small(*args)
        clock.photo_bytes = len(shown[0])
        return shown

    def packed(*args: Any, **kwargs: Any) -> bytes:
        body: bytes = msgpack.packb(*args, **kwargs)
        clock.sent += len(body)
        if clock.photo_bytes and len(body) > clock.photo_bytes:  # the update with the photo
            clock.mark("sent")
        return body

    uploads._uploaded = first_taken  # type: ignore[attr-defined]
    actions.decode_upload = clock.timed("decode", actions.decode_upload)  # type: ignore[attr-defined]
    actions._small_photo = clock.timed("page photo", page_photo)  # type: ignore[attr-defined]
    flet_app.msgpack = SimpleNamespace(packb=packed, unpackb=msgpack.unpackb)  # type: ignore[attr-defined]
    log.store_photo = clock.timed("keep", log.store_photo)
    detector.read_layout = clock.timed("read", detector.read_layout)

    async def timed_app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("path") != "/upload":
            await app(scope, receive, send)
            return
        clock.mark("put start")

        async def answered(message: Any) -> None:
            if message["type"] == "http.response.start":
                clock.mark("put end")
            await send(message)

        await app(scope, receive, answered)

    return timed_app


@contextmanager
def _served(data: Path) -> Iterator[tuple[str, Clock]]:
    """The app on a free loopback port, instrumented; yields its URL and the clock once the
    detector's warm-up, which ``companion app`` starts at start, is over."""
    import uvicorn

    from companion.cli.app import server_config
    from companion.storage import SqliteGameLog
    from companion.ui.kit.services import LazyDetector
    from companion.ui.shell.server import build_asgi, new_join_code
    from tests.e2e.browser import free_port

    log = SqliteGameLog.in_folder(data)
    detector, clock = LazyDetector(), Clock()
    detector.warm_up = clock.timed("warm up", detector.warm_up)  # type: ignore[method-assign]
    gate = build_asgi(log, data, new_join_code(), "en", detector=detector)
    port = free_port()
    server = uvicorn.Server(
        server_config(_instrument(clock, gate, log, detector), "127.0.0.1", port)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started or "warm up end" not in clock.marks:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/", clock
    finally:
        server.should_exit = True
        thread.join(10)
        log.close()


def _scaled(path: Path, megapixels: float | None, folder: Path) -> Path:
    """``path``, or a copy scaled to about ``megapixels`` (JPEG quality 92, as a phone)."""
    if megapixels is None:
        return path
    image = cv2.imread(str(path))
    h, w = image.shape[:2]
    k = (megapixels * 1e6 / (w * h)) ** 0.5
    out = folder / path.name
    small = cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(out), small, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return out


@contextmanager
def _phone(url: str) -> Iterator[Any]:
    """The app's page in Chromium at phone size, semantics on. Its requests are not routed
    through Playwright as the tests' are: each upload would be copied through the driver."""
    from playwright.sync_api import sync_playwright

    from tests.e2e import browser

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=str(browser.CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = chromium.new_page(viewport=browser.PHONE, device_scale_factor=1)
            page.goto(url)
            browser.enable_semantics(page)
            yield page
        finally:
            chromium.close()


@dataclass
class Row:
    name: str
    size: str  # the photo's pixels, WxH
    steps: dict[str, float]
    reference: float  # seconds of the reference job, median of 5 just before
    photo_bytes: int  # the page photo's JPEG
    sent: int  # bytes sent the page from the pick to the cards shown
    banner_sent: int  # bytes sent the page for a banner alone, this photo's predecessor shown


def _upload(page: Any, clock: Clock, path: Path, empty: Path) -> tuple[dict[str, float], int]:
    """One photo picked on the page until its cards show: its steps, and the bytes the app
    sent the page for the banner before it. An empty file picked first changes the banner
    alone (the photo before stays), and the banner waited for is then this photo's."""
    from tests.e2e import browser

    with page.expect_file_chooser() as chooser:
        browser.button(page, "Photo of the table").click()
    clock.clear()
    chooser.value.set_files(str(empty))
    browser.seen(page, "an empty file").wait_for(timeout=30000)
    banner_sent = clock.sent
    with page.expect_file_chooser() as chooser:
        browser.button(page, "Photo of the table").click()
    clock.clear()
    picked = time.perf_counter()
    chooser.value.set_files(str(path))
    browser.seen(page, re.compile("cards read")).wait_for(timeout=120000)
    return clock.steps(picked, time.perf_counter()), banner_sent


def browser_rows(folder: Path, megapixels: float | None) -> list[Row]:
    """Each photo of ``folder`` uploaded in turn, then the first again."""
    from benchmarks.vision_latency import _Reference
    from tests.e2e import browser

    reference = _Reference()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = [_scaled(p, megapixels, Path(tmp)) for p in sorted(folder.glob("*.jpg"))]
        data, empty = Path(tmp) / "data", Path(tmp) / "empty.jpg"
        data.mkdir()
        empty.write_bytes(b"")
        with _served(data) as (url, clock), _phone(url) as page:
            browser.seen(page, "Photo of the table").wait_for(timeout=30000)
            for path in [*paths, paths[0]]:
                ref = statistics.median(_seconds(reference) for _ in range(5))
                steps, banner = _upload(page, clock, path, empty)
                h, w = cv2.imread(str(path)).shape[:2]
                rows.append(
                    Row(path.name, f"{w}x{h}", steps, ref, clock.photo_bytes, clock.sent, banner)
                )
    return rows


def _seconds(job: Callable[[], object]) -> float:
    start = time.perf_counter()
    job()
    return time.perf_counter() - start


def print_breakdown(rows: list[Row]) -> None:
    """A line per photo, seconds per step; the later photos' medians; the page's bytes."""
    print(f"{'photo':14} {'pixels':9} " + " ".join(f"{s:>10}" for s in STEPS) + "  total/ref")
    for row in rows:
        cells = " ".join(f"{row.steps[s]:10.2f}" for s in STEPS)
        ratio = row.steps["total"] / row.reference
        print(f"{row.name[:14]:14} {row.size:9} {cells}  x{ratio:.0f}")
    later = rows[1:-1] or rows[-1:]
    cells = " ".join(f"{statistics.median(r.steps[k] for r in later):10.2f}" for k in STEPS)
    ratio = statistics.median(r.steps["total"] / r.reference for r in later)
    print(f"{'later (median)':14} {'':9} {cells}  x{ratio:.0f}")
    ref = statistics.median(r.reference for r in rows)
    photo, sent = _median(r.photo_bytes for r in rows), _median(r.sent for r in rows)
    banner = _median(r.banner_sent for r in rows[1:])
    print(
        f"reference job {ref * 1000:.0f} ms (median); page photo {photo / 1024:.0f} KiB; sent the"
        f" page per photo {sent / 1024:.0f} KiB, for a banner with a photo shown {banner:.0f} bytes"
    )


def _median(values: Iterable[int]) -> float:
    return float(statistics.median(values))
