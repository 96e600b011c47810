"""The replay's numpy path held to ``evaluate_many`` and to plain counting."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from companion.engine.gang.batch_values import WILD_CODE, evaluate_many
from companion.engine.gang.ranking import Ranking, Straights, TableRules
from companion.engine.gang.replay.board_values import (
    RuleRivers,
    SharedBoards,
    best_three_split,
    card_masks,
    combinations_array,
    count_deals,
    position_counts,
    subset_values,
    values_from_masks,
)


@pytest.mark.parametrize(("n", "k"), [(5, 0), (5, 5), (7, 3), (12, 4), (40, 1)])
def test_combinations_match_itertools(n: int, k: int) -> None:
    want = [list(c) for c in itertools.combinations(range(n), k)]
    assert combinations_array(n, k).tolist() == want


@pytest.mark.parametrize(("n", "k"), [(3, 4), (-1, 0), (130, 2)])
def test_combinations_refuse_impossible_sizes(n: int, k: int) -> None:
    with pytest.raises(ValueError, match="cannot choose"):
        combinations_array(n, k)


def test_values_from_masks_agree_with_evaluate_many() -> None:
    rng = np.random.default_rng(7)
    for size in (5, 6, 7):
        hands = np.argsort(rng.random((3000, 52)), axis=1)[:, :size]
        assert (values_from_masks(card_masks(hands)) == evaluate_many(hands)).all()


@pytest.mark.parametrize("hole_size", [1, 2])
def test_shared_boards_agree_with_evaluate_many(hole_size: int) -> None:
    rng = np.random.default_rng(hole_size)
    deals = np.argsort(rng.random((4000, 52)), axis=1)[:, : 5 + 3 * hole_size]
    boards = deals[:, :5]
    shared = SharedBoards(card_masks(boards))
    # Each hole must avoid every board: take holes from cards no board row uses.
    free = sorted(set(range(52)) - set(boards.ravel().tolist()))
    if len(free) < hole_size:
        boards = boards[~np.isin(boards, [0, 1, 2, 3]).any(axis=1)]
        shared = SharedBoards(card_masks(boards))
        free = [0, 1, 2, 3]
    for hole in itertools.combinations(free[:4], hole_size):
        full = np.column_stack([boards, np.tile(hole, (len(boards), 1))])
        assert (shared.values_with(hole) == evaluate_many(full)).all(), hole


def test_flushes_and_quads_on_shared_boards() -> None:
    # Four aces with 2s; five hearts 2-4-6-7-8; Th Jh Qh 2d 2c. The hole Kh 9h makes quads with a
    # king, a king-high flush and a straight flush.
    boards = np.array([[48, 49, 50, 51, 0], [1, 9, 17, 21, 25], [33, 37, 41, 2, 3]])
    hole = (45, 29)
    values = SharedBoards(card_masks(boards)).values_with(hole)
    assert (values == evaluate_many(np.column_stack([boards, np.tile(hole, (3, 1))]))).all()
    assert (values >> 20).tolist() == [7, 5, 8]


def test_position_counts_split_ties() -> None:
    values = np.array([[1, 2, 3], [5, 5, 1], [4, 4, 4]])
    counts = position_counts(values)
    n = 3
    # Row 0: hand 0 weakest (L=0, E=1), hand 1 middle, hand 2 strongest.
    # Row 1: hands 0 and 1 tie above hand 2 (L=1, E=2); row 2: a three-way tie (L=0, E=3).
    assert counts[0, 0 * n + 0] == 1 and counts[0, 1 * n + 1] == 1 and counts[0, 0 * n + 2] == 1
    assert counts[2, 2 * n + 0] == 1 and counts[2, 0 * n + 0] == 1 and counts[2, 0 * n + 2] == 1
    assert counts.sum() == 9


def test_count_deals() -> None:
    assert count_deals(40, (5,)) == 658_008
    assert count_deals(47, (2, 2)) == math.comb(47, 2) * math.comb(45, 2)


def _order(values: list[object]) -> list[list[int]]:
    """The sign of every pairwise comparison: equal for values ordered the same way."""
    return [[(a > b) - (a < b) for b in values] for a in values]  # type: ignore[operator]


def test_six_three_split_orders_hands_as_the_hand_former() -> None:
    from companion.engine.cards import DECK
    from companion.engine.gang.showdown import form_hands
    from companion.engine.gang.table import Player, Table

    rng = np.random.default_rng(63)
    deals = np.argsort(rng.random((150, 52)), axis=1)[:, :17]
    # The hole cards differ per row, as in the own-cards view.
    holes = [
        best_three_split(subset_values(deals[:, :5], deals[:, 5 + 6 * i : 11 + 6 * i]))
        for i in range(2)
    ]
    for row, deal in enumerate(deals.tolist()):
        table = Table(
            (
                Player("Ana", tuple(DECK[i] for i in deal[5:11])),
                Player("Bob", tuple(DECK[i] for i in deal[11:17])),
            ),
            tuple(DECK[i] for i in deal[:5]),
            variant="six-three-hands",
        )
        want = [h.value.strength for h in form_hands(table)]
        got = [int(v) for three in holes for v in three[row]]
        assert _order(got) == _order(want), deal


def test_subset_values_match_evaluate_many_up_to_two_hole_cards() -> None:
    rng = np.random.default_rng(5)
    deals = np.argsort(rng.random((2000, 52)), axis=1)[:, :11]
    values = subset_values(deals[:, :5], deals[:, 5:])
    assert (values[:, 0] == evaluate_many(deals[:, :5])).all()
    for pair in itertools.combinations(range(6), 2):
        column = values[:, (1 << pair[0]) | (1 << pair[1])]
        full = np.column_stack([deals[:, :5], deals[:, 5:][:, pair]])
        assert (column == evaluate_many(full)).all()


@pytest.mark.parametrize(
    ("ranking", "straights", "decks", "wilds"),
    [
        (Ranking.HIGH, Straights.NORMAL, 1, 0),
        (Ranking.LOW_27, Straights.NORMAL, 1, 0),
        (Ranking.LOW_A5, Straights.NORMAL, 1, 0),
        (Ranking.HIGH, Straights.WRAP, 2, 0),
        (Ranking.HIGH, Straights.NORMAL, 1, 2),
        (Ranking.LOW_27, Straights.WRAP, 2, 3),
    ],
)
def test_rule_subsets_are_each_subsets_best_five(
    ranking: Ranking, straights: Straights, decks: int, wilds: int
) -> None:
    # Every subset of six hole cards against ``best`` of its own cards (pairs looked up, the
    # rest five by five): half the rows dealt from two suits, so that flushes are common.
    rng = np.random.default_rng(11)
    deck = np.concatenate([np.arange(52)] * decks + [np.arange(WILD_CODE, WILD_CODE + wilds)])
    suited = deck[(deck % 4 < 2) | (deck >= WILD_CODE)]
    rows = np.array([rng.choice(suited if r % 2 else deck, 11, replace=False) for r in range(400)])
    rivers = RuleRivers(rows[:, :5], TableRules(ranking, straights, decks), min(5, wilds))
    holes = rows[:, 5:]
    found = rivers.subsets(holes)
    for mask in range(64):
        held = [i for i in range(6) if mask >> i & 1]
        assert (found[:, mask] == rivers.best(holes[:, held])).all(), held


@pytest.mark.parametrize("ranking", [Ranking.HIGH, Ranking.LOW_27])
def test_rule_subsets_with_eight_free_wild_cards(ranking: Ranking) -> None:
    # A river of five free wild cards and hands holding three or more: a subset of three and
    # the river count eight free wild cards, past the seven a suit count field holds (#44).
    rng = np.random.default_rng(3)
    rows = []
    for r in range(60):
        natural = rng.choice(52, 6, replace=False)
        hole = np.where(rng.random(6) < (0.5 if r % 2 else 1.0), WILD_CODE, natural)
        rows.append(np.concatenate([np.full(5, WILD_CODE), hole]))
    table = np.array(rows)
    rivers = RuleRivers(table[:, :5], TableRules(ranking, Straights.NORMAL, 1), 5)
    holes = table[:, 5:]
    found = rivers.subsets(holes)
    for mask in range(64):
        held = [i for i in range(6) if mask >> i & 1]
        assert (found[:, mask] == rivers.best(holes[:, held])).all(), held
