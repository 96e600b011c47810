"""The Spit screen's Speed (issue #43): the deal chosen said in words, and the match's tally to a
target score, built from state and used as taps would, in both languages."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import flet as ft
import pytest

from companion.ui.kit.services import Services
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from tests.ui.screens import Session, find, texts


@pytest.fixture
def session(services: Services) -> Session:
    return Session(AppState(screen="spit", lang="en"), services)


def _choose(session: Session, variant: str) -> None:
    find(session.view(), "spit-variant").on_select(
        SimpleNamespace(control=SimpleNamespace(value=variant))
    )


def _won(session: Session, player: int, points: str) -> None:
    page = session.view()
    find(page, "spit-tally-points").value = points
    control = find(page, f"spit-tally-won-{player}")
    control.on_click(SimpleNamespace(control=control))


def test_the_speed_deals_are_said_and_the_tally_only_shows_for_speed(session: Session) -> None:
    with pytest.raises(LookupError):
        find(session.view(), "spit-tally")
    _choose(session, "speed")
    assert find(session.view(), "spit-speed-deal").value == (
        "Speed's deal: 15 cards each (5 in hand, 10 to draw), two side piles of 10 with a centre"
        " card on each."
    )
    _choose(session, "speed-20")
    assert "20 cards each (5 in hand, 15 to draw), two side piles of 5" in (
        find(session.view(), "spit-speed-deal").value
    )
    french = root(session, "fr")
    assert "20 cartes chacun" in find(french, "spit-speed-deal").value


def root(session: Session, lang: str) -> ft.Control:
    return root_view(replace(session.state, lang=lang), lambda action: None)


def test_games_add_up_to_the_target(session: Session) -> None:
    _choose(session, "speed")
    session.submit("spit-tally-target", "20")
    _won(session, 1, "12")
    _won(session, 2, "4")
    page = session.view()
    assert find(page, "spit-tally-totals").value == "Player 1: 12 — Player 2: 4 (target 20)"
    assert [find(page, f"spit-tally-game-{i}").value for i in (1, 2)] == [
        "Game 1: player 1 +12",
        "Game 2: player 2 +4",
    ]
    session.tap("spit-new")  # a new table: the match goes on
    _won(session, 1, "9")
    champion = texts(find(session.view(), "spit-tally-champion"))
    assert champion == ["Player 1 wins the match, 21 to 4"]
    assert texts(find(root(session, "fr"), "spit-tally-champion")) == [
        "Le joueur 1 gagne la partie, 21 à 4"
    ]
    with pytest.raises(LookupError):  # no more games once the match is won
        find(session.view(), "spit-tally-won-1")
    session.tap("spit-tally-undo")
    assert session.state.spit.tally.totals == (12, 4)
    session.tap("spit-tally-new")
    assert session.state.spit.tally.games == () and session.state.spit.tally.target == 20


@pytest.mark.parametrize(
    ("points", "said"),
    [
        ("16", "the loser cannot hold 16 cards: from 1 to 15"),
        ("0", "the loser cannot hold 0 cards"),
        ("lots", "'lots' is not a number of cards"),
    ],
)
def test_a_wrong_count_is_said_and_changes_nothing(
    session: Session, points: str, said: str
) -> None:
    _choose(session, "speed")
    _won(session, 2, points)
    assert session.state.spit.tally.games == ()
    banner = session.state.banner
    assert banner is not None and said in banner.text("en")
