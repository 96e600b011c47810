"""The History screen's actions: reading the past nights and stats again, exports."""

from __future__ import annotations

import io
import json
import zipfile

from companion.formats.judging import judge_deal
from companion.share.picture import heist_picture
from companion.storage import GameLog
from companion.storage.bgstats import night_play
from companion.ui.history.host import H
from companion.ui.kit.banner import Banner
from companion.ui.kit.services import Action, Services

__all__ = [
    "BGSTATS",
    "PICTURE",
    "heist_picture_file",
    "refresh_history",
    "show_heists",
    "export_files",
    "download_file",
    "export_data",
]


BGSTATS = "bgstats"  # the export kind of a night's BG Stats play
PICTURE = "picture"  # the export kind of a heist's picture to share (its key: the heist's id)


def show_heists(night_id: int) -> Action[H]:
    """A past night's heists shown under it, as saved (tapped again: hidden)."""

    def action(state: H, services: Services) -> H:
        shown = state.history_night
        if shown is not None and shown[0] == night_id:
            return state.with_history_night(None)
        return state.with_history_night((night_id, services.log.heists(night_id)))

    return action


def refresh_history(state: H, services: Services) -> H:
    return state.with_history_of(services.log)


def export_files(
    log: GameLog, kind: str, night_id: int | None = None, lang: str = "en"
) -> dict[str, bytes]:
    """An export's files by name: one JSON file, the nights and heists CSV tables, a
    night's BG Stats play (``kind`` "bgstats", its words in ``lang``), each carrying the
    players' judging figures (``formats.judging``), or a heist's picture (``kind``
    "picture", ``night_id`` then the heist's id)."""
    if kind == PICTURE and night_id is not None:
        return dict([heist_picture_file(log, night_id, lang)])
    stem = "all" if night_id is None else f"night-{night_id}"
    if kind == BGSTATS and night_id is not None:
        play = json.dumps(night_play(log, night_id, lang, judge_deal), ensure_ascii=False, indent=2)
        return {f"{stem}-bgstats.json": play.encode()}
    if kind == "json":
        text = log.export_json(night_id, judge_deal)
        json.loads(text)  # the export is JSON by contract; a broken one is a bug
        return {f"{stem}.json": text.encode()}
    tables = log.export_csv(night_id, judge_deal)
    return {
        f"{stem}-nights.csv": tables.nights.encode(),
        f"{stem}-heists.csv": tables.heists.encode(),
    }


def heist_picture_file(log: GameLog, heist_id: int, lang: str) -> tuple[str, bytes]:
    """A saved heist's picture (``companion.share``) and its file name; a photo gone from
    the data folder leaves the cards drawn alone."""
    heist = log.heist(heist_id)
    photo = None
    if heist.photo is not None:
        try:
            photo = log.photo_path(heist.photo).read_bytes()
        except OSError:
            photo = None
    name = f"night-{heist.night_id}-heist-{heist.number}.png"
    seating = log.night_status(heist.night_id).night.players  # each player's colour
    return name, heist_picture(heist, lang, photo, seating)


def download_file(files: dict[str, bytes]) -> tuple[str, bytes]:
    """What the browser downloads: the one file, or a zip of several."""
    if len(files) == 1:
        return next(iter(files.items()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return f"{next(iter(files)).rsplit('-', 1)[0]}-csv.zip", buffer.getvalue()


def export_data(kind: str, night_id: int | None = None) -> Action[H]:
    """Write an export into the data folder's ``exports/`` (never anywhere else)."""

    def action(state: H, services: Services) -> H:
        folder = services.data_dir / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        files = export_files(services.log, kind, night_id, state.lang)
        for name, data in files.items():
            (folder / name).write_bytes(data)
        return state.with_banner(
            Banner.of("exported", path=", ".join(str(folder / name) for name in files))
        )

    return action
