"""The settings each phone keeps (language, suit colours), in its browser, not on the server."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import flet as ft
from flet.controls.exceptions import FletPageDisconnectedException

from companion.ui.kit.text import LANGS
from companion.ui.shell.state import AppState

__all__ = ["LANG_KEY", "COLOURS_KEY", "PAGE_GONE", "with_settings", "use_settings"]

# What asking a page's browser raises once the page has left (a phone locked or reloaded while
# the page loads): Flet answers a closed session's pending call with RuntimeError("Session
# closed"), and a call to a page gone with FletPageDisconnectedException.
PAGE_GONE = (RuntimeError, TimeoutError, FletPageDisconnectedException)

LANG_KEY = "companion.lang"
COLOURS_KEY = "companion.suit_colours"  # "4" or "2"


def with_settings(state: AppState, lang: object, colours: object) -> AppState:
    """The settings a browser kept (each as stored, None when it kept none) applied."""
    if lang in LANGS:
        state = state.in_lang(str(lang))
    if colours in ("2", "4"):
        state = replace(state, four_colours=colours == "4")
    return state


def use_settings(state: AppState, set_state: Callable[[Any], None]) -> None:
    """Read the browser's settings once the page is up, and save them as they change.

    Saved only once the stored ones have been read: the defaults must not overwrite them.
    """
    prefs = ft.use_memo(ft.SharedPreferences, [])
    settings_read = ft.use_ref(False)

    async def read_settings() -> None:
        try:
            lang = await prefs.get(LANG_KEY)
            colours = await prefs.get(COLOURS_KEY)
        except PAGE_GONE:
            return  # the page left before its browser answered: nobody to apply them for
        settings_read.current = True
        set_state(lambda current: with_settings(current, lang, colours))

    async def save_settings() -> None:
        if settings_read.current:
            try:
                await prefs.set(LANG_KEY, state.lang)
                await prefs.set(COLOURS_KEY, "4" if state.four_colours else "2")
            except PAGE_GONE:
                pass  # the page left: its browser keeps what it had

    ft.on_mounted(read_settings)
    ft.use_effect(save_settings, [state.lang, state.four_colours])
