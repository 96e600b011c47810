"""The Flet app: one component holding ``AppState``; every change goes through ``dispatch``.

The component only puts the app's parts together (``ui/shell/``): the state and how actions
run on it, the photo picker, the settings a phone keeps, the replay job, the exports, the
webcam, and the page for the state.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import flet as ft
from flet.components.hooks.use_ref import MutableRef

from companion.ui.kit.fonts import FAMILY, font_urls
from companion.ui.kit.services import Services
from companion.ui.shell.banner_time import use_banner_time
from companion.ui.shell.dispatch import dispatcher
from companion.ui.shell.exports import downloader
from companion.ui.shell.navigation import initial_state
from companion.ui.shell.replay_job import use_replay_job
from companion.ui.shell.root import PageParts, bug_view, root_view
from companion.ui.shell.settings import use_settings
from companion.ui.shell.state import AppState
from companion.ui.shell.typing_kept import Rendered, keep_typing
from companion.ui.shell.uploads import UploadFolder, photo_button, use_photo_picker
from companion.ui.shell.webcam import WebcamPanel

logger = logging.getLogger(__name__)

__all__ = ["make_main", "UPLOAD_FOLDER"]

UPLOAD_FOLDER = "uploads"  # inside the data folder; each upload is read once, then deleted


def _no_fields() -> dict[str, Rendered]:
    return {}


@ft.component
def CompanionApp(services: Services, uploads: UploadFolder, lang: str) -> ft.Control:
    def start() -> AppState:
        return initial_state(services, lang)

    held: tuple[AppState, Callable[[Any], None]] = ft.use_state(start)
    state, set_state = held
    dispatch = dispatcher(services, set_state)
    # The state as last shown, for the handlers made once (the picker's, the replay's).
    latest: MutableRef[AppState] = ft.use_ref(state)
    latest.current = state

    def now() -> AppState:
        return latest.current or state

    picker = use_photo_picker(services, uploads, dispatch, now)
    use_settings(state, set_state)
    use_banner_time(state, set_state)
    use_replay_job(state, services, dispatch, now)
    download = downloader(picker, services, dispatch, now)
    webcam = WebcamPanel(services, dispatch, state)
    # The fields as last sent, so a re-render keeps what the user is typing (see typing_kept).
    typed: MutableRef[dict[str, Rendered]] = ft.use_ref(_no_fields)
    try:
        parts = PageParts(photo_button(picker, state.lang), webcam, download)
        page = root_view(state, dispatch, parts)
    except Exception as error:  # a bug: say so on the page instead of freezing it silently
        logger.exception("rendering the %s screen failed", state.screen)
        typed.current = {}
        return bug_view(state, dispatch, error)
    typed.current = keep_typing(page, typed.current or {})
    return page


def make_main(
    services: Services, uploads: UploadFolder, lang: str = "fr"
) -> Callable[[ft.Page], None]:
    """The per-visitor entry point that Flet calls with each new page."""

    # The card models load while the app waits for its first visitor, not on the first photo.
    services.detector.preload()

    def main(page: ft.Page) -> None:
        page.title = "Companion"
        page.padding = 0
        # The app's own font: the suits drawn everywhere, with no font fetched from outside.
        page.fonts = font_urls()
        page.theme = ft.Theme(font_family=FAMILY)
        page.render(CompanionApp, services, uploads, lang)

    return main
