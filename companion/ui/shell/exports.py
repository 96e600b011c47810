"""An export sent to the browser as a download (a copy stays in the data folder), and the
judged table's picture (not saved: no copy)."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.ui.history.actions import download_file, export_data, export_files
from companion.ui.kit.services import Services
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

    async def send_export(kind: str, night_id: int | None) -> None:
        if kind == TABLE_PICTURE:  # the table on the screen, saved or not: nothing to copy
            state = now()
            picture = table_picture(state.table, state.lang, services)
            if picture is not None:
                await picker.save_file(file_name=picture[0], src_bytes=picture[1])
            return
        dispatch(export_data(kind, night_id))  # a copy stays in the data folder
        files = export_files(services.log, kind, night_id, now().lang)
        name, data = download_file(files)
        await picker.save_file(file_name=name, src_bytes=data)

    def download(kind: str, night_id: int | None) -> None:
        ft.context.page.run_task(send_export, kind, night_id)

    return download
