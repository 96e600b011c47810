"""The app's own font and how cards are drawn with it: suits as glyphs, in two or four colours,
the ten as 10; the font file is served by the app itself (no font fetched from outside)."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import httpx
import pytest

from companion.storage import SqliteGameLog
from companion.ui.kit import fonts
from companion.ui.kit.fonts import FAMILY, font_file, font_urls
from companion.ui.kit.services import Services
from companion.ui.kit.widgets import FOUR_COLOURS, TWO_COLOURS, card_chip, suit_colours
from companion.ui.shell.server import build_asgi
from companion.ui.shell.settings import with_settings
from companion.ui.shell.state import AppState
from companion.ui.showdown.state import ShowdownState
from tests.ui.glyphs import characters
from tests.ui.screens import Session, find


def test_an_install_without_the_font_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # An install older than the font (pip install -e . not run again): no assets, no fonts.
    monkeypatch.setattr(fonts, "_PACKAGE", "companion_no_such_font_package")
    assert fonts.assets_dir() is None and fonts.font_file() is None and fonts.font_urls() == {}


def test_the_font_draws_suits_arrows_and_french() -> None:
    assert set("♠♥♦♣→«»—…’éèêàçœÉ€") <= characters(font_file())


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_app_serves_its_font(tmp_path: Path, anyio_backend: str) -> None:
    log = SqliteGameLog.in_folder(tmp_path)
    try:
        app = build_asgi(log, tmp_path, "123456")
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8550") as web:
            answer = await web.get(font_urls()[FAMILY])
    finally:
        log.close()
    assert answer.status_code == 200 and answer.content == font_file().read_bytes()


@pytest.mark.parametrize(
    ("card", "face", "name"),
    [
        ("Th", "10♥", "10h"),
        ("Qd", "Q♦", "Qd"),
        ("2c", "2♣", "2c"),
        ("*s", "*♠", "*s"),
        ("zz", "zz", "zz"),
    ],
)
def test_a_chip_shows_the_card_as_printed_and_is_named_as_typed(
    card: str, face: str, name: str
) -> None:
    text = card_chip(card, key="c").content
    assert (text.value, text.semantics_label) == (face, name)


@pytest.mark.parametrize(("four", "colours"), [(False, TWO_COLOURS), (True, FOUR_COLOURS)])
def test_suit_colours(four: bool, colours: dict[str, str]) -> None:
    with suit_colours(four):
        drawn = {suit: card_chip(f"A{suit}", key=suit).content.color for suit in "shdc"}
    assert drawn == colours
    assert len(set(drawn.values())) == (4 if four else 2)
    assert card_chip("Ad", key="after").content.color == TWO_COLOURS["d"]  # back to two


def test_the_switch_colours_every_chip_on_the_page(services: Services) -> None:
    session = Session(AppState(), services)
    session.submit("river-text", "As Kd Qh 7c 2s")
    assert find(session.view(), "river-card-1").content.color == TWO_COLOURS["d"]
    switch = find(session.view(), "four-colours")
    switch.on_change(ft.Event("change", switch))
    assert session.state.four_colours
    assert find(session.view(), "river-card-1").content.color == FOUR_COLOURS["d"]


def test_settings_kept_by_the_browser_apply_and_junk_is_ignored() -> None:
    fr = AppState(table=ShowdownState.new(("Joueur 1", "Bob")))
    state = with_settings(fr, "en", "4")
    assert state.lang == "en" and state.four_colours
    # Default names (given to a photo's hands) follow the language; typed names stay.
    assert state.table.players == ("Player 1", "Bob")
    assert with_settings(state, None, None) == state
    assert with_settings(state, "de", "7") == state
    assert not with_settings(state, "en", "2").four_colours
