"""Drive the running app in Debian's Chromium through Flutter's accessibility tree.

Flutter draws on a canvas; once its semantics are switched on, every button, text and text
field also exists in the DOM with its label, which Playwright finds by role and name.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

CHROMIUM = Path(os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium"))
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("COMPANION_ARTIFACTS", ROOT / "artifacts"))
PHONE = {"width": 390, "height": 844}
# The log of the app this worker started last: a failure message ends with its tail.
_APP_LOG: list[Path] = []


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Python package 'playwright' is not installed (pip install -e .[e2e])"
    if not CHROMIUM.is_file():
        return f"{CHROMIUM} not found (apt-get install -y chromium)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_app(
    data: Path,
    port: int,
    host: str = "127.0.0.1",
    output: list[str] | None = None,
    options: Sequence[str] = (),
    root: Path = ROOT,
) -> Iterator[str]:
    """``companion app`` in its own process; yields its local URL, stops it after.

    ``output`` receives the lines the command printed once it answers (addresses, join code);
    ``options`` are more of the command's options (``--webcam VIDEO``); ``root``, the copy of
    the project whose app runs (another version's, for a before-and-after measure).
    """
    # Output goes to a file, not a pipe: a pipe nobody reads would block a chatty server.
    log_path = data.parent / f"companion-app-{port}.log"
    log = log_path.open("w")
    _APP_LOG[:] = [log_path]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "app",
            "--host",
            host,
            "--port",
            str(port),
            "--data",
            str(data),
            *options,
        ],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)} if root != ROOT else None,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"companion app did not start:\n{log_path.read_text()}")
            time.sleep(0.3)
        if output is not None:
            output += log_path.read_text().splitlines()
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@contextmanager
def phone_page(
    url: str,
    offline: list[str] | None = None,
    requests: dict[str, str] | None = None,
    scale: int = 1,
    console: list[str] | None = None,
) -> Iterator[Any]:
    """A phone-sized page of the app with Flutter's semantics tree switched on.

    The page gets no internet, as at a table without one: requests that leave the app's server
    are refused, and their URLs added to ``offline`` when given. ``requests`` receives every
    request the page makes, from its first: its URL, and "" or why the browser failed it
    ("csp": refused by the page's own policy, before anything was sent). ``scale``: device
    pixels per page pixel (a phone's own screenshot is 3); ``console`` receives every message
    the page writes to its console, "type: text".
    """
    from playwright.sync_api import sync_playwright

    def only_the_app(route: Any) -> None:
        if route.request.url.startswith(url):
            route.continue_()
        else:
            if offline is not None:
                offline.append(route.request.url)
            route.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport=PHONE, device_scale_factor=scale)
            if console is not None:
                page.on(
                    "console", lambda message: console.append(f"{message.type}: {message.text}")
                )
            if requests is not None:
                page.on("request", lambda request: requests.setdefault(request.url, ""))
                page.on(
                    "requestfailed",
                    lambda request: requests.update({request.url: request.failure or "?"}),
                )
            page.route("**/*", only_the_app)
            page.goto(url)
            enable_semantics(page)
            yield page
        finally:
            browser.close()


def enable_semantics(page: Any) -> None:
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.get_by_role("tab").first.wait_for(timeout=30000)


def button(page: Any, name: str, exact: bool = False) -> Any:
    pattern = name if exact else re.compile(re.escape(name))
    return page.get_by_role("button", name=pattern, exact=exact or None).first


def type_into(page: Any, label: str, text: str, shows: str | None) -> None:
    """Type into the field labelled ``label`` and press Enter, until ``shows`` appears.

    With ``shows`` None, types once: the caller checks the effect itself.

    A click can land while Flutter rebuilds the previous field's semantics; typing again into
    a field that lost focus is what a person would do too.
    """
    # A field with a hint says it after its label once focused ("label\nhint").
    focused = (
        "label => document.activeElement?.tagName === 'INPUT'"
        " && document.activeElement.getAttribute('aria-label').split('\\n')[0] === label"
    )
    field = page.get_by_label(re.compile(f"^{re.escape(label)}(\n|$)"))
    for _ in range(4):
        field.click()
        # A select-all pressed right after the click is sometimes not applied (a probe saw the
        # caret still where the click landed), and a first click on a field can lose the focus
        # again a moment later (a probe saw it on the body 0.1 s after): wait a moment, as a
        # person does, then check where the focus is.
        time.sleep(0.5)
        try:
            # The focus must be in this very field: a click that lands while the layout moves
            # can focus a neighbour, and typing there would change the wrong cards.
            page.wait_for_function(focused, arg=label, timeout=3000)
        except Exception:  # playwright's TimeoutError: the field did not keep the focus
            continue
        page.keyboard.press("Control+A")
        page.keyboard.type(text, delay=15)
        if page.evaluate("document.activeElement?.value") != text:
            continue
        page.keyboard.press("Enter")
        if shows is None:
            time.sleep(1.0)
            return
        try:
            seen(page, shows).wait_for(timeout=8000)
            return
        except Exception:  # playwright's TimeoutError: leave the field, as a person would
            pass
        # An Enter that changed nothing (CI saw four in a row on a loaded machine): leaving the
        # field commits its text too (on_blur), by another event than the submit.
        page.keyboard.press("Tab")
        try:
            seen(page, shows).wait_for(timeout=8000)
            return
        except Exception:  # playwright's TimeoutError: try the field again
            continue
    focused = page.evaluate("document.activeElement?.getAttribute('aria-label')")
    value = page.evaluate("document.activeElement?.value")
    fail(
        page,
        "failed-typing",
        f"typing {text!r} into {label!r} never showed {shows!r} "
        f"(focus is on {focused!r} holding {value!r})",
    )


def type_cards(page: Any, cards: dict[str, str]) -> None:
    """In English: each place's cards typed ({"River": "As Kd Qh 7c 2s", "Ana": "Ah Ad"})."""
    for place, typed in cards.items():
        type_into(page, f"Cards: {place}", typed, None)


def seen(page: Any, text: str | re.Pattern[str], exact: bool | None = None) -> Any:
    """The first *visible* element showing ``text``.

    Flutter keeps semantics nodes for parts of the page scrolled just out of view; a plain
    ``get_by_text(...).first`` can pick one of those and wait for it forever.
    """
    return page.get_by_text(text, exact=exact).filter(visible=True).first


def tap(page: Any, target: Any, effect: Any, timeout: float = 30000) -> None:
    """Click ``target``, then wait until ``effect`` (a locator) is visible.

    Each tap reshapes the page once the server answers; the next tap must wait for that, as a
    person looks before tapping again, or it lands where the previous layout had a button.
    """
    target.click()
    try:
        effect.wait_for(timeout=timeout)
    except Exception as exc:  # playwright's TimeoutError: say what the page showed instead
        fail(page, "failed-tap", f"a tap had no visible effect ({exc})")


def open_tab(page: Any, name: str, shows: str | re.Pattern[str], tries: int = 3) -> None:
    """Tap the tab ``name`` until ``shows`` is visible.

    The first tap after the page loads can be lost while Flutter still builds its semantics
    tree (CI saw the Spit tab's first tap do nothing); tapping a tab again is harmless, and is
    what a person would do.
    """
    for _ in range(tries):
        try:
            # Bounded: a busy page gets another try, never an unbounded wait.
            page.get_by_role("tab", name=name).click(timeout=20000)
            seen(page, shows).wait_for(timeout=10000)
            return
        except Exception:  # playwright's TimeoutError: tap the tab again
            continue
    fail(page, "failed-tab", f"tab {name!r} never showed {shows!r}")


def fail(page: Any, shot: str, message: str) -> NoReturn:
    """Stop the test with ``message``, a screenshot named ``shot`` and the page's texts."""
    screenshot(page, shot)
    raise AssertionError(f"{message}; see {shot}.png\n{on_screen(page)}\n{app_log_tail()}")


def app_log_tail(lines: int = 40) -> str:
    """The last lines the app printed (a server-side traceback explains a tap that did nothing)."""
    if not _APP_LOG or not _APP_LOG[0].is_file():
        return "(no app log)"
    tail = _APP_LOG[0].read_text(errors="replace").splitlines()[-lines:]
    return "app log: " + "\n".join(tail)


def on_screen(page: Any) -> str:
    """The texts the page shows now, for a failure message."""
    try:
        texts = page.evaluate(
            "() => [...document.querySelectorAll('flt-semantics')]"
            ".map(e => e.getAttribute('aria-label') || e.textContent || '')"
            ".filter(t => t.trim()).slice(0, 80)"
        )
    except Exception:  # a page already closed has nothing to say
        return "(page closed)"
    return "on screen: " + " | ".join(dict.fromkeys(t.strip() for t in texts))


def scroll(page: Any, pixels: int) -> None:
    """Scroll the app's content (a Flutter scroll view listens to the wheel, not the DOM)."""
    page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
    page.mouse.wheel(0, pixels)
    time.sleep(0.5)


def screenshot(page: Any, name: str, folder: Path = ARTIFACTS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.mouse.move(1, 1)  # no hover tooltip in the picture
    time.sleep(0.5)  # let the last frame paint
    page.screenshot(path=str(path))
    return path


def copy_fixture(source: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(source, folder / source.name))


def start_night(page: Any, players: Sequence[str]) -> None:
    """In English: a night for ``players`` started, then the Showdown tab open."""
    button(page, "English").click()
    open_tab(page, "Game night", "Start the night")
    type_into(page, "Players (comma separated)", ", ".join(players), None)
    button(page, "Start the night").click()
    page.get_by_text("Vaults 0 / 3 — Alarms 0 / 3").wait_for()
    open_tab(page, "Showdown", "Photo of the table")
