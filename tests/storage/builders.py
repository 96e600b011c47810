"""Tiny builders for the storage tests."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from companion.storage import HeistDraft, Verdict

START = datetime(2026, 11, 1, 19, 0, tzinfo=UTC)


def ticking_clock(
    start: datetime = START, step: timedelta = timedelta(minutes=1)
) -> Callable[[], datetime]:
    """A clock that moves ``step`` forward at each call, so every record has its own time."""
    now = [start - step]

    def clock() -> datetime:
        now[0] += step
        return now[0]

    return clock


def heist(opens: bool, photo: str | None = None, board2: bool = False) -> HeistDraft:
    """A three-hand heist owned by Ann, Bob and Cy; ``opens`` is the vault's verdict."""
    failures = (
        () if opens else ({"rule": "order", "hand": "h2", "detail": "token 2 beats token 3"},)
    )
    return HeistDraft(
        river=("As", "Kd", "Qh", "7c", "2s"),
        board2=("3d", "4d", "5d", "Jc", "Jh") if board2 else None,
        hands={"h1": ("Ah", "Ad"), "h2": ("10h", "9h"), "h3": ("*", "2c")},
        owners={"h1": "Ann", "h2": "Bob", "h3": "Cy"},
        tokens={"h1": 3, "h2": 1, "h3": 2},
        verdict=Verdict(opens, failures),
        photo=photo,
    )
