"""The whole page for one state: top bar, banner, the current screen, the navigation bar.

Each screen is given here what it shows or opens of the others.
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.ui.cribbage.night_row import night_game_row
from companion.ui.cribbage.view import cribbage_view
from companion.ui.history.view import history_view
from companion.ui.kit.services import pure
from companion.ui.kit.text import t
from companion.ui.kit.widgets import Dispatch, Download, OpenReplay, banner_view, suit_colours
from companion.ui.night.view import NightLinks, night_view
from companion.ui.replay.actions import open_replay
from companion.ui.replay.view import replay_view
from companion.ui.shell.navigation import open_screen
from companion.ui.shell.state import SCREENS, AppState
from companion.ui.showdown.setup_view import setup_panel
from companion.ui.showdown.share import TABLE_PICTURE
from companion.ui.showdown.view import showdown_view
from companion.ui.spit.view import spit_view

__all__ = ["PageParts", "bug_view", "nav_bar", "root_view", "screen_view"]


BANNER_ROOM = 140  # the tallest banner (four lines at phone width) and its margin

_ICONS = {
    "showdown": ft.Icons.STYLE,
    "night": ft.Icons.NIGHTLIFE,
    "history": ft.Icons.HISTORY,
    "cribbage": ft.Icons.GRID_ON,
    "spit": ft.Icons.BOLT,
}


def nav_bar(state: AppState, dispatch: Dispatch[AppState]) -> ft.NavigationBar:
    return ft.NavigationBar(
        key="nav",
        selected_index=SCREENS.index(state.screen),
        destinations=[
            ft.NavigationBarDestination(icon=_ICONS[s], label=t(f"nav_{s}", state.lang))
            for s in SCREENS
        ],
        on_change=lambda e: dispatch(open_screen(SCREENS[int(e.control.selected_index)])),
    )


def _replay_opener(dispatch: Dispatch[AppState]) -> OpenReplay:
    """How the night and history screens open a heist's replay."""
    return lambda night, heist: dispatch(open_replay(night, heist))


def _night_links(state: AppState, dispatch: Dispatch[AppState]) -> NightLinks:
    return NightLinks(
        setup=lambda: setup_panel(state, dispatch),
        game_row=lambda game: night_game_row(game, state.lang, dispatch),
        replay=_replay_opener(dispatch),
    )


@dataclass(frozen=True)
class PageParts:
    """What the app's component gives the page beside the state: its photo and webcam
    buttons, and how an export reaches the browser (None: the data folder only)."""

    photo_button: ft.Control | None = None
    webcam_button: ft.Control | None = None
    download: Download | None = None


def screen_view(
    state: AppState, dispatch: Dispatch[AppState], parts: PageParts | None = None
) -> ft.Control:
    parts = parts or PageParts()
    photo_button, webcam_button = parts.photo_button, parts.webcam_button
    if state.replay is not None:  # a heist's replay, over the screen it was opened from
        return replay_view(state, dispatch)
    if state.screen == "showdown":
        download = parts.download
        share = None if download is None else (lambda: download(TABLE_PICTURE, None))
        return showdown_view(state, dispatch, photo_button, webcam_button, share)
    if state.screen == "night":
        return night_view(state, dispatch, _night_links(state, dispatch))
    if state.screen == "history":
        return history_view(state, dispatch, _replay_opener(dispatch), parts.download)
    if state.screen == "spit":
        return spit_view(state, dispatch, photo_button)
    if state.screen == "cribbage":
        return cribbage_view(state, dispatch, photo_button, webcam_button)
    raise ValueError(f"no view for screen {state.screen!r}")


def root_view(
    state: AppState, dispatch: Dispatch[AppState], parts: PageParts | None = None
) -> ft.Control:
    top = ft.Row(
        key="top",
        controls=[
            ft.Text(t("app_title", state.lang), size=22, weight=ft.FontWeight.BOLD, expand=True),
            ft.Switch(
                key="four-colours",
                label=t("four_colours", state.lang),
                value=state.four_colours,
                on_change=lambda e: dispatch(pure(lambda s: s.toggle_colours())),
            ),
            ft.TextButton(
                key="lang",
                content=t("language", state.lang),
                on_click=lambda e: dispatch(pure(lambda s: s.toggle_lang())),
            ),
        ],
    )
    # Keyed: a screen's controls are never taken for another screen's by the web client.
    with suit_colours(state.four_colours):
        shown = screen_view(state, dispatch, parts)
    screen = ft.Container(
        shown,
        key="screen-replay" if state.replay else f"screen-{state.screen}",
    )
    # While a banner is shown, the page's foot can be scrolled clear of it: the last button
    # ("New table") is then above the banner, never under it. At the end: nothing moves.
    room = None if state.banner is None else ft.Container(height=BANNER_ROOM, key="banner-room")
    body = ft.Container(
        ft.Column(
            [c for c in (top, screen, room) if c is not None], spacing=10, scroll=ft.ScrollMode.AUTO
        ),
        expand=True,
        padding=12,
    )
    # Over the page, not in it: a banner that comes and goes never moves what a finger aims at.
    banner = banner_view(
        state.banner, state.lang, lambda: dispatch(pure(lambda s: s.with_banner(None)))
    )
    return ft.Column(
        [
            ft.Stack([body] if banner is None else [body, banner], expand=True),
            nav_bar(state, dispatch),
        ],
        expand=True,
        spacing=0,
    )


def bug_view(state: AppState, dispatch: Dispatch[AppState], error: Exception) -> ft.Control:
    """What a screen that failed to build shows: the bug, and a way back to a clean table."""
    return ft.Column(
        [
            ft.Text(
                t("bug", state.lang, error=f"{type(error).__name__}: {error}"),
                key="bug",
                color=ft.Colors.RED_700,
                size=16,
            ),
            ft.Button(
                key="bug-reset",
                content=t("new_table", state.lang),
                on_click=lambda e: dispatch(
                    pure(lambda s: s.with_table(s.table.cleared()).go("showdown"))
                ),
            ),
        ],
        spacing=12,
    )
