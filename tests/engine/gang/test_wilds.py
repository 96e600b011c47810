"""The wild-card search (#17): the same values as trying every wild at every rank (the oracle
kept from before), and fast where that enumeration ran for minutes."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from companion.engine.cards import DECK, Card, Suit
from companion.engine.gang.ranking import (
    POOL_FROM,
    Ranking,
    Straights,
    TableRules,
    best_hand,
    five_strength,
    rank_five,
)
from companion.engine.gang.table import Player, Table
from companion.engine.gang.variants import VARIANTS
from tests.engine.gang.wild_oracle import oracle_best, oracle_five
from tests.helpers import cards

RULES = [
    TableRules(ranking, straights)
    for ranking in Ranking
    for straights in Straights
    if not (ranking is Ranking.LOW_A5 and straights is Straights.WRAP)
]
WILDS = [Card(None, None), *(Card(None, suit) for suit in Suit)]


def _random_cards(rng: random.Random, n: int, wild_share: float) -> tuple[Card, ...]:
    return tuple(
        rng.choice(WILDS) if rng.random() < wild_share else rng.choice(DECK) for _ in range(n)
    )


@pytest.mark.parametrize("seed", range(6))
def test_fives_match_the_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        five = _random_cards(rng, 5, rng.choice((0.2, 0.5, 0.8)))
        if sum(c.is_wild and c.suit is not None for c in five) > 2:
            continue  # 13^3 tries per five: the oracle itself is slow
        rules, worst = rng.choice(RULES), rng.random() < 0.3
        expected = oracle_five(five, rules, worst)
        assert five_strength(five, rules, worst) == expected, (five, rules, worst)
        value = rank_five(five, rules, worst)
        assert value.strength == expected
        # What it is played as is a natural five of that very value.
        assert not any(c.is_wild for c in value.played_as)
        assert rank_five(value.played_as, rules).strength == expected
        for wild, played in zip(value.best, value.played_as, strict=True):
            assert wild == played or (wild.is_wild and wild.suit in (None, played.suit))


@pytest.mark.parametrize("seed", range(3))
def test_best_hands_match_the_enumeration(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(8):
        hole = _random_cards(rng, rng.randint(2, 4), 0.3)
        board = _random_cards(rng, 5, 0.15)
        if sum(c.is_wild and c.suit is not None for c in hole + board) > 2:
            continue
        rules, worst = rng.choice(RULES), rng.random() < 0.3
        max_hole = rng.choice((None, 2))
        expected = oracle_best(hole, board, rules, max_hole, worst)
        assert best_hand(hole, board, rules, max_hole, worst).strength == expected


def _timed_showdown(table: Table) -> float:
    """The hands formed, unchecked: the search takes more knights than a table's decks hold."""
    start = time.perf_counter()
    VARIANTS["classic"].form(table)
    return time.perf_counter() - start


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["*h *h *s *s *d *d *c *c", "As Kd"], "2c 7d 9h Jc Qs"),  # eight bound wilds
        (["*h *s *d *c *h *s *d *c", "*c *c"], "*s *h *d *c 2c"),
        ([" ".join(["*"] * 30), "As Kd"], "2c 7d 9h Jc Qs"),  # thirty wilds
        (["As Kd", "Qh Qc"], "*h *h *h *h *h"),  # a river of five bound wilds
    ],
)
def test_many_wild_cards_are_valued_fast(hands: list[str], board: str) -> None:
    table = Table(tuple(Player(f"P{i}", cards(h)) for i, h in enumerate(hands)), cards(board))
    assert _timed_showdown(table) < 2.0


def test_a_river_of_bound_wilds_with_ten_players_is_fast() -> None:
    players = tuple(Player(f"P{i}", (DECK[2 * i], DECK[2 * i + 1])) for i in range(10))
    table = Table(players, cards("*h *s *d *c *h"))
    assert _timed_showdown(table) < 2.0
    # Four wilds of different suits and one more: five aces, no flush.
    assert best_hand(players[0].cards, table.board).category.name == "FIVE_OF_A_KIND"


def test_a_twenty_card_hand_is_fast() -> None:
    hole = tuple(DECK[i] for i in range(0, 40, 2))
    start = time.perf_counter()
    value = best_hand(hole, cards("Ah Kh Qh Jh 3c"))
    assert time.perf_counter() - start < 2.0
    assert value.category.name == "STRAIGHT_FLUSH"


@pytest.mark.parametrize("seed", range(4))
def test_big_hands_match_the_enumeration(seed: int) -> None:
    """From POOL_FROM cards on, ranks are searched instead of fives: the same values."""
    rng = random.Random(200 + seed)
    for _ in range(6):
        hole = _random_cards(rng, rng.randint(POOL_FROM - 5, 9), rng.choice((0.0, 0.1, 0.3)))
        board = _random_cards(rng, 5, 0.1)
        if sum(c.is_wild and c.suit is not None for c in hole + board) > 1:
            continue
        rules, worst = rng.choice(RULES), rng.random() < 0.3
        value = best_hand(hole, board, rules, None, worst)
        assert value.strength == oracle_best(hole, board, rules, None, worst), (hole, board)
        assert Counter(value.best) <= Counter(hole + board)  # five of the very cards


def test_a_two_deck_flush_pair_and_a_forced_flush_are_found() -> None:
    lowball = TableRules(Ranking.LOW_27)
    # Only hearts: every five is a flush, which deuce-to-seven counts against the hand.
    hearts = cards("2h 3h 4h 5h 7h 8h 9h Th Jh Qh Kh")
    assert best_hand(hearts[:6], hearts[6:], lowball).category.name == "FLUSH"
    two_decks = cards("As As Ks Ks 2s 3d 4c 5h 6d 7c 8h")
    assert best_hand(two_decks[:6], two_decks[6:]).category.name == "FLUSH"
