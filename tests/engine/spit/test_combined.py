"""Spit's variations played together (issue #43): four stocks, alternating colours, the emptier
choosing a pile, Speed with alternating colours."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.engine.cards import DECK, parse_card
from companion.engine.spit import (
    CLASSIC,
    VARIANTS,
    PileChoice,
    combined,
    rules_title,
    speed_points,
    start_state,
)
from companion.engine.spit.referee import CardPlay, PileView, referee, typed_position
from companion.engine.spit.sim import simulate
from companion.errors import TableError
from companion.messages import render


def test_switches_add_up_in_one_order() -> None:
    rules = combined("chooser+alternate+four-stocks")
    assert rules.name == "four-stocks+alternate+chooser"
    assert (rules.stock_piles, rules.alternate_colours, rules.pile_choice) == (
        4,
        True,
        PileChoice.CHOOSER,
    )
    assert combined("alternate+speed").speed and combined("alternate+speed").alternate_colours
    assert combined("classic") == CLASSIC and combined("four-stocks") == VARIANTS["four-stocks"]


@pytest.mark.parametrize(
    ("names", "words"),
    [
        ("speed+four-stocks", "four stocks and Speed cannot be played together"),
        ("chooser+speed", "emptier chooses a pile and Speed cannot be played together"),
        ("four-stocks+slap", "unknown Spit variation 'slap'"),
    ],
)
def test_combinations_that_cannot_be_played_are_named(names: str, words: str) -> None:
    with pytest.raises(TableError) as info:
        combined(names)
    assert str(info.value).startswith(words)
    assert info.value.message("fr")


def test_the_referee_applies_every_switch() -> None:
    rules = combined("four-stocks+alternate")
    views = tuple(PileView(parse_card(c)) for c in ("8d", "2s"))
    state = typed_position(
        rules,
        piles=(PileView(parse_card("7h")), PileView(parse_card("Kc"))),
        stocks=(views, (PileView(parse_card("Qh")),)),
        spit_left=(0, 0),
    )
    ruling = referee(state, CardPlay(0, parse_card("8d"), 0))
    assert ruling.verdict is not None and ruling.verdict.error is not None
    assert ruling.verdict.error.rule == "same_colour"
    five = tuple(PileView(parse_card(c)) for c in ("8d", "2s", "9c", "3c", "4c"))
    with pytest.raises(TableError) as info:
        typed_position(
            rules, piles=(PileView(None), PileView(None)), stocks=(five, ()), spit_left=(0, 0)
        )
    assert "four stocks and alternate colours" in str(info.value)
    assert render(rules_title(rules), "fr") == "quatre réserves et couleurs alternées"


@pytest.mark.parametrize("names", ["four-stocks+alternate+chooser", "alternate+speed"])
def test_combined_games_keep_every_invariant(names: str) -> None:
    report = simulate(combined(names), 40, random.Random(7), 5000)
    assert report.failures == () and sum(report.wins) == report.games


def test_speed_scores_a_point_per_card_the_loser_holds() -> None:
    """Spit, "Vitesse": the winner gets a point for each card left to the other player."""
    start = start_state(VARIANTS["speed"], DECK)
    assert speed_points(start) == (0, 0)  # not over yet
    assert speed_points(replace(start, winner=1)) == (0, 15)  # 5 in hand and 10 to draw
    played = replace(
        start, winner=0, players=(start.players[0], replace(start.players[1], spit=()))
    )
    assert speed_points(played) == (5, 0)
    assert speed_points(replace(start_state(CLASSIC, DECK), winner=0)) == (0, 0)  # Speed only


def test_simulate_adds_up_the_speed_points() -> None:
    report = simulate(VARIANTS["speed-20"], 30, random.Random(2), 5000)
    assert report.failures == () and sum(report.points) > 0
    assert simulate(CLASSIC, 3, random.Random(2), 5000).points == (0, 0)
