"""Every path that values hands against the plain reference (``reference.py``), on deals biased
to what breaks engines: two suits or one, two and three decks, jokers and knights, wheels and
around-the-corner runs, every ranking and variant. A few thousand examples in the default run,
five times more under ``-m slow``.

The checks of the numpy tables run once per ranking and straights rule (``rule_group``), each
with its share of the examples, so that one rule group's tables are held at a time: drawn at
random from every rule set, a run held them all (gigabytes)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.cards import Card, Rank, Suit
from companion.engine.gang.batch_values import (
    card_code,
    evaluate_many,
    evaluate_rules,
    value_to_category,
)
from companion.engine.gang.ranking import Category, Ranking, Straights, TableRules, rank_five
from companion.engine.gang.ranking import best_hand as engine_best
from companion.engine.gang.replay import board_values
from companion.engine.gang.replay.rule_path import codes, rule_values
from companion.engine.gang.showdown import form_hands
from companion.engine.gang.table import Player, SharedHand, Table
from companion.engine.gang.words import explain_win
from tests.engine.gang import reference as ref
from tests.helpers import clear_engine_tables

RANK_POOLS = (
    tuple(range(13)),
    (12, 0, 1, 2, 3, 4, 5),  # wheels
    (9, 10, 11, 12, 0, 1, 2, 3),  # around the corner
    (8, 9, 10, 11, 12),  # broadways and many pairs
    (0, 1, 2, 3, 4, 5),  # deuce-to-seven's best hands
)
SUIT_POOLS = ((0, 1), (0, 1), (0,), (0, 1, 2, 3), (0, 1, 2))
RULES = [
    TableRules(ranking, straights, decks)
    for ranking in Ranking
    for straights in Straights
    for decks in (1, 2, 3)
]
GROUPS = [(ranking, straights) for ranking in Ranking for straights in Straights]


@dataclass(frozen=True)
class Deal:
    """Cards drawn from a biased pool, to be split between hands and river(s)."""

    rules: TableRules
    cards: tuple[Card, ...]


def _card(rank: int | None, suit: int | None) -> Card:
    return Card(None if rank is None else Rank(rank), None if suit is None else Suit(suit))


@st.composite
def deals(
    draw: st.DrawFn, size: int, most_wilds: int = 2, rules: Sequence[TableRules] = RULES
) -> Deal:
    """``size`` cards: naturals from a small pool of ranks and suits, and up to ``most_wilds``
    jokers or knights (at most ``decks`` of each card and each knight)."""
    table_rules = draw(st.sampled_from(rules))
    ranks, suits = draw(st.sampled_from(RANK_POOLS)), draw(st.sampled_from(SUIT_POOLS))
    pool = [(r, s) for r in ranks for s in suits] * table_rules.decks
    wilds = draw(st.integers(0, most_wilds))
    if len(pool) < size - wilds:
        pool = [(r, s) for r in range(13) for s in range(4)] * table_rules.decks
    at = draw(
        st.lists(
            st.integers(0, len(pool) - 1), min_size=size - wilds, max_size=size - wilds, unique=True
        )
    )
    kinds = [(None, None), *((None, s) for s in suits)]
    chosen = [pool[i] for i in at]
    for _ in range(wilds):
        kind = draw(st.sampled_from(kinds))
        knights = chosen.count(kind) if kind[1] is not None else 0
        chosen.append(kind if knights < table_rules.decks else (None, None))  # a knight per deck
    order = draw(st.permutations(range(size)))
    return Deal(table_rules, tuple(_card(*chosen[i]) for i in order))


def _ref_rules(rules: TableRules) -> tuple[str, bool]:
    return rules.ranking.value, rules.straights is Straights.WRAP


def _sign(a: Any, b: Any) -> int:
    return (a > b) - (a < b)


def _same_order(engine: Sequence[Any], reference: Sequence[ref.Value], what: object) -> None:
    """Every pair of values compares the same way on both sides."""
    for i, j in itertools.combinations(range(len(engine)), 2):
        assert _sign(engine[i], engine[j]) == _sign(reference[i][1], reference[j][1]), (
            what,
            i,
            j,
            reference[i],
            reference[j],
        )


COMMON = dict(deadline=None, suppress_health_check=list(HealthCheck))
SLOW = 5


def _both(
    check: Callable[..., None], strategy: st.SearchStrategy[Any], default: int
) -> tuple[Any, Any]:
    """The property in the default run, and five times more under the ``slow`` marker."""
    fast = settings(max_examples=default, **COMMON)(given(strategy)(check))  # type: ignore[arg-type]
    slow = settings(max_examples=SLOW * default, **COMMON)(given(strategy)(check))  # type: ignore[arg-type]
    return fast, pytest.mark.slow(slow)


@pytest.fixture(scope="module", params=GROUPS, ids=[f"{r.value}-{s.value}" for r, s in GROUPS])
def rule_group(request: pytest.FixtureRequest) -> Iterator[list[TableRules]]:
    """One ranking and straights rule, every number of decks; pytest runs every test of a group
    before the next group, whose tables replace this one's."""
    ranking, straights = request.param
    yield [TableRules(ranking, straights, decks) for decks in (1, 2, 3)]
    clear_engine_tables()


def _both_by_group(
    check: Callable[[st.DataObject, Sequence[TableRules]], None], default: int
) -> tuple[Any, Any]:
    """``_both`` run once per rule group, the ``default`` examples shared between the groups."""

    def test(rule_group: list[TableRules], data: st.DataObject) -> None:
        check(data, rule_group)

    share = -(-default // len(GROUPS))
    fast = settings(max_examples=share, **COMMON)(given(data=st.data())(test))
    slow = settings(max_examples=SLOW * share, **COMMON)(given(data=st.data())(test))
    return fast, pytest.mark.slow(slow)


# -- The general path: best_hand (the wild-card search, the big-hand search) ---------------------


def _best_hands(data: st.DataObject) -> None:
    hands = data.draw(st.integers(2, 3))
    hole_size = data.draw(st.sampled_from((0, 1, 2, 2, 3, 4, 8)))
    deal = data.draw(deals(5 + hands * hole_size, most_wilds=1 if hole_size > 4 else 2))
    board, holes = (
        deal.cards[:5],
        [deal.cards[5 + k * hole_size : 5 + (k + 1) * hole_size] for k in range(hands)],
    )
    max_hole = data.draw(st.sampled_from((None, None, 2, 1)))
    worst = data.draw(st.booleans())
    ranking, wrap = _ref_rules(deal.rules)
    engine = [engine_best(h, board, deal.rules, max_hole, worst) for h in holes]
    expected = [
        ref.best_value(ref.plain(h), ref.plain(board), ranking, wrap, max_hole, worst)
        for h in holes
    ]
    assert [v.category.label for v in engine] == [e[0] for e in expected], (deal, max_hole, worst)
    _same_order(engine, expected, (deal, max_hole, worst))
    for value in engine:  # what the wild cards are played as is a natural five of that value
        assert rank_five(value.played_as, deal.rules).strength == value.strength


test_best_hand, test_best_hand_slow = _both(_best_hands, st.data(), 600)


# -- evaluate_many and evaluate_rules ------------------------------------------------------------


def _many(data: st.DataObject, rules: Sequence[TableRules]) -> None:
    size = data.draw(st.integers(5, 7))
    rows = data.draw(st.integers(2, 4))
    deal = data.draw(deals(size * rows, rules=rules))
    hands = [deal.cards[k * size : (k + 1) * size] for k in range(rows)]
    worst = data.draw(st.booleans())
    ranking, wrap = _ref_rules(deal.rules)
    expected = [ref.best_value(ref.plain(h), (), ranking, wrap, worst=worst) for h in hands]
    values = evaluate_rules(np.array([[card_code(c) for c in h] for h in hands]), deal.rules, worst)
    _same_order(values.tolist(), expected, (deal, worst))
    if not worst:  # evaluate_many with table rules takes the same path
        rows_ = np.array([[card_code(c) for c in h] for h in hands])
        if not any(c.is_wild for c in deal.cards):
            _same_order(evaluate_many(rows_, deal.rules).tolist(), expected, deal)


test_evaluate_rules, test_evaluate_rules_slow = _both_by_group(_many, 500)


STANDARD = [TableRules()]


def _many_standard(data: st.DataObject) -> None:
    """``evaluate_many``'s own tables (one deck, standard rules): orders and categories."""
    size = data.draw(st.integers(5, 7))
    rows = data.draw(st.integers(2, 5))
    deal = data.draw(deals(size * rows, most_wilds=0, rules=STANDARD))
    hands = [deal.cards[k * size : (k + 1) * size] for k in range(rows)]  # one deck: distinct
    expected = [ref.best_value(ref.plain(h), ()) for h in hands]
    values = evaluate_many(np.array([[c.id for c in h] for h in hands]))
    assert [Category(int(c)).label for c in value_to_category(values)] == [e[0] for e in expected]
    _same_order(values.tolist(), expected, deal)


test_evaluate_many, test_evaluate_many_slow = _both(_many_standard, st.data(), 400)


# -- The replay's numpy paths --------------------------------------------------------------------


def _rule_rivers(data: st.DataObject, rules: Sequence[TableRules]) -> None:
    """``RuleRivers.best`` (every rule, wild cards, decks): rows of one river size and hole size."""
    hole_size = data.draw(st.integers(0, 4))
    rows = data.draw(st.integers(2, 3))
    deal = data.draw(deals((5 + hole_size) * rows, rules=rules))
    cards = [deal.cards[k * (5 + hole_size) : (k + 1) * (5 + hole_size)] for k in range(rows)]
    top = data.draw(st.sampled_from((5, 2)))
    worst = data.draw(st.booleans())
    rivers = board_values.RuleRivers(
        np.array([codes(c[:5]) for c in cards]),
        deal.rules,
        wilds=min(5, sum(c.is_wild for c in deal.cards)),
    )
    values = rivers.best(
        np.array([codes(c[5:]) for c in cards]).reshape(rows, hole_size), top, worst
    )
    ranking, wrap = _ref_rules(deal.rules)
    expected = [
        ref.best_value(ref.plain(c[5:]), ref.plain(c[:5]), ranking, wrap, top, worst) for c in cards
    ]
    _same_order(values.tolist(), expected, (deal, top, worst))


test_rule_rivers, test_rule_rivers_slow = _both_by_group(_rule_rivers, 400)


def _standard_boards(data: st.DataObject) -> None:
    """The standard path's shared boards and hole subsets (one deck, no wild card)."""
    deal = data.draw(deals(5 + 2 + 2 + 4, most_wilds=0, rules=STANDARD))
    ids = [c.id for c in deal.cards]  # one deck: distinct cards
    board, holes = ids[:5], [tuple(ids[5:7]), tuple(ids[7:9])]
    shared = board_values.SharedBoards(board_values.card_masks(np.array([board])))
    values = [int(shared.values_with(h)[0]) for h in holes]
    expected = [
        ref.best_value(ref.plain(Card.from_id(i) for i in h), ref.plain(deal.cards[:5]))
        for h in holes
    ]
    _same_order(values, expected, deal)
    six = ids[5:11]
    subsets = board_values.subset_values(np.array([board]), np.array(six))[0]
    masks = list(range(1 << 6))
    expected = [
        ref.best_value(
            ref.plain(Card.from_id(six[i]) for i in range(6) if m >> i & 1),
            ref.plain(deal.cards[:5]),
        )
        for m in masks
    ]
    _same_order(subsets.tolist(), expected, deal)


test_standard_boards, test_standard_boards_slow = _both(_standard_boards, st.data(), 100)


# -- Every variant: the engine's hand formers and the replay's rule path ------------------------

VARIANT_SHAPES = {
    # variant: (players, hole cards, two rivers allowed)
    "classic": ((2, 3), (1, 2, 3), True),
    "two-of-four": ((2, 3), (4,), False),
    "four-two-hands": ((2, 2), (4,), True),
    "high-low": ((2, 3), (4,), False),
    "francois": ((3, 3), (3,), False),
    "circular": ((3, 3), (2,), False),
    "six-three-hands": ((2, 2), (6,), False),
}


def _variant_table(
    data: st.DataObject, variant: str, rules: Sequence[TableRules] = RULES
) -> Table | None:
    (low, high), sizes, two = VARIANT_SHAPES[variant]
    players = data.draw(st.integers(low, high))
    hole = data.draw(st.sampled_from(sizes))
    two_rivers = two and data.draw(st.booleans())
    if variant == "classic" and two_rivers:
        hole = 2
    extra = players if variant == "francois" else 2 * players if variant == "circular" else 0
    rivers = 10 if two_rivers else 5
    wilds = 1 if variant == "six-three-hands" else 2
    deal = data.draw(deals(rivers + players * hole + extra, wilds, rules))
    cards = list(deal.cards)
    board, board2 = tuple(cards[:5]), tuple(cards[5:10]) if two_rivers else ()
    at = rivers
    names = ["Ana", "Bob", "Cy"][:players]
    built = []
    for name in names:
        own = tuple(cards[at : at + hole])
        at += hole
        francois = None
        if variant == "francois":
            francois, at = cards[at], at + 1
        built.append(Player(name, own, francois))
    shared = []
    if variant == "circular":
        for i in range(players):
            shared.append(
                SharedHand((names[i], names[(i + 1) % players]), tuple(cards[at : at + 2]))
            )
            at += 2
    return Table(tuple(built), board, variant, deal.rules, two_rivers, board2, tuple(shared))


def _reference_hands(table: Table) -> dict[str, ref.Value]:
    ranking, wrap = _ref_rules(table.rules)
    return ref.variant_hands(
        table.variant,
        [(p.name, ref.plain(p.cards)) for p in table.players],
        [ref.plain(r) for r in table.rivers],
        ranking,
        wrap,
        francois=ref.plain(p.francois_card for p in table.players if p.francois_card is not None),
        shared=[(s.id, ref.plain(s.cards)) for s in table.shared],
    )


def _rule_path_values(table: Table) -> dict[str, int]:
    """The replay's rule path on the one deal the table shows."""
    groups: dict[tuple[str, int], np.ndarray] = {
        ("cards", i): codes(p.cards)[None] for i, p in enumerate(table.players)
    }
    for i, p in enumerate(table.players):
        if p.francois_card is not None:
            groups[("francois", i)] = codes((p.francois_card,))[None]
    for j, s in enumerate(table.shared):
        groups[("shared", j)] = codes(s.cards)[None]
    values = rule_values(table, [codes(r)[None] for r in table.rivers], groups)
    return {k: int(v[0]) for k, v in values.items()}


def _variants(data: st.DataObject, rules: Sequence[TableRules]) -> None:
    variant = data.draw(st.sampled_from(sorted(VARIANT_SHAPES)))
    table = _variant_table(data, variant, rules)
    if table is None:
        return
    expected = _reference_hands(table)
    hands = {h.id: h.value for h in form_hands(table)}
    assert sorted(hands) == sorted(expected), table
    ids = sorted(expected)
    assert [hands[i].category.label for i in ids] == [expected[i][0] for i in ids], table
    _same_order([hands[i] for i in ids], [expected[i] for i in ids], table)
    if variant == "six-three-hands" and any(c.is_wild for p in table.players for c in p.cards):
        return  # the rule path's six-three-hands with wild cards: hardening's own item
    numpy = _rule_path_values(table)
    _same_order([numpy[i] for i in ids], [expected[i] for i in ids], ("rule path", table))


test_variants, test_variants_slow = _both_by_group(_variants, 300)


# -- The words of an alarm -----------------------------------------------------------------------


def _words(data: st.DataObject) -> None:
    deal = data.draw(deals(10, most_wilds=3))
    worst = data.draw(st.booleans())
    a, b = (
        rank_five(deal.cards[:5], deal.rules, worst),
        rank_five(deal.cards[5:], deal.rules, worst),
    )
    for lang in ("en", "fr"):
        for x, y in ((a, b), (b, a), (a, a)):
            assert explain_win("Ana", x, "Bob/1", y, lang)


test_words_never_fail, test_words_never_fail_slow = _both(_words, st.data(), 500)


def test_the_reference_knows_the_issue_hands() -> None:
    """The reference itself on the issue's hands, so that it cannot agree with a wrong engine
    by accident."""
    high = ref.value_of_natural(((12, 0), (12, 0), (11, 0), (10, 0), (7, 0)), ref.HIGH, False)
    low = ref.value_of_natural(((12, 0), (11, 0), (10, 0), (7, 0), (6, 0)), ref.HIGH, False)
    assert high[0] == low[0] == "flush" and high[1] > low[1]
    joker = ref.best_value([(None, None), (2, 0)], [(12, 0), (11, 0), (10, 0), (0, 2), (1, 3)])
    plain = ref.best_value([(9, 0), (3, 0)], [(12, 0), (11, 0), (10, 0), (0, 2), (1, 3)])
    assert joker[1] > plain[1]
