"""An export sent to the browser as a download (a copy stays in the data folder), and the
judged table's picture (not saved: no copy)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.errors import CompanionError
from companion.ui.history.actions import download_file, export_data, export_files
from companion.ui.kit.banner import Banner
from companion.ui.kit.services import Services, pure
from companion.ui.kit.widgets import Dispatch, Download
from companion.ui.shell.state import AppState
from companion.ui.showdown.share import TABLE_PICTURE, table_picture

__all__ = ["downloader"]


def downloader(
    picker: ft.FilePicker,
    services: Services,
    dispatch: Dispatch[AppState],
    now: Callable[[], AppState],
) -> Download:
    """What the History screen's export buttons call: write the export, then send it (in
    the page's language, ``now``'s)."""

    def file(kind: str, night_id: int | None) -> tuple[str, bytes] | None:
        if kind == TABLE_PICTURE:  # the table on the screen, saved or not: nothing to copy
            state = now()
            return table_picture(state.table, state.lang, services)
        dispatch(export_data(kind, night_id))  # a copy stays in the data folder
        return download_file(export_files(services.log, kind, night_id, now().lang))

    async def send_export(kind: str, night_id: int | None) -> None:
        try:
            sent = file(kind, night_id)
        except CompanionError as error:  # said in the banner, as an action's error is
            said = Banner.of_error(error)
            dispatch(pure(lambda state: state.with_banner(said)))
            return
        if sent is not None:
            await picker.save_file(file_name=sent[0], src_bytes=sent[1])

    def download(kind: str, night_id: int | None) -> None:
        ft.context.page.run_task(send_export, kind, night_id)

    return download
