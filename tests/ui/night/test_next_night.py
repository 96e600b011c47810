"""A decided night says so on the Showdown screen where "Save the heist" was, with one tap that
starts the group's next night (its players and seats carried) and saves the heist there."""

from __future__ import annotations

import pytest

from companion.storage import Outcome
from companion.ui.kit.services import Services
from companion.ui.night.actions import close_night, start_night
from companion.ui.shell.dispatch import run
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import save_heist, save_in_next_night
from companion.ui.showdown.state import RIVER, ShowdownState
from tests.ui.screens import find, shown

PLAYERS = ("Ana", "Bob", "Cy", "Dan")


def judged(state: AppState, opens: bool) -> AppState:
    """Dan sits out; Ana, Bob and Cy's hands, the tokens right (or Bob's and Cy's swapped)."""
    table = ShowdownState(PLAYERS).sit_out("Dan").with_cards_text(RIVER, "As Kd Qh 7c 2s")
    for seat, text in enumerate(("Ah Ad", "Th 9h", "3c 2c")):
        table = table.with_cards_text(seat, text)
    for hand in ("Bob", "Cy", "Ana") if opens else ("Cy", "Bob", "Ana"):
        table = table.tap_hand(hand)
    return state.with_table(table)


def decided(services: Services, opens: bool) -> AppState:
    state = run(start_night, AppState(lang="en", table=ShowdownState(PLAYERS)), services)
    seats = {"Ana": 90.0, "Bob": 180.0, "Cy": 270.0, "Dan": 0.0}
    state = state.with_night_status(services.log.save_seats(state.night.night.id, seats))  # type: ignore[union-attr]
    for _ in range(3):
        state = run(save_heist, judged(state, opens), services)
    return judged(state, opens)


@pytest.mark.parametrize(
    ("opens", "said"), [(True, "is won (3 vaults)"), (False, "is lost (3 alarms)")]
)
def test_a_decided_night_says_so_where_save_was_and_one_tap_saves_in_the_next(
    services: Services, opens: bool, said: str
) -> None:
    state = decided(services, opens)
    assert state.night is not None and state.night.outcome is (
        Outcome.WON if opens else Outcome.LOST
    )
    ended = state.night.night
    view = root_view(state, lambda action: None)
    words = list(shown(find(view, "night-over")))
    assert words[0] == f"Night #{ended.id} {said}: this heist goes to the group's next night."
    assert "Start the next night and save" in words and "Save the heist" not in list(shown(view))

    after = run(save_in_next_night, state, services)
    night = after.night
    assert night is not None and night.night.id != ended.id and not night.finished
    assert night.night.players == PLAYERS and dict(night.night.seats) == dict(ended.seats)
    assert (night.vaults, night.alarms) == ((1, 0) if opens else (0, 1))
    (heist,) = after.heists
    assert set(heist.owners) == {"Ana", "Bob", "Cy"}  # Dan sat this one out
    assert after.banner is not None and after.banner.text("en") == (
        f"Night #{night.night.id} started (Ana, Bob, Cy, Dan); heist #1 saved in it."
    )
    assert after.table.river == () and after.table.everyone() == PLAYERS
    # The old night is untouched: three results, as it ended.
    old = services.log.night_status(ended.id)
    assert old.heists == 3 and old.outcome is ended.outcome


def test_a_closed_night_offers_the_next_one_too(services: Services) -> None:
    state = run(start_night, AppState(lang="en", table=ShowdownState(PLAYERS)), services)
    assert state.night is not None
    # Closed on another phone: this one still shows the night, now over.
    services.log.close_night(state.night.night.id)
    state = judged(state.with_night_status(services.log.night_status(state.night.night.id)), True)
    words = list(shown(find(root_view(state, lambda action: None), "night-over")))
    assert words[0].endswith("is closed: this heist goes to the group's next night.")
    after = run(save_in_next_night, state, services)
    assert after.night is not None and after.night.vaults == 1
    assert run(close_night, after, services).night is None
