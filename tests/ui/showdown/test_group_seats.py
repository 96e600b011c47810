"""Seats follow the group: kept after its night ends and carried to its next night (said on
the banner, shown on the night's screen); a photo whose hands do not fit the seats says so and
asks who is whose. On a real game log, with the real reader on a rendered scene."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.ui.kit.services import LazyDetector, Services
from companion.ui.night.actions import close_night, start_night
from companion.ui.shell.dispatch import run
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import load_photo, save_seats
from companion.ui.showdown.doubts import doubts
from companion.ui.showdown.state import ShowdownState
from tests.ui.screens import shown
from tests.ui.showdown import photos

PLAYERS = ("Ana", "Bob", "Chloé", "Dan")
BY_SEAT = {p: tuple(sorted(h)) for p, h in zip(PLAYERS, photos.CLOCKWISE, strict=True)}


@pytest.fixture
def reading(services: Services) -> Services:
    return replace(services, detector=LazyDetector())


def hands_of(state: AppState) -> dict[str, tuple[str, ...]]:
    return {
        name: tuple(sorted(str(c) for c in held))
        for name, held in zip(state.table.players, state.table.hands, strict=True)
    }


def seated_night(services: Services, players: tuple[str, ...] = PLAYERS) -> AppState:
    """A night whose first photo told the seats (as the reader lists the hands)."""
    state = run(start_night, AppState(lang="en", table=ShowdownState(players)), services)
    state = run(load_photo(photos.jpeg(photos.scene())), state, services)
    return run(save_seats, state, services)


def test_the_groups_next_night_starts_with_its_seats(reading: Services) -> None:
    first = seated_night(reading)
    seats = dict(first.night.night.seats)  # type: ignore[union-attr]
    ended = run(close_night, first, reading)
    # The same group, named in another order and case: the seats come with it, said.
    again = AppState(lang="en", table=ShowdownState(("dan", "Chloé", "ana", "Bob")))
    state = run(start_night, replace(again, history=ended.history), reading)
    assert state.night is not None and state.night.night.id != first.night.night.id  # type: ignore[union-attr]
    assert {k.casefold(): v for k, v in state.night.night.seats.items()} == {
        k.casefold(): v for k, v in seats.items()
    }
    assert state.banner is not None and state.banner.key == "seat.carried"
    assert f"Seats as at night #{first.night.night.id}" in state.banner.text("en")  # type: ignore[union-attr]
    assert any(
        w.startswith("Seated clockwise:") for w in shown(root_view(state.go("night"), print))
    )
    # Its first photo, taken turned: hands by seat, nothing asked.
    state = run(load_photo(photos.jpeg(photos.turned(photos.scene(), -30))), state, reading)
    assert not state.table.seating and state.banner is not None
    assert state.banner.key == "seat.followed"
    assert {k.casefold(): v for k, v in hands_of(state).items()} == {
        k.casefold(): v for k, v in BY_SEAT.items()
    }


def test_another_group_starts_unseated(reading: Services) -> None:
    run(close_night, seated_night(reading), reading)
    other = run(
        start_night, AppState(lang="en", table=ShowdownState(("Ana", "Bob", "Eve"))), reading
    )
    assert other.night is not None and dict(other.night.night.seats) == {}
    assert other.banner is None or other.banner.key != "seat.carried"


def test_after_a_night_ends_the_next_photo_still_goes_by_seat(reading: Services) -> None:
    state = seated_night(reading)
    ended = state.night
    assert ended is not None
    finished = replace(ended, night=replace(ended.night, outcome=ended.night.outcome.WON))
    state = replace(state, night=finished)
    state = run(load_photo(photos.jpeg(photos.turned(photos.scene(), -30))), state, reading)
    assert hands_of(state) == BY_SEAT


def test_hands_that_do_not_fit_the_seats_are_said_and_asked(reading: Services) -> None:
    four = dict(run(close_night, seated_night(reading), reading).history[0].night.seats)
    # Three seated players, and a photo with four hands: one hand has no seat.
    three = ("Bob", "Chloé", "Dan")
    state = run(start_night, AppState(lang="en", table=ShowdownState(three)), reading)
    status = reading.log.save_seats(
        state.night.night.id,  # type: ignore[union-attr]
        {name: four[name] for name in three},
    )
    state = replace(state, night=status)
    state = run(load_photo(photos.jpeg(photos.scene())), state, reading)
    assert state.banner is not None and state.banner.key == "seat.misfit"
    assert state.table.seating and dict(state.night.night.seats) == dict(status.night.seats)  # type: ignore[union-attr]
    words = list(shown(root_view(state, print)))
    assert "For this heist only" in words and "Keep as the night's seats" in words
    assert "Keep these seats" not in words
    # This heist only: the question closes (the tokens come), the night's seats stay.
    once = state.with_table(state.table.with_seating(False))
    assert not any(d.key == "seats" for d in doubts(once.table))
    assert dict(reading.log.night_status(status.night.id).night.seats) == dict(status.night.seats)
    # Kept as the night's seats only when asked.
    kept = run(save_seats, state, reading)
    assert dict(kept.night.night.seats) != dict(status.night.seats)  # type: ignore[union-attr]
