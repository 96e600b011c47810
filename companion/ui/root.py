"""The whole page for one state: top bar, banner, the current screen, the navigation bar."""

from __future__ import annotations

import flet as ft

from companion.ui.cribbage.view import cribbage_view
from companion.ui.history.view import history_view
from companion.ui.night.view import night_view
from companion.ui.replay.view import replay_view
from companion.ui.services import pure
from companion.ui.showdown.view import showdown_view
from companion.ui.spit.view import spit_view
from companion.ui.state import AppState
from companion.ui.text import t
from companion.ui.widgets import Dispatch, Download, banner_view, nav_bar, suit_colours

__all__ = ["Dispatch", "bug_view", "root_view", "screen_view"]


def screen_view(
    state: AppState,
    dispatch: Dispatch,
    photo_button: ft.Control | None = None,
    webcam_button: ft.Control | None = None,
    download: Download | None = None,
) -> ft.Control:
    if state.replay is not None:  # a heist's replay, over the screen it was opened from
        return replay_view(state, dispatch)
    if state.screen == "showdown":
        return showdown_view(state, dispatch, photo_button, webcam_button)
    if state.screen == "night":
        return night_view(state, dispatch)
    if state.screen == "history":
        return history_view(state, dispatch, download)
    if state.screen == "spit":
        return spit_view(state, dispatch, photo_button)
    if state.screen == "cribbage":
        return cribbage_view(state, dispatch, photo_button, webcam_button)
    raise ValueError(f"no view for screen {state.screen!r}")


def root_view(
    state: AppState,
    dispatch: Dispatch,
    photo_button: ft.Control | None = None,
    webcam_button: ft.Control | None = None,
    download: Download | None = None,
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
    # Keyed: a banner appearing above the screen must not shift the screen's controls onto
    # other ones (the web client would then send a field's events to the wrong handler).
    with suit_colours(state.four_colours):
        shown = screen_view(state, dispatch, photo_button, webcam_button, download)
    screen = ft.Container(
        shown,
        key="screen-replay" if state.replay else f"screen-{state.screen}",
    )
    body = [top, banner_view(state.banner, state.lang), screen]
    return ft.Column(
        [
            ft.Container(
                ft.Column(
                    [b for b in body if b is not None], spacing=10, scroll=ft.ScrollMode.AUTO
                ),
                expand=True,
                padding=12,
            ),
            nav_bar(state, dispatch),
        ],
        expand=True,
        spacing=0,
    )


def bug_view(state: AppState, dispatch: Dispatch, error: Exception) -> ft.Control:
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
