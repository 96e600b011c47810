"""Photos sent from a phone: the file picker, the upload, and which screen's reader reads it."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path

import flet as ft

from companion.errors import ImageDecodeError
from companion.messages import phrase
from companion.ui.banner import Banner
from companion.ui.cribbage.actions import prepare_show_photo
from companion.ui.services import MAX_UPLOAD_BYTES, Action, Services
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import prepare_photo
from companion.ui.spit.actions import prepare_spit_photo
from companion.ui.text import t
from companion.ui.widgets import Dispatch

__all__ = ["photo_reader", "use_photo_picker", "photo_button"]

Reader = Callable[[bytes, str, Services], Action[AppState]]
# How a photo is read on each screen that takes one (the showdown's reading elsewhere).
PHOTO_READERS: dict[str, Reader] = {
    "spit": prepare_spit_photo,
    "cribbage": prepare_show_photo,
}


def photo_reader(screen: str, state: AppState) -> Reader:
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


def use_photo_picker(
    services: Services,
    upload_dir: Path,
    dispatch: Dispatch[AppState],
    now: Callable[[], AppState],
) -> ft.FilePicker:
    """The page's file picker: a picked photo is uploaded, read off the event loop for the
    screen it was picked on (``now``: the state as last shown), then deleted."""
    pending: dict[str, tuple[str, str]] = ft.use_memo(dict, [])  # upload -> (file, screen)

    async def on_result(e: ft.FilePickerResultEvent) -> None:
        if not e.files:
            return
        file = e.files[0]
        if file.size == 0:  # nothing would arrive: say so now, with what to do
            empty = Banner.of_error(ImageDecodeError(file.name, phrase("image.empty")))
            dispatch(lambda s, _: s.with_banner(empty))
            return
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
        pending[name] = (file.name, now().screen)
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
                prepare = photo_reader(screen, now())
                # Reading a big photo takes a while: off the event loop other phones share.
                dispatch(await asyncio.to_thread(prepare, data, file_name, services))

    # The picker's handlers are made once: what they need of the page is read when they run.
    picker: ft.FilePicker = ft.use_memo(
        lambda: ft.FilePicker(on_result=on_result, on_upload=on_upload), []
    )
    return picker


def photo_button(picker: ft.FilePicker, lang: str) -> ft.Control:
    return ft.Button(
        key="photo",
        content=t("photo", lang),
        icon=ft.Icons.PHOTO_CAMERA,
        action=ft.PickFiles(picker, file_type=ft.FilePickerFileType.IMAGE),
    )
