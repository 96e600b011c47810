"""Who sits where: each hand's angle around the river's centre, and hands given by seat.

A night's seats are the angles of its players' hands on the photo where the players said
which hand is whose; a later photo's hands go to the players whose seats are nearest, whatever
order the reader found them in. Angles are degrees in [0, 360), clockwise on the photo from
the river's right (image y points down).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from companion.ui.kit.photo.read import Point

__all__ = ["angle", "mean_point", "assign_hands", "gap", "from_bottom", "turned_seats"]

# The photo's bottom edge: the photographer's side of the table, where a first guess starts.
_BOTTOM = 90.0

# A seated player left without a hand costs more than any seat-to-hand distance (at most 180),
# so every hand that can go to a seat does.
_NO_HAND = 360.0


def mean_point(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def angle(centre: Point, point: Point) -> float:
    """Degrees of ``point`` around ``centre``, in [0, 360)."""
    return math.degrees(math.atan2(point[1] - centre[1], point[0] - centre[0])) % 360.0


def gap(a: float, b: float) -> float:
    """The angle between two directions, in [0, 180]."""
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _nearest_seats(hands: Sequence[float], seats: Sequence[float]) -> list[int | None]:
    """For each seat, the hand it takes (None: none), least total angle first: an exact
    assignment over subsets of hands (at most a dozen hands: 4096 subsets)."""
    n = len(hands)
    best: dict[int, tuple[float, tuple[int | None, ...]]] = {0: (0.0, ())}
    for seat in seats:
        step: dict[int, tuple[float, tuple[int | None, ...]]] = {}
        for used, (cost, picks) in best.items():
            options = [(cost + _NO_HAND, used, None)] + [
                (cost + gap(seat, hands[h]), used | 1 << h, h)
                for h in range(n)
                if not used >> h & 1
            ]
            for total, mask, hand in options:
                if mask not in step or total < step[mask][0]:
                    step[mask] = (total, (*picks, hand))
        best = step
    return list(min(best.values(), key=lambda v: v[0])[1]) if seats else []


def assign_hands(
    hands: Sequence[float], players: Sequence[str], seats: Mapping[str, float]
) -> tuple[int | None, ...]:
    """For each player, the index of the hand (by angle ``hands``) given to them, or None.

    Seated players take the hands nearest their seats; players not seated yet take the hands
    left, in the order given; hands past that stay unassigned.
    """
    seated = [p for p in players if p in seats]
    picks = dict(zip(seated, _nearest_seats(hands, [seats[p] for p in seated]), strict=True))
    left = iter(h for h in range(len(hands)) if h not in picks.values())
    return tuple(picks[p] if p in picks else next(left, None) for p in players)


def from_bottom(hands: Sequence[float]) -> list[int]:
    """The hands (indices into ``hands``, by angle) clockwise, from the one nearest the
    photo's bottom edge."""
    return sorted(range(len(hands)), key=lambda h: (hands[h] - _BOTTOM) % 360.0)


def turned_seats(
    hands: Mapping[int, float], place: int, name: str, clockwise: Sequence[str]
) -> dict[int, str]:
    """Whose each hand is (place -> name) once ``name`` said the hand at ``place`` is theirs:
    the other hands follow clockwise on the photo, in the players' seat order ``clockwise``.

    ``hands`` gives each hand's angle by its place; hands past the players stay unnamed.
    """
    around = sorted(hands, key=lambda p: hands[p])
    if place not in around or name not in clockwise:
        return {}
    first, start = around.index(place), list(clockwise).index(name)
    steps = min(len(around), len(clockwise))
    return {
        around[(first + m) % len(around)]: clockwise[(start + m) % len(clockwise)]
        for m in range(steps)
    }
