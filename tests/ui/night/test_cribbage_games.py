"""The game-night screen's cribbage section: the night's games from a real game log."""

from __future__ import annotations

import pytest

from companion.storage import CribbageGame
from companion.ui.cribbage.state import CribBoard
from companion.ui.kit.services import Services
from companion.ui.night.actions import start_night
from companion.ui.shell.dispatch import run
from companion.ui.shell.navigation import open_screen
from companion.ui.shell.state import AppState
from companion.ui.showdown.state import ShowdownState
from tests.ui.screens import Session, board, find, texts

# Ana pegs out at 121 while Bob has 98.
WON = board(*[(0, "show", 24)] * 5, *[(1, "show", 24)] * 4, (1, "peg", 2), (0, "peg", 1))
PLAYING = board((0, "show", 10), (1, "peg", 4))


def _save(
    services: Services,
    b: CribBoard,
    night_id: int | None,
    players: tuple[str, str] = ("Ana", "Bob"),
) -> CribbageGame:
    return services.log.save_cribbage_game(
        players, b.to_json(), night_id=night_id, finished=b.winner() is not None
    )


def _night(services: Services, lang: str) -> tuple[Session, int]:
    state = AppState(lang=lang, table=ShowdownState(("Ana", "Bob", "Cy")))
    state = run(start_night, state, services)
    assert state.night is not None
    return Session(state, services), state.night.night.id


def _section(session: Session) -> list[str]:
    session.dispatch(open_screen("night"))  # reads the night's games again
    return texts(find(session.view(), "night-cribbage"))


def test_board_fixtures_score_as_described() -> None:
    assert (WON.scores(), WON.winner()) == ((121, 98), 0)
    assert (PLAYING.scores(), PLAYING.winner()) == ((10, 4), None)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["Cribbage", "Ana 10 – Cy 4", "in progress", "Ana 121 – Bob 98", "Ana won"]),
        ("fr", ["Cribbage", "Ana 10 – Cy 4", "en cours", "Ana 121 – Bob 98", "Ana a gagné"]),
    ],
)
def test_the_night_lists_its_cribbage_games_only(
    services: Services, lang: str, expected: list[str]
) -> None:
    session, night_id = _night(services, lang)
    _save(services, WON, night_id)
    _save(services, board((1, "peg", 2)), None, ("Eve", "Fay"))  # no night open
    other = services.log.start_night(("Dee", "Gus"), "classic").id
    _save(services, board((0, "peg", 2)), other, ("Dee", "Gus"))
    _save(services, PLAYING, night_id, ("Ana", "Cy"))
    shown = _section(session)
    assert shown == expected  # the latest game first
    assert not any(name in line for line in shown for name in ("Eve", "Dee"))


@pytest.mark.parametrize(
    ("lang", "empty"),
    [("en", "No cribbage game tonight."), ("fr", "Aucune partie de cribbage ce soir.")],
)
def test_a_night_without_cribbage_says_so(services: Services, lang: str, empty: str) -> None:
    session, _ = _night(services, lang)
    assert _section(session) == ["Cribbage", empty]


def test_tapping_an_unfinished_game_resumes_it_on_the_cribbage_screen(
    services: Services,
) -> None:
    session, night_id = _night(services, "en")
    won = _save(services, WON, night_id)
    playing = _save(services, PLAYING, night_id, ("Ana", "Cy"))
    _section(session)
    with pytest.raises(LookupError):  # a finished game has nothing to resume
        find(session.view(), f"crib-resume-{won.id}")
    session.tap(f"crib-resume-{playing.id}")
    assert session.state.screen == "cribbage"
    resumed = session.state.cribbage.board
    assert (resumed.game_id, resumed.players, resumed.scores()) == (
        playing.id,
        ("Ana", "Cy"),
        (10, 4),
    )
    assert "Ana: 10" in texts(session.view())


def test_closing_the_night_clears_its_cribbage_games(services: Services) -> None:
    session, night_id = _night(services, "en")
    _save(services, PLAYING, night_id)
    _section(session)
    assert session.state.night_cribbage
    session.tap("close-night")
    session.tap("close-night-yes")
    assert session.state.night is None and session.state.night_cribbage == ()
