"""The Flet app: one component holding ``AppState``; every change goes through ``dispatch``."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import flet as ft
import numpy as np
from flet.components.hooks.use_ref import MutableRef

from companion.ui.banner import Banner
from companion.ui.camera import Camera, FusedReader, LiveRead, encode_jpeg
from companion.ui.cribbage.actions import prepare_show_photo
from companion.ui.fonts import FAMILY, font_urls
from companion.ui.history.actions import download_file, export_data, export_files
from companion.ui.navigation import initial_state
from companion.ui.photo.read import small_width
from companion.ui.replay.actions import run_replay, wanted
from companion.ui.root import bug_view, root_view
from companion.ui.services import MAX_UPLOAD_BYTES, Action, Services, run
from companion.ui.showdown.actions import prepare_photo
from companion.ui.spit.actions import prepare_spit_photo
from companion.ui.state import AppState
from companion.ui.text import LANGS, t
from companion.ui.typing_kept import Rendered, keep_typing

logger = logging.getLogger(__name__)

__all__ = ["make_main", "UPLOAD_FOLDER", "with_settings"]

LANG_KEY = "companion.lang"
COLOURS_KEY = "companion.suit_colours"  # "4" or "2"
PREVIEW_PAUSE_S = 0.0  # between preview frames: each frame is read (and fused) as it comes
UPLOAD_FOLDER = "uploads"  # inside the data folder; each upload is read once, then deleted
# How a photo is read on each screen that takes one (the showdown's reading elsewhere).
PHOTO_READERS: dict[str, Callable[[bytes, str, Services], Action]] = {
    "spit": prepare_spit_photo,
    "cribbage": prepare_show_photo,
}


def _photo_reader(screen: str, state: AppState) -> Callable[[bytes, str, Services], Action]:
    """How a photo taken on ``screen`` is read; the showdown's is told the table's layout."""
    return PHOTO_READERS.get(screen) or partial(prepare_photo, state=state)


def _uploaded(upload_dir: Path, name: str) -> bytes | None:
    """The uploaded file's bytes, removed from disk; None if the server refused it."""
    path = upload_dir / name
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    finally:
        path.unlink(missing_ok=True)
    return data


def with_settings(state: AppState, lang: object, colours: object) -> AppState:
    """The settings a browser kept (each as stored, None when it kept none) applied."""
    if lang in LANGS:
        state = state.in_lang(str(lang))
    if colours in ("2", "4"):
        state = replace(state, four_colours=colours == "4")
    return state


def _no_preview() -> bytes | None:
    return None


def _no_frame() -> np.ndarray | None:
    return None


def _no_width() -> int | None:
    return None


def _no_live() -> LiveRead | None:
    return None


def _no_fields() -> dict[str, Rendered]:
    return {}


@ft.component
def WebcamPanel(
    services: Services, dispatch: Callable[[Action], None], state: AppState
) -> ft.Control:
    """The host computer's webcam: a live preview with the cards read drawn, and a capture."""
    shown: tuple[bytes | None, Callable[[Any], None]] = ft.use_state(_no_preview)
    preview, set_preview = shown
    # The fused cards' width in the frame when too small to read surely: "come closer".
    small_state: tuple[int | None, Callable[[Any], None]] = ft.use_state(_no_width)
    small, set_small = small_state
    live = ft.use_ref(False)
    # The latest full-size frame, for the capture.
    last: MutableRef[np.ndarray | None] = ft.use_ref(_no_frame)
    # The reads of the frames so far, fused: what the capture keeps.
    fusing: MutableRef[LiveRead | None] = ft.use_ref(_no_live)

    async def start(_e: ft.Event[ft.Button]) -> None:
        if live.current:
            return
        camera = await asyncio.to_thread(Camera.open, services.webcam)
        if camera is None:
            dispatch(lambda s, _: s.with_banner(Banner.of("webcam_none")))
            return
        live.current = True
        fusing.current = LiveRead(services.reader)
        try:
            while live.current:
                frame = await asyncio.to_thread(camera.read)
                if frame is None:
                    break
                last.current = frame
                read = await asyncio.to_thread(fusing.current.read, frame)
                set_small(small_width(read))
                if read is not None:
                    from companion.vision import draw_reads  # loaded with the reader already

                    frame = draw_reads(frame, read)
                set_preview(encode_jpeg(frame))
                await asyncio.sleep(PREVIEW_PAUSE_S)
        finally:
            live.current = False
            camera.close()
            set_preview(None)

    async def capture(_e: ft.Event[ft.Button]) -> None:
        live.current = False
        if last.current is not None:
            photo = encode_jpeg(last.current, width=None, quality=92)
            prepare = _photo_reader(state.screen, state)
            # The frames' agreed read; none yet (a capture at once): the photo is read alone.
            fused = fusing.current.fused() if fusing.current is not None else None
            reading = services
            if fused is not None and len(fused):
                reading = replace(services, reader=FusedReader(fused, services.reader))
            dispatch(await asyncio.to_thread(prepare, photo, "webcam.jpg", reading))

    controls: list[ft.Control] = [
        ft.Button(
            key="webcam", content=t("webcam", state.lang), icon=ft.Icons.VIDEOCAM, on_click=start
        )
    ]
    if preview is not None:
        controls += [
            # Gapless: the last frame stays shown while the next one decodes (no blank flicker).
            ft.Image(src=preview, width=320, key="webcam-preview", gapless_playback=True),
            *(
                [ft.Text(t("webcam_small", state.lang, px=small), key="webcam-small")]
                if small is not None
                else []
            ),
            ft.Button(key="capture", content=t("capture", state.lang), on_click=capture),
        ]
    return ft.Column(controls, spacing=6)


@ft.component
def CompanionApp(services: Services, upload_dir: Path, lang: str) -> ft.Control:
    def start() -> AppState:
        return initial_state(services, lang)

    held: tuple[AppState, Callable[[Any], None]] = ft.use_state(start)
    state, set_state = held

    def dispatch(action: Action) -> None:
        def step(current: AppState) -> AppState:
            try:
                return run(action, current, services)
            except Exception as error:  # a bug: logged, shown, and the page keeps working
                logger.exception("an action failed")
                return current.with_banner(
                    Banner.of("bug", error=f"{type(error).__name__}: {error}")
                )

        set_state(step)

    pending: dict[str, tuple[str, str]] = ft.use_memo(dict, [])  # upload -> (file, screen)
    # The picker's handlers are made once; the screen the photo is for is read when it is picked.
    screen_now = ft.use_ref(state.screen)
    screen_now.current = state.screen

    async def on_result(e: ft.FilePickerResultEvent) -> None:
        if not e.files:
            return
        file = e.files[0]
        if file.size > MAX_UPLOAD_BYTES:
            dispatch(
                lambda s, _: s.with_banner(
                    Banner.of(
                        "upload_too_big",
                        size=round(file.size / 2**20, 1),
                        limit=MAX_UPLOAD_BYTES // 2**20,
                    )
                )
            )
            return
        name = f"{uuid.uuid4().hex}.upload"
        pending[name] = (file.name, str(screen_now.current))
        url = ft.context.page.get_upload_url(name, 120)
        await picker.upload([ft.FilePickerUploadFile(url, id=file.id, name=file.name)])

    async def on_upload(e: ft.FilePickerUploadEvent) -> None:
        if e.error:
            error = e.error
            for name in list(pending):  # a refused upload may have left a partial file
                pending.pop(name)
                (upload_dir / name).unlink(missing_ok=True)
            dispatch(lambda s, _: s.with_banner(Banner.of("upload_failed", error=error)))
            return
        if e.progress is None or e.progress < 1.0:
            return
        for name in list(pending):
            data = _uploaded(upload_dir, name)
            if data is not None:
                file_name, screen = pending.pop(name)
                prepare = _photo_reader(screen, shown.current or state)
                # Reading a big photo takes a while: off the event loop other phones share.
                dispatch(await asyncio.to_thread(prepare, data, file_name, services))

    picker = ft.use_memo(lambda: ft.FilePicker(on_result=on_result, on_upload=on_upload), [])

    # The settings (language, suit colours) are remembered by the browser (its local storage),
    # not by the server: each phone keeps its own. They are saved only once the stored ones
    # have been read.
    prefs = ft.use_memo(ft.SharedPreferences, [])
    settings_read = ft.use_ref(False)

    async def read_settings() -> None:
        lang = await prefs.get(LANG_KEY)
        colours = await prefs.get(COLOURS_KEY)
        settings_read.current = True
        set_state(lambda current: with_settings(current, lang, colours))

    async def save_settings() -> None:
        if settings_read.current:
            await prefs.set(LANG_KEY, state.lang)
            await prefs.set(COLOURS_KEY, "4" if state.four_colours else "2")

    ft.on_mounted(read_settings)
    ft.use_effect(save_settings, [state.lang, state.four_colours])

    # A replay opened on some heist is computed street by street in worker threads.
    replay_job = state.replay if state.replay is not None and state.replay.running else None
    replay_key = None if replay_job is None else replay_job.heist_id
    shown = ft.use_ref(state)  # the latest state, for the replay to stop once closed
    shown.current = state

    async def compute_replay() -> None:
        if replay_job is not None:
            await run_replay(
                replay_job,
                services,
                dispatch,
                still_wanted=lambda: wanted(replay_job, shown.current),
            )

    ft.use_effect(compute_replay, [replay_key])
    photo_button = ft.Button(
        key="photo",
        content=t("photo", state.lang),
        icon=ft.Icons.PHOTO_CAMERA,
        action=ft.PickFiles(picker, file_type=ft.FilePickerFileType.IMAGE),
    )

    async def send_export(kind: str, night_id: int | None) -> None:
        dispatch(export_data(kind, night_id))  # a copy stays in the data folder
        name, data = download_file(export_files(services.log, kind, night_id))
        await picker.save_file(file_name=name, src_bytes=data)

    def download(kind: str, night_id: int | None) -> None:
        ft.context.page.run_task(send_export, kind, night_id)

    webcam = WebcamPanel(services, dispatch, state)
    # The fields as last sent, so a re-render keeps what the user is typing (see typing_kept).
    typed: MutableRef[dict[str, Rendered]] = ft.use_ref(_no_fields)
    try:
        page = root_view(state, dispatch, photo_button, webcam, download)
    except Exception as error:  # a bug: say so on the page instead of freezing it silently
        logger.exception("rendering the %s screen failed", state.screen)
        typed.current = {}
        return bug_view(state, dispatch, error)
    typed.current = keep_typing(page, typed.current or {})
    return page


def make_main(services: Services, upload_dir: Path, lang: str = "fr") -> Callable[[ft.Page], None]:
    """The per-visitor entry point that Flet calls with each new page."""

    # The card models load while the app waits for its first visitor, not on the first photo.
    services.reader.preload()

    def main(page: ft.Page) -> None:
        page.title = "Companion"
        page.padding = 0
        # The app's own font: the suits drawn everywhere, with no font fetched from outside.
        page.fonts = font_urls()
        page.theme = ft.Theme(font_family=FAMILY)
        page.render(CompanionApp, services, upload_dir, lang)

    return main
