"""The judged table as a picture to share, as it would be saved now (outlines included)."""

from __future__ import annotations

from dataclasses import replace

from companion.share.picture import heist_picture
from companion.storage import HeistDraft
from companion.ui.kit.services import Services
from companion.ui.showdown.actions import heist_draft
from companion.ui.showdown.outlines import photo_outlines
from companion.ui.showdown.state import ShowdownState

__all__ = ["judged_draft", "table_picture", "PICTURE_NAME", "TABLE_PICTURE"]

PICTURE_NAME = "heist-{verdict}.png"
TABLE_PICTURE = "table-picture"  # the download kind of the judged table's picture


def judged_draft(table: ShowdownState) -> HeistDraft | None:
    """The heist as it would be saved now, outlines included; None before a verdict."""
    result = table.showdown()
    if result is None or result.verdict is None or table.problems():
        return None
    draft = heist_draft(table.check.table, table.token_map(), result, table.photo)
    return replace(draft, outlines=photo_outlines(table))


def table_picture(table: ShowdownState, lang: str, services: Services) -> tuple[str, bytes] | None:
    """The file to download: the judged table's picture and its name; None before a verdict."""
    draft = judged_draft(table)
    if draft is None:
        return None
    photo = None
    if draft.photo is not None:
        try:
            photo = services.log.photo_path(draft.photo).read_bytes()
        except OSError:  # gone from the data folder: the picture is drawn with the cards alone
            photo = None
    name = PICTURE_NAME.format(verdict="vault" if draft.verdict.opens else "alarm")
    return name, heist_picture(draft, lang, photo, table.everyone())
