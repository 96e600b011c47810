"""The Game night screen's actions: start, undo the last heist, close; the night's photos."""

from __future__ import annotations

import cv2

from companion.errors import ImageDecodeError
from companion.storage import GameLog, Heist, Night, NightStatus
from companion.ui.kit.banner import Banner
from companion.ui.kit.services import Services, decode_upload
from companion.ui.night.host import H, NightLog

__all__ = [
    "with_night",
    "thumbnail",
    "start_night",
    "next_night",
    "undo_heist",
    "close_night",
    "forget_seats",
]


def with_night(state: H, services: Services, status: NightStatus, fresh_table: bool = False) -> H:
    """The night shown as the log has it; a ``fresh_table`` takes the night's players and rules."""
    night = status.night
    heists = services.log.heists(night.id)
    log = NightLog(
        status,
        heists,
        services.log.cribbage_games(night.id),
        _thumbnails(services, heists, dict(state.thumbnails)),
    )
    return state.with_night_log(log, fresh_table)


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


def _group_seats(log: GameLog, night: Night) -> Night | None:
    """The group's latest other night that kept its seats, if any."""
    return next(
        (
            s.night
            for s in log.list_nights()
            if s.night.id != night.id and s.night.group == night.group and s.night.seats
        ),
        None,
    )


def start_night(state: H, services: Services) -> H:
    """A new night; the group's seats of its last night carry over, said on the banner (the
    night's screen shows them with a way to ask them again)."""
    return _started(state, services, state.table_setup().players)


def next_night(state: H, services: Services) -> H:
    """The group's next night, once its night is won, lost or closed: the same players (those
    sitting a heist out too), the table's variant and rules, the group's seats carried."""
    ended = state.night
    players = ended.night.players if ended is not None else state.table_setup().players
    return _started(state, services, players)


def _started(state: H, services: Services, players: tuple[str, ...]) -> H:
    """A night of ``players`` started with the table's variant and rules, shown; the seats of
    the group's last night kept, said on the banner."""
    table = state.table_setup()
    night = services.log.start_night(players, table.variant, rules=table.rules)
    before = _group_seats(services.log, night)
    if before is None:
        return with_night(state, services, services.log.night_status(night.id))
    status = services.log.save_seats(night.id, dict(before.seats))
    seats = status.night.seats
    names = ", ".join(sorted(seats, key=lambda name: seats[name]))
    carried = Banner.of("seat.carried", night=before.id, names=names)
    return with_night(state, services, status).with_banner(carried)


def undo_heist(state: H, services: Services) -> H:
    if state.night is None:
        return state.with_banner(Banner.of("no_night"))
    heist = services.log.undo_last_heist(state.night.night.id)
    state = with_night(state, services, services.log.night_status(heist.night_id))
    return state.with_banner(Banner.of("undone", n=heist.number)).with_history_of(services.log)


def close_night(state: H, services: Services) -> H:
    if state.night is None:
        return state
    if not state.night.finished:
        services.log.close_night(state.night.night.id)
    return state.without_night().with_history_of(services.log)


def forget_seats(state: H, services: Services) -> H:
    """The night's seats let go: its next photo asks again which hand is whose."""
    if state.night is None:
        return state
    status = services.log.save_seats(state.night.night.id, {})
    return state.with_night_status(status).with_banner(Banner.of("seat.forgotten"))
