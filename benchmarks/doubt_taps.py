"""The taps and scrolls a player needs to judge each doubt of a table photo, in the real app in
Chromium at phone size (390x844), each photo uploaded through the page's photo button.

    PYTHONPATH=. python3 benchmarks/doubt_taps.py ../shared/real_photos/iapr2022_poker_table
        [--labels ../shared/real_photos/labels.json] [--app-root DIR] [--players 4]

``--app-root``: the copy of the project whose app is measured (this one by default; another
version's, e.g. ``git archive bf46a33 | tar -x -C DIR``, for a before-and-after table). The
table's players are typed first (no night: no seats asked), then each photo is uploaded, its
doubts judged one by one, first to last, and the table cleared ("New table") for the next.

Per doubt, from its line brought near the screen's top (reaching the list is not counted):

- ``scrolls``: swipes of at most one screen (700 px) until the doubt's evidence has been in
  view, then until its answer is, made in the page and counted. The evidence of a doubtful
  read is its own crops in its row where the app shows them, else the card on the photo (the
  point where the reader read it); of a hand with no card read, the whole photo (in its row
  where the app shows it there, else the photo above).
- ``zoom``: where the evidence is the card on the photo and the card shows under 60 px wide
  there (its index corner under about 12 px tall, too small to read), one tap on "Zoom" and one
  pinch, counted by that rule, not made (a mouse cannot pinch). "Whole photo" is not counted.
- ``taps``: every press on the page, counted by the page, to answer: "Right as it is" where
  the labels hold the card read, the alternative that the labels hold, else "Other…" (and
  the card typed); a hand with no card read: "X sits out" (every such hand of these photos is
  face down or not dealt).

"Every doubtful read is right" is measured on its own where the app offers it: scrolls until
its crops and the button are in view, and its one tap for every doubtful read of the table.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2

from companion.bench.cpu import describe_cpu
from companion.engine.cards import parse_card
from tests.e2e import browser

SWIPE = 700  # page pixels a swipe moves, at most one screen
SCREEN = browser.PHONE["height"] - 80  # above the navigation bar
LEGIBLE = 60  # a card's width on screen (px) under which its index needs the zoom
PHOTO = "Table photo with its reads"
WHOLE = "The whole photo, as read"  # a hand with no card read: the photo in its row
COUNT_TAPS = """() => { if (window.taps === undefined) { window.taps = 0;
    addEventListener('pointerdown', () => { window.taps += 1; }, true); } }"""
READ = re.compile(r"^• (\S+) \(([^)]*)\): the reader is not sure$")
NO_HAND = re.compile(r"^• ([^:]+): no hand found on the photo")


@dataclass
class Judged:
    photo: str
    doubt: str
    kind: str  # "read" or "no hand"
    scrolls: int
    zoom: int  # taps on "Zoom" and pinches, by rule (0 or 2)
    taps: int


@dataclass
class Glance:
    photo: str
    doubts: int
    scrolls: int
    taps: int


def _box(target: Any) -> dict[str, float] | None:
    found = target.bounding_box()
    return None if found is None else dict(found)


def _on_screen(*boxes: dict[str, float] | None) -> bool:
    return all(b is not None and b["y"] >= 0 and b["y"] + b["height"] <= SCREEN for b in boxes)


def _swipes_until(page: Any, seen: Callable[[], bool], down: bool) -> int:
    """Swipes made until ``seen()``, counted (at most 12)."""
    for n in range(13):
        if seen():
            return n
        browser.scroll(page, SWIPE if down else -SWIPE)
    raise AssertionError("still not in view after 12 swipes: " + browser.on_screen(page))


def _to_top(page: Any, target: Any, margin: int = 60) -> None:
    for _ in range(8):
        box = _box(target)
        if box is None or abs(box["y"] - margin) < 30:
            return
        before = box["y"]
        browser.scroll(page, int(box["y"] - margin))
        after = _box(target)
        if after is not None and abs(after["y"] - before) < 2:
            return  # the page's end: it scrolls no further


def _in_row(page: Any, found: Any, line: Any) -> Any:
    """Of ``found``, the first under ``line`` (each row's answers lie under its line)."""
    for _ in range(10):
        top = (_box(line) or {"y": 0.0})["y"]
        under = [found.nth(i) for i in range(found.count())]
        under = [e for e in under if (b := _box(e)) is not None and b["y"] > top]
        if under:
            return min(under, key=lambda e: (_box(e) or {"y": 0.0})["y"])
        page.wait_for_timeout(500)  # the page still being rebuilt after the last answer
    raise AssertionError("nothing under " + line.inner_text() + ": " + browser.on_screen(page))


def _lines(page: Any) -> list[str]:
    return [
        t
        for t in page.evaluate(
            "() => [...document.querySelectorAll('flt-semantics')]"
            ".filter(e => !e.querySelector('flt-semantics'))"
            ".map(e => (e.getAttribute('aria-label') || e.textContent || '').trim())"
        )
        if t.startswith("• ")
    ]


def _taps(page: Any) -> int:
    return int(page.evaluate("window.taps"))


class Table:
    """A photo as the reader reads it in this process, the app's way (told 5 + hands x 2): where
    each card lies, to find a doubtful read's card on the photo shown."""

    def __init__(self, path: Path, players: int) -> None:
        from companion.vision import CardDetector
        from companion.vision.layouts.expect import Expect
        from companion.vision.layouts.read import read_layout

        image = cv2.imread(str(path))
        self.height, self.width = image.shape[:2]
        told = read_layout(CardDetector(), image, Expect(5, players, 2), 1)
        found = told.detections
        self.cards = {
            str(card): (float(c[0]), float(c[1]), float(w))
            for card, c, w in zip(found.cards, found.centres, _widths(found), strict=True)
        }


def _widths(found: Any) -> Iterator[float]:
    for quad in found.quads:
        yield float(min(math.dist(quad[0], quad[1]), math.dist(quad[1], quad[2])))


def _card_code(pretty: str) -> str:
    codes = [r + s for r in "23456789TJQKA" for s in "shdc"]
    return next(c for c in codes if parse_card(c, "bench").pretty() == pretty)


def _judge_read(
    page: Any, line: Any, code: str, truth: set[str], table: Table, crops: bool
) -> tuple[int, int, int]:
    """(scrolls, zoom, taps) to judge a doubtful read of ``code`` whose line is in view."""
    scrolls, zoom = 0, 0
    if crops:  # its crops in its own row
        index = _in_row(page, page.get_by_role("img", name=re.compile("index corner")), line)
        scrolls += _swipes_until(page, lambda: _on_screen(_box(index)), True)
    else:  # the card on the photo, scrolled up to
        x, y, width = table.cards[code]
        photo = page.get_by_text(PHOTO).first

        def card_seen() -> bool:
            box = _box(photo)
            return box is not None and _on_screen(
                {"y": box["y"] + y * box["height"] / table.height, "height": 0.0}
            )

        scrolls += _swipes_until(page, card_seen, False)
        shown = width * ((_box(photo) or {"width": 0.0})["width"] / table.width)
        zoom = 2 if shown < LEGIBLE else 0
    if code in truth:
        answer = _in_row(page, page.get_by_role("button", name="Right as it is"), line)
    else:
        offered = [c for c in truth if page.get_by_role("button", name=c, exact=True).count()]
        name = offered[0] if offered else "Other…"
        answer = _in_row(page, page.get_by_role("button", name=name, exact=True), line)
    scrolls += _swipes_until(page, lambda: _on_screen(_box(answer)), True)
    before = _taps(page)
    answer.click()
    page.wait_for_timeout(1200)
    return scrolls, zoom, _taps(page) - before


def _judge_no_hand(page: Any, line: Any, name: str) -> tuple[int, int, int]:
    """A hand with no card read: the whole photo looked at (in its row where the app shows it
    there, else the photo above), then its player sits out."""
    whole = page.get_by_role("img", name=WHOLE)
    if whole.count():
        photo = _in_row(page, whole, line)
        scrolls = _swipes_until(page, lambda: _on_screen(_box(photo)), True)
    else:
        photo = page.get_by_text(PHOTO).first
        scrolls = _swipes_until(page, lambda: _on_screen(_box(photo)), False)
    answer = _in_row(page, browser.button(page, f"{name} sits out"), line)
    scrolls += _swipes_until(page, lambda: _on_screen(_box(answer)), True)
    before = _taps(page)
    answer.click()
    page.wait_for_timeout(1200)
    return scrolls, 0, _taps(page) - before


def _glance(page: Any, name: str, doubts: int) -> Glance | None:
    """ "Every doubtful read is right" where offered: scrolls until its crops and it are in
    view (from its block's first line), and its one tap (not made: the reads are judged one
    by one after)."""
    title = page.get_by_text(re.compile("doubtful reads side by side"))
    if not title.count():
        return None
    _to_top(page, title.first)
    tiles = page.get_by_role("img", name=re.compile("index corner"))
    every = browser.button(page, "Every doubtful read is right")
    shown = [tiles.nth(i) for i in range(min(tiles.count(), doubts))]
    scrolls = _swipes_until(page, lambda: _on_screen(*map(_box, [*shown, every])), True)
    return Glance(name, doubts, scrolls, 1)


def measure(
    folder: Path, labels: Path, root: Path, players: int
) -> tuple[list[Judged], list[Glance]]:
    truths = {Path(e["image"]).name: set(e["cards"]) for e in json.loads(labels.read_text())}
    judged: list[Judged] = []
    glances: list[Glance] = []
    names = ("Ana", "Bob", "Chloé", "Dan", "Eve", "Fay")[:players]
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        with (
            browser.running_app(data, browser.free_port(), root=root) as url,
            browser.phone_page(url) as page,
        ):
            browser.button(page, "English").click()
            browser.type_into(page, "Players (comma separated)", ", ".join(names), None)
            page.evaluate(COUNT_TAPS)
            for path in sorted(folder.glob("*.jpg")):
                table = Table(path, players)
                with page.expect_file_chooser() as chooser:
                    browser.button(page, "Photo of the table").click()
                chooser.value.set_files(str(path))
                browser.seen(page, re.compile("cards read")).wait_for(timeout=120000)
                page.get_by_text(PHOTO).first.wait_for(timeout=30000)
                page.wait_for_timeout(1000)
                crops = page.get_by_role("img", name=re.compile("index corner")).count() > 0
                reads = sum(1 for t in _lines(page) if READ.match(t))
                glance = _glance(page, path.name, reads) if crops else None
                if glance is not None:
                    glances.append(glance)
                for _ in range(20):
                    lines = [t for t in _lines(page) if READ.match(t) or NO_HAND.match(t)]
                    if not lines:
                        break
                    text = lines[0]
                    line = page.get_by_text(text, exact=True).first
                    _to_top(page, line)
                    if (read := READ.match(text)) is not None:
                        code = _card_code(read.group(1))
                        done = _judge_read(page, line, code, truths[path.name], table, crops)
                        kind = "read"
                    else:
                        name = NO_HAND.match(text).group(1)  # type: ignore[union-attr]
                        done = _judge_no_hand(page, line, name)
                        kind = "no hand"
                    judged.append(Judged(path.name, text[2:], kind, *done))
                browser.scroll(page, 4000)
                browser.button(page, "New table").click()
                page.wait_for_timeout(1500)
                browser.scroll(page, -6000)
    return judged, glances


def report(judged: list[Judged], glances: list[Glance]) -> None:
    print(f"{'photo':13} {'doubt':48} {'scrolls':>7} {'zoom':>5} {'taps':>5}")
    for j in judged:
        print(f"{j.photo:13} {j.doubt[:48]:48} {j.scrolls:7} {j.zoom:5} {j.taps:5}")
    for kind in ("read", "no hand"):
        rows = [j for j in judged if j.kind == kind]
        if not rows:
            continue
        scrolls, zoom, taps = ([getattr(j, k) for j in rows] for k in ("scrolls", "zoom", "taps"))
        print(
            f"{kind}: {len(rows)} doubts; per doubt: scrolls {statistics.mean(scrolls):.1f}"
            f" (most {max(scrolls)}), zoom taps and pinches {statistics.mean(zoom):.1f},"
            f" taps {statistics.mean(taps):.1f}"
        )
    for g in glances:
        print(f"{g.photo}: every doubtful read at once ({g.doubts}): {g.scrolls} scrolls, 1 tap")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--labels", type=Path)
    parser.add_argument("--app-root", type=Path, default=browser.ROOT)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    reason = browser.missing()
    if reason:
        raise SystemExit(f"needs the browser: {reason}")
    labels = args.labels or args.folder.parent / "labels.json"
    print(f"CPU: {describe_cpu()}; app: {args.app_root.resolve()}")
    report(*measure(args.folder, labels, args.app_root.resolve(), args.players))


if __name__ == "__main__":
    main()
