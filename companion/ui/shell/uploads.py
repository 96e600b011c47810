"""Photos sent from a phone: the file picker, the upload, and which screen's reader reads it.

A photo is read as soon as the server has written it whole (``UploadFolder.written``, told
by the server's gate), not when the phone's own report that it was sent comes back, a round
trip later; the phone's report of a failure still ends the wait.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path

import flet as ft

from companion.errors import ImageDecodeError
from companion.messages import phrase
from companion.ui.cribbage.actions import prepare_show_photo
from companion.ui.kit.banner import Banner
from companion.ui.kit.services import MAX_UPLOAD_BYTES, Action, Services
from companion.ui.kit.text import t
from companion.ui.kit.widgets import Dispatch
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import prepare_photo
from companion.ui.spit.actions import prepare_spit_photo

__all__ = ["UploadFolder", "photo_action", "use_photo_picker", "photo_button"]

UPLOAD_URL_S = 120  # how long an upload URL is valid: the longest wait for its photo

PhotoAction = Callable[[bytes, str, Services], Action[AppState]]
# The action that reads a photo on each screen that takes one (the showdown's elsewhere).
PHOTO_ACTIONS: dict[str, PhotoAction] = {
    "spit": prepare_spit_photo,
    "cribbage": prepare_show_photo,
}


def photo_action(screen: str, state: AppState) -> PhotoAction:
    """The action reading a photo taken on ``screen``; the showdown's is told the table's
    layout."""
    return PHOTO_ACTIONS.get(screen) or partial(prepare_photo, state=state)


class UploadFolder:
    """The folder the server writes uploads to, and the pages waiting for one of them."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._waiting: dict[str, asyncio.Future[bool]] = {}

    def expect(self, name: str) -> asyncio.Future[bool]:
        """Settled True once the upload ``name`` is written whole, False if it failed."""
        arrival: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting[name] = arrival
        return arrival

    def __contains__(self, name: str) -> bool:
        """Whether a page still waits for the upload ``name``."""
        return name in self._waiting

    def written(self, name: str) -> None:
        """The server wrote the upload ``name`` whole (from any thread)."""
        self.settle(name, True)

    def settle(self, name: str, written: bool) -> None:
        arrival = self._waiting.pop(name, None)
        if arrival is not None:
            arrival.get_loop().call_soon_threadsafe(_settled, arrival, written)


def _settled(arrival: asyncio.Future[bool], written: bool) -> None:
    if not arrival.done():  # a wait given up (timed out) is cancelled
        arrival.set_result(written)


async def _arrived(uploads: UploadFolder, name: str, arrival: asyncio.Future[bool]) -> bytes | None:
    """The upload's bytes once written whole, removed from disk; None if it failed, was
    refused, or never came (the phone went away: its URL expires)."""
    try:
        written = await asyncio.wait_for(arrival, UPLOAD_URL_S)
    except TimeoutError:
        written = False
    if written:
        return _uploaded(uploads.path, name)
    uploads.settle(name, False)  # forgotten, if it timed out
    (uploads.path / name).unlink(missing_ok=True)  # a refused upload may have left a part
    return None


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
    uploads: UploadFolder,
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
        arrival = uploads.expect(name)
        url = ft.context.page.get_upload_url(name, UPLOAD_URL_S)
        await picker.upload([ft.FilePickerUploadFile(url, id=file.id, name=file.name)])
        data = await _arrived(uploads, name, arrival)
        file_name, screen = pending.pop(name)
        if data is not None:
            prepare = photo_action(screen, now())
            # Reading a big photo takes a while: off the event loop other phones share.
            dispatch(await asyncio.to_thread(prepare, data, file_name, services))

    async def on_upload(e: ft.FilePickerUploadEvent) -> None:
        # Only a failure counts here: the server tells when a photo is written whole.
        if not e.error:
            return
        error = e.error
        failed = next(
            (n for n, (f, _) in pending.items() if f == e.file_name and n in uploads), None
        )
        if failed is None:  # written whole already: the answer was lost on its way back
            return
        uploads.settle(failed, False)
        dispatch(lambda s, _: s.with_banner(Banner.of("upload_failed", error=error)))

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
