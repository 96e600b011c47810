"""The rule tables (``batch_values.rule_table``, ``batch_values.seven_table``,
``evaluate_rules``) against the general evaluator (``ranking``) on random hands of every ranking,
straights rule, decks and wild cards, and with the worst value of wild cards (high-low's low
hand)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import numpy as np
import pytest

from companion.engine.cards import DECK, Card, Suit
from companion.engine.gang import batch_values
from companion.engine.gang.ranking import Ranking, Straights, TableRules, best_hand
from tests.helpers import clear_engine_tables

RULES = [
    TableRules(ranking, straights, decks)
    for ranking in Ranking
    for straights in Straights
    for decks in (1, 2)
    if not (ranking is Ranking.LOW_A5 and straights is Straights.WRAP)  # a5 has no straights
]
WILDS = (Card(None, None), Card(None, None), Card(None, Suit.HEARTS), Card(None, Suit.CLUBS))


def _deck(rules: TableRules, wilds: int) -> list[Card]:
    return list(DECK) * rules.decks + list(WILDS[:wilds])


def _assert_same_order(values: np.ndarray, strengths: list[tuple[int, ...]]) -> None:
    """``values`` order the hands exactly as ``strengths`` do, ties included."""
    order = sorted(range(len(strengths)), key=lambda i: strengths[i])
    for a, b in itertools.pairwise(order):
        assert (values[a] < values[b]) == (strengths[a] < strengths[b]), (a, b)
        assert (values[a] == values[b]) == (strengths[a] == strengths[b]), (a, b)


def _rule_id(rules: TableRules) -> str:
    return f"{rules.ranking.value}-{rules.straights.value}-{rules.decks}"


@pytest.fixture(scope="module", params=RULES, ids=_rule_id)
def rules(request: pytest.FixtureRequest) -> Iterator[TableRules]:
    """One rule set at a time: pytest runs every test of a rule set before the next, whose tables
    replace its own (with four wild cards, 75 MB a table; every rule set's together, 2 GB)."""
    yield request.param
    clear_engine_tables()


@pytest.mark.parametrize("worst", [False, True], ids=["best", "worst"])
def test_evaluate_rules_orders_hands_as_the_general_path(rules: TableRules, worst: bool) -> None:
    rng = random.Random(f"{_rule_id(rules)}:{worst}")
    hands = [rng.sample(_deck(rules, 4), rng.choice((5, 6, 7))) for _ in range(90)]
    for size in (5, 6, 7):
        same = [h for h in hands if len(h) == size]
        codes = np.array([[batch_values.card_code(c) for c in h] for h in same])
        strengths = [best_hand((), tuple(h), rules, worst=worst).strength for h in same]
        _assert_same_order(batch_values.evaluate_rules(codes, rules, worst), strengths)


def test_evaluate_rules_checks_its_input() -> None:
    with pytest.raises(ValueError, match="shape"):
        batch_values.evaluate_rules([[1, 2, 3, 4]])
    with pytest.raises(ValueError, match="codes"):
        batch_values.evaluate_rules([[1, 2, 3, 4, 57]])


def test_seven_table_is_the_best_five_wherever_no_flush_can_be_played(rules: TableRules) -> None:
    rng = random.Random(_rule_id(rules))
    low, high, suit = batch_values.seven_code_arrays()
    for worst in (False, True):
        table = batch_values.seven_for(rules, worst, wilds=2)
        rows = np.array(
            [
                [batch_values.card_code(c) for c in rng.sample(_deck(rules, 2), 7)]
                for _ in range(400)
            ]
        )
        plain = ~batch_values.flush_possible()[suit[rows].sum(axis=1)]
        got = table.values[table.high[high[rows].sum(axis=1)] + table.low[low[rows].sum(axis=1)]]
        five = batch_values.table_for(rules, worst, wilds=2)
        key, suits = batch_values.code_arrays()
        fives = np.array(list(itertools.combinations(range(7), 5)))
        each = batch_values.five_values(
            five,
            key[rows[:, fives]].sum(axis=2),
            np.bitwise_or.reduce(suits[rows[:, fives]], axis=2),
        )
        want = each.min(axis=1) if worst else each.max(axis=1)
        assert plain.sum() > 300  # most hands: the flush check sends few to the five by five way
        assert np.array_equal(got[plain], want[plain])


def test_flush_possible_counts_free_wild_cards_with_any_suit() -> None:
    _, _, suit = batch_values.seven_code_arrays()
    four_hearts_and_a_joker = [
        batch_values.card_code(c) for c in (*DECK[1:17:4], WILDS[0], DECK[0])
    ]
    assert batch_values.flush_possible()[suit[four_hearts_and_a_joker].sum()]
    four_hearts_and_a_club_wild = [
        batch_values.card_code(c) for c in (*DECK[1:17:4], WILDS[3], DECK[0])
    ]
    assert not batch_values.flush_possible()[suit[four_hearts_and_a_club_wild].sum()]


def test_low_values_match_the_general_path_on_every_five_of_a_small_deck() -> None:
    deck = [c for c in DECK if c.rank is not None and c.rank >= 7]  # 9..A: 24 cards
    fives = list(itertools.combinations(deck, 5))
    codes = np.array([[c.id for c in f] for f in fives])
    for ranking in (Ranking.LOW_A5, Ranking.LOW_27):
        rules = TableRules(ranking)
        strengths = [best_hand((), f, rules).strength for f in fives]
        _assert_same_order(batch_values.evaluate_rules(codes, rules), strengths)


def test_evaluate_many_under_other_rules_is_evaluate_rules_on_checked_ids() -> None:
    rng = np.random.default_rng(5)
    hands = np.argsort(rng.random((500, 52)), axis=1)[:, :7]
    low = TableRules(ranking=Ranking.LOW_A5)
    assert np.array_equal(
        batch_values.evaluate_many(hands, low), batch_values.evaluate_rules(hands, low)
    )
    assert np.array_equal(
        batch_values.evaluate_many(hands, TableRules()), batch_values.evaluate_many(hands)
    )
    with pytest.raises(ValueError, match="twice"):
        batch_values.evaluate_many([[0, 0, 1, 2, 3]], low)
    two_decks = TableRules(ranking=Ranking.LOW_27, decks=2)
    assert len(batch_values.evaluate_many([[0, 0, 1, 2, 3]], two_decks)) == 1
