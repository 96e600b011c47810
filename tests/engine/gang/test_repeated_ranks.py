"""Flushes holding a repeated rank (two decks, a joker played as a second copy) compare card by
card on every path that values hands (issue #43)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.engine.cards import Card
from companion.engine.gang.batch_values import card_code, evaluate_many, evaluate_rules
from companion.engine.gang.ranking import (
    Category,
    Ranking,
    TableRules,
    best_hand,
    rank_five,
)
from companion.engine.gang.replay.board_values import RuleRivers
from companion.engine.gang.showdown import run_showdown
from companion.engine.gang.table import Player, Table
from companion.engine.gang.words import explain_win
from tests.helpers import cards

TWO_DECKS = TableRules(decks=2)
BOARD = cards("As Ks Qs 2d 3c")


def _codes(text: str) -> list[int]:
    return [card_code(c) for c in cards(text)]


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("As As Ks Qs 9s", "As Ks Qs 9s 8s"),  # the issue's hands: A A K Q 9 over A K Q 9 8
        ("As Ks Ks Qs 9s", "As Ks Qs Js 9s"),  # the second card decides: K over Q
        ("As As Ks Ks 2s", "As As Ks Qs Js"),  # two pairs in a flush: the fourth card decides
        ("Ah Ah Kh Qh 9h", "Ah Kh Qh Jh 9h"),
        ("As Ks Qs Js 9s", "Ks Ks Qs Qs Js"),  # the highest card first, pairs or not
    ],
)
def test_a_flush_holding_a_pair_compares_card_by_card(stronger: str, weaker: str) -> None:
    high, low = rank_five(cards(stronger), TWO_DECKS), rank_five(cards(weaker), TWO_DECKS)
    assert high.category is low.category is Category.FLUSH
    assert high > low
    assert len(high.deciding) == len(low.deciding) == 5
    values = evaluate_many([_codes(stronger), _codes(weaker)], TWO_DECKS)
    assert values[0] > values[1]


def test_the_categories_around_a_paired_flush() -> None:
    """A paired flush is a flush: above any straight, below a full house and a straight flush."""
    order = [
        "Ad Ac Ah Ks Qs",  # three of a kind
        "9d Tc Jh Qs Ks",  # straight
        "7s 5s 4s 3s 2s",  # the weakest flush
        "As As Ks Ks Qs",  # a flush of two pairs
        "As As As Ks Qs",  # a flush of three of a kind (three decks)
        "2d 2c 2h 3s 3s",  # full house
        "2s 2s 2s 2s 3s",  # four of a kind in one suit: four of a kind
        "As As Ad Ac 3s",
        "2s 3s 4s 5s 6s",  # straight flush
        "2s 2s 2d 2c 2h",  # five of a kind
        "2s 2s 2s 3s 3s",  # flush house
        "2s 2s 2s 2s 2s",  # flush five
    ]
    rules = TableRules(decks=5)
    values = [rank_five(cards(hand), rules) for hand in order]
    assert values == sorted(values)
    assert len(set(values)) == len(values)


def test_a_joker_is_played_as_a_second_copy_in_one_deck() -> None:
    ana = best_hand(cards("* 4s"), BOARD)
    bob = best_hand(cards("Js 5s"), BOARD)
    assert [str(c) for c in ana.played_as] == ["As", "As", "Ks", "Qs", "4s"]
    assert ana > bob
    knight = best_hand(cards("*s 4s"), BOARD)
    assert knight.strength == ana.strength


def test_the_issue_tables_order_and_explain() -> None:
    two_decks = Table(
        (Player("Ana", cards("As 9s")), Player("Bob", cards("9s 8s"))), BOARD, rules=TWO_DECKS
    )
    joker = Table((Player("Ana", cards("* 4s")), Player("Bob", cards("Js 5s"))), BOARD)
    for table in (two_decks, joker):
        result = run_showdown(table, {"Ana": 1, "Bob": 2})
        assert [list(tied) for tied in result.order] == [["Bob"], ["Ana"]]
        assert result.verdict is not None
        (failure,) = result.verdict.failures
        assert failure.reason("en").endswith("second card A over K")
        assert failure.reason("fr").endswith("deuxième carte A contre K")


def test_evaluate_rules_plays_a_joker_as_a_second_copy() -> None:
    ana = _codes("As Ks Qs 2d 3c 4s") + [card_code(Card(None, None))]
    bob = _codes("As Ks Qs 2d 3c Js 5s")
    values = evaluate_rules(np.array([ana, bob]))
    assert values[0] > values[1]


def test_the_rule_path_of_the_replay_ranks_a_paired_flush_higher() -> None:
    rivers = RuleRivers(np.array([_codes("As Ks Qs 2d 3c")]), TWO_DECKS, wilds=0)
    ana, bob = rivers.best(np.array(_codes("As 9s"))), rivers.best(np.array(_codes("9s 8s")))
    assert ana[0] > bob[0]
    subsets = rivers.subsets(np.array([_codes("As 9s 9s 8s 2h 3h")]))[0]
    assert subsets[0b0011] > subsets[0b1100]  # {As, 9s} over {9s, 8s}


@pytest.mark.parametrize("ranking", [Ranking.HIGH, Ranking.LOW_27])
def test_lowball_and_the_worst_hand_see_the_pair_in_a_flush(ranking: Ranking) -> None:
    rules = TableRules(ranking=ranking, decks=2)
    paired = rank_five(cards("7s 7s 5s 3s 2s"), rules)
    plain = rank_five(cards("7s 6s 5s 3s 2s"), rules)
    # Card by card 7 7 is above 7 6: stronger at high, weaker at deuce-to-seven.
    assert (paired > plain) is (ranking is Ranking.HIGH)
    # Every five is a flush: the worst high hand, and the best deuce-to-seven, is 7 6 5 3 2.
    hole, river = cards("7s 7s 6s 9s"), cards("5s 3s 2s Js Ts")
    lowest = best_hand(hole, river, rules, max_hole=2, worst=ranking is Ranking.HIGH)
    assert sorted(str(c) for c in lowest.best) == sorted(["7s", "6s", "5s", "3s", "2s"])


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_any_two_hands_of_one_category_are_explained(lang: str) -> None:
    paired = rank_five(cards("As As Ks Qs 9s"), TWO_DECKS)
    plain = rank_five(cards("As Ks Qs 9s 8s"), TWO_DECKS)
    for a, b in ((paired, plain), (plain, paired), (paired, paired)):
        assert explain_win("Ana", a, "Bob", b, lang)
