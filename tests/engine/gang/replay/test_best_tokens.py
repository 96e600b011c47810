"""The best token assignment against brute force: every assignment, every deal, ``judge``."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.gang.replay.best_tokens import best_order, opening_weight
from companion.engine.gang.replay.board_values import order_patterns
from companion.engine.gang.replay.odds import Settings, Street, best_tokens, street_odds
from companion.engine.gang.showdown import form_hands, judge
from companion.engine.gang.table import Table
from tests.engine.gang.replay.test_odds import TABLES, _unseen


def _opening_chances(table: Table, known: int) -> dict[tuple[str, ...], float]:
    """For every token order (hand ids, token 1 first): its chance to open the vault over every
    completion of the river(s) after ``known`` cards of each, judged by ``judge``."""
    hole = [c for p in table.players for c in p.cards]
    hole += [p.francois_card for p in table.players if p.francois_card is not None]
    hole += [c for s in table.shared for c in s.cards]
    public = list(table.board[:known]) + list(table.board2[:known])
    deck = _unseen(table, hole + public)
    ids = [h.id for h in form_hands(table)]
    orders = list(itertools.permutations(ids))
    opened = dict.fromkeys(orders, 0)
    count = 0
    rivers = 2 if table.two_rivers else 1
    for ends in itertools.permutations(range(len(deck)), rivers * (5 - known)):
        first, second = ends[: 5 - known], ends[5 - known :]
        if list(first) != sorted(first) or list(second) != sorted(second):
            continue  # each river's end once, as a set
        board = table.board[:known] + tuple(deck[i] for i in first)
        board2 = table.board2[:known] + tuple(deck[i] for i in second) if rivers == 2 else ()
        hands = form_hands(replace(table, board=board, board2=board2))
        for order in orders:
            opened[order] += judge(hands, {h: k + 1 for k, h in enumerate(order)}).opens
        count += 1
    return {order: n / count for order, n in opened.items()}


CASES = [
    ("classic", Street.FLOP),
    ("classic", Street.TURN),
    ("classic", Street.RIVER),
    ("low-27", Street.TURN),
    ("two-of-four", Street.TURN),
    ("four-two-hands", Street.TURN),
    ("circular", Street.TURN),
    ("six-three-hands", Street.TURN),
    ("high-low", Street.TURN),
    ("francois", Street.TURN),
    ("two-rivers", Street.TURN),
    ("wild-in-hand", Street.TURN),
]


@pytest.mark.parametrize(("name", "street"), CASES, ids=[f"{n}-{s.value}" for n, s in CASES])
def test_best_tokens_match_brute_force(name: str, street: Street) -> None:
    table = TABLES[name]
    if table.two_rivers:  # two hands each: two players keep it to 24 orders
        table = replace(table, players=table.players[:2])
    chances = _opening_chances(table, street.known)
    best = best_tokens(table, street)
    assert best.complete and best.method.exact
    assert best.p_open == pytest.approx(max(chances.values()), abs=1e-12)
    order = tuple(sorted(best.tokens, key=lambda h: best.tokens[h]))
    assert chances[order] == pytest.approx(best.p_open, abs=1e-12)
    # Any recorded assignment gets its own chance.
    recorded = {h: k + 1 for k, h in enumerate(reversed(order))}
    again = best_tokens(table, street, tokens=recorded)
    assert again.recorded_p_open == pytest.approx(chances[tuple(reversed(order))], abs=1e-12)


def test_at_the_river_the_best_tokens_are_the_showdown_order() -> None:
    table = TABLES["classic"]
    hands = form_hands(table)
    wrong = {"Ana": 1, "Bob": 4, "Cleo": 3, "Dan": 2}
    odds = street_odds(table, Street.RIVER, tokens=wrong)
    assert odds.best is not None
    assert odds.best.p_open == 1 and odds.best.method.count == 1
    assert judge(hands, odds.best.tokens).opens
    assert odds.best.recorded_p_open == float(judge(hands, wrong).opens)


def test_sampled_best_tokens_state_their_error() -> None:
    table = TABLES["low-27"]
    tight = Settings(budget_s=0.05, samples=400, min_samples=400)
    best = best_tokens(table, Street.PREFLOP, tight)
    assert not best.method.exact and best.method.count == 400 and best.method.seed == 0
    p = best.p_open
    assert best.method.std_error == pytest.approx((p * (1 - p) / 400) ** 0.5)


PATTERNS = st.integers(2, 6).flatmap(
    lambda n: st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n), min_size=1, max_size=40)
)


@settings(max_examples=60, deadline=None)
@given(values=PATTERNS)
def test_best_order_is_the_best_permutation(values: list[list[int]]) -> None:
    patterns, weights = order_patterns(np.array(values, dtype=np.int64))
    found = best_order(patterns, weights)
    hands = patterns.shape[1]
    every = {
        order: opening_weight(patterns, weights, order)
        for order in itertools.permutations(range(hands))
    }
    assert found.complete
    assert found.weight == max(every.values())
    assert every[found.order] == found.weight


def test_search_says_when_orders_were_left_unlisted() -> None:
    # Hands 0 and 1 tie under hand 2, then hand 0 over tied hands 1 and 2: no assignment opens
    # on both, and without listing tied orders the search cannot prove it.
    patterns, weights = np.array([[0, 0, 2], [2, 0, 0]]), np.array([1.0, 1.0])
    unproven = best_order(patterns, weights, listing_limit=0)
    assert not unproven.complete and unproven.weight == 1
    assert opening_weight(patterns, weights, unproven.order) == 1
    proven = best_order(patterns, weights)
    assert proven.complete and proven.weight == 1


def test_a_river_where_everyone_plays_the_board_opens_in_any_order() -> None:
    patterns, weights = np.zeros((1, 9), dtype=np.int64), np.ones(1)
    for limit in (0, 10**6):  # unlisted (9! listings) or listed: any order opens
        best = best_order(patterns, weights, listing_limit=limit)
        assert best.complete and best.weight == 1
