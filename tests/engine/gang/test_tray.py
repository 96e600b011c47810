from __future__ import annotations

import pytest

from companion.engine.gang.tray import (
    Give,
    Move,
    Return,
    Street,
    Take,
    TokenRule,
    apply_move,
    legal_moves,
    new_tray,
    next_street,
)
from companion.errors import IllegalMoveError

SEATS = ("Ana", "Bob", "Cy")


def play(rule: TokenRule, *moves: Move):  # type: ignore[no-untyped-def]
    tray = new_tray(SEATS, rule)
    for move in moves:
        tray = apply_move(tray, move)
    return tray


@pytest.mark.parametrize(
    ("rule", "moves", "broken"),
    [
        (TokenRule.BASE, [Take("Ana", 1), Take("Ana", 2)], "one_chip_per_colour"),
        (TokenRule.BASE, [Take("Ana", 1), Take("Bob", 1)], "chip_not_in_centre"),
        (TokenRule.BASE, [Take("Ana", 1), Take("Bob", 2, "Ana")], "chip_not_held"),
        (TokenRule.BASE, [Return("Ana")], "nothing_to_return"),
        (TokenRule.BASE, [Take("Ana", 4)], "no_such_chip"),
        (TokenRule.BASE, [Take("Zed", 1)], "unknown_seat"),
        (TokenRule.BASE, [Give("Ana", 1, "Bob")], "give_is_kcarc"),
        (TokenRule.LSD, [Take("Ana", 1), Return("Ana")], "lsd_no_return"),
        (TokenRule.LSD, [Take("Ana", 1), Take("Bob", 1, "Ana")], "lsd_chip_locked"),
        (TokenRule.KCARC, [Take("Ana", 1)], "kcarc_no_take"),
        (TokenRule.KCARC, [Give("Ana", 1, "Ana")], "kcarc_give_to_other"),
        (TokenRule.KCARC, [Give("Ana", 1, "Bob"), Give("Cy", 2, "Bob")], "one_chip_per_colour"),
        (TokenRule.KCARC, [Give("Ana", 1, "Bob"), Give("Cy", 1, "Ana")], "chip_not_in_centre"),
    ],
)
def test_illegal_moves_name_their_rule(rule: TokenRule, moves: list[Move], broken: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        play(rule, *moves)
    assert info.value.rule == broken
    assert info.value.message("fr") != info.value.message("en")


def test_base_game_take_steal_and_return() -> None:
    tray = play(
        TokenRule.BASE,
        Take("Ana", 3),
        Take("Bob", 3, "Ana"),
        Take("Ana", 1),
        Return("Bob"),
        Take("Bob", 2),
        Take("Cy", 3),
    )
    assert [tray.chip_of(s) for s in SEATS] == [1, 2, 3]
    assert tray.centre == frozenset()


def test_kcarc_give_then_return() -> None:
    tray = play(TokenRule.KCARC, Give("Ana", 2, "Bob"), Return("Bob"))
    assert tray.centre == frozenset({1, 2, 3})


def test_only_the_current_street_moves() -> None:
    tray = play(TokenRule.BASE, Take("Ana", 1), Take("Bob", 2), Take("Cy", 3))
    flop = next_street(tray)
    assert flop.street is Street.FLOP and flop.past == ((Street.PREFLOP, (1, 2, 3)),)
    assert flop.centre == frozenset({1, 2, 3})
    with pytest.raises(IllegalMoveError) as info:
        next_street(flop)
    assert info.value.rule == "street_not_done"


def test_no_street_after_the_river() -> None:
    tray = new_tray(("A",))
    for _ in range(3):
        tray = next_street(apply_move(tray, Take("A", 1)))
    tray = apply_move(tray, Take("A", 1))
    with pytest.raises(IllegalMoveError, match="last street"):
        next_street(tray)


@pytest.mark.parametrize("rule", list(TokenRule))
def test_legal_moves_are_exactly_the_accepted_ones(rule: TokenRule) -> None:
    tray = play(rule) if rule is not TokenRule.BASE else play(rule, Take("Bob", 2))
    for seat in SEATS:
        for move in legal_moves(tray, seat):
            apply_move(tray, move)  # never raises
    counts = {seat: len(legal_moves(tray, seat)) for seat in SEATS}
    if rule is TokenRule.KCARC:
        assert counts["Ana"] == 3 * 2  # any of 3 chips to either neighbour
    if rule is TokenRule.LSD:
        assert counts["Ana"] == 3
