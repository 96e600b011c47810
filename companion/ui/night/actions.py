"""The Game night screen's actions: start, undo the last heist, close; the night's photos."""

from __future__ import annotations

from dataclasses import replace

import cv2

from companion.errors import ImageDecodeError
from companion.formats.table import house_rules_from_json, house_rules_to_json
from companion.storage import Heist, NightStatus
from companion.ui.banner import Banner
from companion.ui.history.actions import refresh_history
from companion.ui.services import Services, decode_upload
from companion.ui.showdown.state import ShowdownState
from companion.ui.state import AppState

__all__ = [
    "with_night",
    "thumbnail",
    "start_night",
    "undo_heist",
    "close_night",
    "forget_seats",
]


def with_night(
    state: AppState, services: Services, status: NightStatus, fresh_table: bool = False
) -> AppState:
    night = status.night
    table = state.table
    if fresh_table:
        rules, two_rivers = house_rules_from_json(night.rules)
        table = ShowdownState(
            night.players,
            variant=night.variant,
            rules=rules,
            two_rivers=two_rivers,
            edition=table.edition + 1,
        )
    heists = services.log.heists(night.id)
    return replace(
        state,
        night=status,
        heists=heists,
        table=table,
        night_cribbage=services.log.cribbage_games(night.id),
        thumbnails=_thumbnails(services, heists, dict(state.thumbnails)),
    )


THUMB_WIDTH = 240


def thumbnail(data: bytes) -> bytes | None:
    """A small JPEG of a stored photo, or None when it no longer decodes."""
    try:
        image = decode_upload(data)
    except ImageDecodeError:
        return None
    h, w = image.shape[:2]
    scale = min(1.0, THUMB_WIDTH / w)
    small = cv2.resize(
        image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA
    )
    ok, encoded = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 70])
    return encoded.tobytes() if ok else None


def _thumbnails(
    services: Services, heists: tuple[Heist, ...], known: dict[str, bytes]
) -> tuple[tuple[str, bytes], ...]:
    refs = dict.fromkeys(h.photo for h in heists if h.photo)
    result = []
    for ref in refs:
        if ref not in known:
            small = thumbnail(services.log.photo_path(ref).read_bytes())
            if small is None:
                continue
            known[ref] = small
        result.append((ref, known[ref]))
    return tuple(result)


def start_night(state: AppState, services: Services) -> AppState:
    table = state.table
    rules = house_rules_to_json(table.rules, table.two_rivers)
    night = services.log.start_night(table.players, table.variant, rules=rules)
    return with_night(state, services, services.log.night_status(night.id))


def undo_heist(state: AppState, services: Services) -> AppState:
    if state.night is None:
        return state.with_banner(Banner.of("no_night"))
    heist = services.log.undo_last_heist(state.night.night.id)
    state = with_night(state, services, services.log.night_status(heist.night_id))
    return refresh_history(state.with_banner(Banner.of("undone", n=heist.number)), services)


def close_night(state: AppState, services: Services) -> AppState:
    if state.night is None:
        return state
    if not state.night.finished:
        services.log.close_night(state.night.night.id)
    closed = replace(state, night=None, heists=(), night_cribbage=(), thumbnails=())
    return refresh_history(closed, services)


def forget_seats(state: AppState, services: Services) -> AppState:
    """The night's seats let go: its next photo asks again which hand is whose."""
    if state.night is None:
        return state
    status = services.log.save_seats(state.night.night.id, {})
    return replace(state, night=status).with_banner(Banner.of("seat.forgotten"))
