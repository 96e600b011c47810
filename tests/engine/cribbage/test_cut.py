"""The cut for the first deal (issue #54; cribbage_rules.txt §2): "Coupez pour le premier
donneur : la valeur la plus basse donne ; recoupez en cas d'égalité"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.cards import DECK, Card
from companion.engine.cribbage.cut import cut_for_deal
from companion.engine.cribbage.words import describe_cut
from companion.errors import CompanionError
from tests.helpers import cards


def test_the_lower_card_deals_ace_low() -> None:
    (cut,) = cut_for_deal(cards("Ah Ks"))
    assert cut.dealer == 0
    (cut,) = cut_for_deal(cards("Jd Ts"))
    assert cut.dealer == 1


def test_a_tie_cuts_again_until_one_decides() -> None:
    cuts = cut_for_deal(cards("7h 7d Kc Qs"))
    assert [cut.dealer for cut in cuts] == [None, 1]
    assert describe_cut(cuts, "en", ("Ana", "Bob")) == [
        "cut 1: Ana 7♥, Bob 7♦: a tie, cut again",
        "cut 2: Ana K♣, Bob Q♠: Bob cut the lower card and deals first",
    ]
    assert describe_cut(cuts, "fr", ("Ana", "Bob"))[1] == (
        "coupe 2 : Ana K♣, Bob Q♠ : Bob a coupé la carte la plus basse et donne en premier"
    )


def test_court_cards_are_not_tied_by_their_count_of_ten() -> None:
    (cut,) = cut_for_deal(cards("Js Kh"))
    assert cut.dealer == 0


def test_an_undecided_cut_says_to_cut_again() -> None:
    cuts = cut_for_deal(cards("9h 9c"))
    assert cuts[-1].dealer is None
    assert describe_cut(cuts, "en")[-1] == "cut 1: player 1 9♥, player 2 9♣: a tie, cut again"


@pytest.mark.parametrize(
    ("typed", "en"),
    [
        ("7h", "cut for the deal two cards at a time (player 1's, then player 2's): 1 card given"),
        ("", "cut for the deal two cards at a time (player 1's, then player 2's): 0 cards given"),
        ("7h 7h", "7♥ appears twice (cut 1: player 1 and cut 1: player 2)"),
        ("* 7h", "cribbage is played without wilds"),
        (
            "3h 9c 4d 4s",
            "cut 1 already chose the dealer (player 1 cut the lower card): no cut after it",
        ),
    ],
)
def test_a_wrong_cut_is_named(typed: str, en: str) -> None:
    with pytest.raises(CompanionError) as caught:
        cut_for_deal(cards(typed))
    assert en in caught.value.message("en")
    assert caught.value.message("fr")


ORDER = "A23456789TJQK"  # the cut's order, ace low, kings high


@given(st.lists(st.sampled_from(DECK), min_size=2, max_size=2, unique=True))
def test_the_dealer_agrees_with_the_plain_order(pair: list[Card]) -> None:
    low = [ORDER.index(str(card)[0]) for card in pair]
    (cut,) = cut_for_deal(pair)
    assert cut.dealer == (None if low[0] == low[1] else low.index(min(low)))
