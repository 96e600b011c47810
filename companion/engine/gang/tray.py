"""The chip tray of The Gang: who may take, return or give which rank chip, street by street.

Each street has its own colour (white, yellow, orange, red) and chips 1..N, one per seat (a seat
is a hand id: a player with two hands holds two chips). Only the current street's chips move.

- base: take a chip from the centre or from another seat, or put yours back; one chip per colour.
- lsd: a chip once taken can neither be put back nor taken from its holder.
- kcarc: only put your chip back, or take one from the centre and give it to another seat.

Kept, and not yet on a screen: the house rules LSD and Kcarc are part of the game our users
play, and the app is to record tokens street by street through this tray (for the replay's
per-street mistakes), refusing a move with the rule's words.

>>> tray = new_tray(("Ana", "Bob"))
>>> tray = apply_move(tray, Take("Ana", 2))
>>> tray.holder_of(2)
'Ana'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from companion.errors import IllegalMoveError

__all__ = [
    "Street",
    "TokenRule",
    "Take",
    "Return",
    "Give",
    "Move",
    "ChipTray",
    "new_tray",
    "check_move",
    "apply_move",
    "legal_moves",
    "next_street",
]


class Street(Enum):
    PREFLOP = "preflop"  # white chips
    FLOP = "flop"  # yellow
    TURN = "turn"  # orange
    RIVER = "river"  # red


class TokenRule(Enum):
    BASE = "base"
    LSD = "lsd"
    KCARC = "kcarc"


@dataclass(frozen=True)
class Take:
    """``seat`` takes chip ``number`` from the centre, or from seat ``source``."""

    seat: str
    number: int
    source: str | None = None


@dataclass(frozen=True)
class Return:
    """``seat`` puts its chip back in the centre."""

    seat: str


@dataclass(frozen=True)
class Give:
    """Kcarc: ``seat`` takes chip ``number`` from the centre and gives it to ``to``."""

    seat: str
    number: int
    to: str


Move = Take | Return | Give


@dataclass(frozen=True)
class ChipTray:
    seats: tuple[str, ...]
    rule: TokenRule = TokenRule.BASE
    street: Street = Street.PREFLOP
    held: tuple[int | None, ...] = ()  # chip per seat on the current street
    past: tuple[tuple[Street, tuple[int, ...]], ...] = ()  # finished streets' chips per seat

    @property
    def centre(self) -> frozenset[int]:
        return frozenset(range(1, len(self.seats) + 1)) - {c for c in self.held if c is not None}

    def chip_of(self, seat: str) -> int | None:
        return self.held[self._index(seat)]

    def holder_of(self, number: int) -> str | None:
        for seat, chip in zip(self.seats, self.held, strict=True):
            if chip == number:
                return seat
        return None

    def _index(self, seat: str) -> int:
        try:
            return self.seats.index(seat)
        except ValueError:
            raise IllegalMoveError("tray", "unknown_seat", seat=seat) from None


def new_tray(seats: tuple[str, ...], rule: TokenRule = TokenRule.BASE) -> ChipTray:
    """A pre-flop tray with every chip in the centre."""
    if len(set(seats)) != len(seats) or not seats:
        raise ValueError("seats must be distinct and not empty")
    return ChipTray(seats, rule, Street.PREFLOP, (None,) * len(seats))


def _check_number(tray: ChipTray, number: int) -> None:
    if not 1 <= number <= len(tray.seats):
        raise IllegalMoveError("tray", "no_such_chip", number=number, n=len(tray.seats))


def _check_empty_handed(tray: ChipTray, seat: str) -> None:
    chip = tray.chip_of(seat)
    if chip is not None:
        raise IllegalMoveError("tray", "one_chip_per_colour", seat=seat, chip=chip)


def _check_take(tray: ChipTray, move: Take) -> None:
    if tray.rule is TokenRule.KCARC:
        raise IllegalMoveError("tray", "kcarc_no_take")
    _check_number(tray, move.number)
    _check_empty_handed(tray, move.seat)
    holder = tray.holder_of(move.number)
    if move.source is None:
        if holder is not None:
            raise IllegalMoveError("tray", "chip_not_in_centre", number=move.number, holder=holder)
        return
    tray.chip_of(move.source)  # names an unknown seat
    if holder != move.source:
        raise IllegalMoveError("tray", "chip_not_held", source=move.source, number=move.number)
    if tray.rule is TokenRule.LSD:
        raise IllegalMoveError("tray", "lsd_chip_locked", number=move.number)


def check_move(tray: ChipTray, move: Move) -> None:
    """Raise ``IllegalMoveError`` naming the rule the move breaks; return if it is legal."""
    tray.chip_of(move.seat)
    if isinstance(move, Take):
        _check_take(tray, move)
    elif isinstance(move, Return):
        if tray.chip_of(move.seat) is None:
            raise IllegalMoveError("tray", "nothing_to_return", seat=move.seat)
        if tray.rule is TokenRule.LSD:
            raise IllegalMoveError("tray", "lsd_no_return")
    else:
        if tray.rule is not TokenRule.KCARC:
            raise IllegalMoveError("tray", "give_is_kcarc")
        if move.to == move.seat:
            raise IllegalMoveError("tray", "kcarc_give_to_other")
        _check_number(tray, move.number)
        _check_empty_handed(tray, move.to)
        if tray.holder_of(move.number) is not None:
            raise IllegalMoveError(
                "tray", "chip_not_in_centre", words="tray.chip_not_free", number=move.number
            )


def _set(tray: ChipTray, seat: str, chip: int | None) -> tuple[int | None, ...]:
    held = list(tray.held)
    held[tray.seats.index(seat)] = chip
    return tuple(held)


def apply_move(tray: ChipTray, move: Move) -> ChipTray:
    """The tray after a legal move (checked first)."""
    check_move(tray, move)
    if isinstance(move, Return):
        return replace(tray, held=_set(tray, move.seat, None))
    if isinstance(move, Give):
        return replace(tray, held=_set(tray, move.to, move.number))
    held = tray.held
    if move.source is not None:
        held = _set(replace(tray, held=held), move.source, None)
    held = _set(replace(tray, held=held), move.seat, move.number)
    return replace(tray, held=held)


def legal_moves(tray: ChipTray, seat: str) -> list[Move]:
    """Every legal move of ``seat`` now."""
    numbers = range(1, len(tray.seats) + 1)
    candidates: list[Move] = [Return(seat)]
    candidates += [Take(seat, n) for n in numbers]
    candidates += [Take(seat, n, s) for n in numbers for s in tray.seats if s != seat]
    candidates += [Give(seat, n, s) for n in numbers for s in tray.seats if s != seat]
    legal = []
    for move in candidates:
        try:
            check_move(tray, move)
        except IllegalMoveError:
            continue
        legal.append(move)
    return legal


def next_street(tray: ChipTray) -> ChipTray:
    """Close the street once every seat holds a chip, and start the next colour."""
    missing = [s for s, c in zip(tray.seats, tray.held, strict=True) if c is None]
    if missing:
        raise IllegalMoveError("tray", "street_not_done", seats=tuple(missing))
    streets = list(Street)
    if tray.street is Street.RIVER:
        raise IllegalMoveError("tray", "no_street_after_river")
    chips = tuple(c for c in tray.held if c is not None)
    return replace(
        tray,
        street=streets[streets.index(tray.street) + 1],
        held=(None,) * len(tray.seats),
        past=(*tray.past, (tray.street, chips)),
    )
