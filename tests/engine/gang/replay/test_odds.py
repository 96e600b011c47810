"""The heist replay against brute force: a slow loop over every completion with ``run_showdown``."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import DECK, Card
from companion.engine.gang.ranking import Ranking, Straights, TableRules
from companion.engine.gang.replay import board_values
from companion.engine.gang.replay.odds import (
    HandOdds,
    Settings,
    Street,
    chart_data,
    everyone_odds,
    find_mistakes,
    own_odds,
    own_view_values,
    replay_table,
    street_odds,
    uses_fast_path,
)
from companion.engine.gang.replay.words import method_text, mistake_text
from companion.engine.gang.showdown import form_hands, order_hands, run_showdown
from companion.engine.gang.table import Hand, Player, SharedHand, Table
from companion.errors import TableError
from tests.helpers import cards

EXACT = Settings(budget_s=1e9)  # never fall back to sampling on the general path


def _positions(table: Table) -> dict[str, list[float]]:
    """Each hand's share of each position at a finished table, ties split evenly."""
    result = run_showdown(table)
    n = len(result.hands)
    shares = {h.id: [0.0] * n for h in result.hands}
    start = 0
    for group in result.order:
        for hand_id in group:
            for position in range(start, start + len(group)):
                shares[hand_id][position] = 1 / len(group)
        start += len(group)
    return shares


def _unseen(table: Table, known: list[Card]) -> list[Card]:
    """The deck (decks x 52 plus every wild card at the table) without the known cards."""
    at_table = [
        *table.board,
        *table.board2,
        *(c for p in table.players for c in p.cards),
        *(p.francois_card for p in table.players if p.francois_card is not None),
        *(c for s in table.shared for c in s.cards),
    ]
    deck = list(DECK) * table.rules.decks + [c for c in at_table if c.is_wild]
    for card in known:
        deck.remove(card)
    return deck


def brute_force(table: Table, known: int) -> dict[str, list[float]]:
    """Average positions over every completion of the river(s) after ``known`` cards of each."""
    rivers = 2 if table.two_rivers else 1
    hole = [c for p in table.players for c in p.cards]
    hole += [p.francois_card for p in table.players if p.francois_card is not None]
    hole += [c for s in table.shared for c in s.cards]
    public = list(table.board[:known]) + (list(table.board2[:known]) if rivers == 2 else [])
    deck = _unseen(table, hole + public)
    missing = 5 - known
    totals: dict[str, list[float]] = {}
    count = 0
    for first in itertools.combinations(range(len(deck)), missing):
        rest = [i for i in range(len(deck)) if i not in first]
        seconds = itertools.combinations(rest, missing) if rivers == 2 else [()]
        for second in seconds:
            board = table.board[:known] + tuple(deck[i] for i in first)
            board2 = table.board2[:known] + tuple(deck[i] for i in second) if rivers == 2 else ()
            shares = _positions(replace(table, board=board, board2=board2))
            for hand_id, row in shares.items():
                before = totals.get(hand_id, [0.0] * len(row))
                totals[hand_id] = [a + b for a, b in zip(before, row, strict=True)]
            count += 1
    return {hand_id: [x / count for x in row] for hand_id, row in totals.items()}


def brute_force_two_rivers(table: Table, known: int) -> dict[str, list[float]]:
    """``brute_force`` for the classic game on two rivers, where every deal of both rivers'
    ends is too many showdowns: each river's ends are dealt once and valued as a one-river classic
    table, then every disjoint pair of them gives each player its two hands, numbered strongest
    first, ordered by ``order_hands``."""
    deck = _unseen(
        table,
        [c for p in table.players for c in p.cards]
        + list(table.board[:known])
        + list(table.board2[:known]),
    )
    ends = list(itertools.combinations(range(len(deck)), 5 - known))
    per_river: list[list[dict[str, Hand]]] = []
    for board in (table.board, table.board2):
        valued = []
        for end in ends:
            river = Table(
                table.players, board[:known] + tuple(deck[i] for i in end), rules=table.rules
            )
            valued.append({h.id: h for h in form_hands(river)})
        per_river.append(valued)
    n = 2 * len(table.players)
    totals = {f"{p.name}/{k}": [0.0] * n for p in table.players for k in (1, 2)}
    count = 0
    for a, first in enumerate(ends):
        for b, second in enumerate(ends):
            if set(first) & set(second):
                continue
            hands = []
            for p in table.players:
                one, two = per_river[0][a][p.name], per_river[1][b][p.name]
                pair = sorted([(one.value, 1), (two.value, 2)], key=lambda x: x[0], reverse=True)
                hands += [Hand(f"{p.name}/{k}", p.name, v, r) for k, (v, r) in enumerate(pair, 1)]
            start = 0
            for group in order_hands(tuple(hands)):
                for hand_id in group:
                    row = totals[hand_id]
                    for position in range(start, start + len(group)):
                        row[position] += 1 / len(group)
                start += len(group)
            count += 1
    return {hand_id: [x / count for x in row] for hand_id, row in totals.items()}


def test_two_river_oracle_is_the_plain_brute_force() -> None:
    table = TABLES["two-rivers"]
    _assert_close(brute_force_two_rivers(table, 4), brute_force(table, 4))


def oracle(table: Table, known: int) -> dict[str, list[float]]:
    if table.two_rivers and table.variant == "classic":
        return brute_force_two_rivers(table, known)
    return brute_force(table, known)


NAMES = "Ana Bob Cleo Dan Eve Fred Gus Hal Ivy Jo".split()


def _players(*hands: str) -> tuple[Player, ...]:
    names = NAMES[: len(hands)]
    return tuple(Player(name, cards(text)) for name, text in zip(names, hands, strict=True))


def _francois(*hands: tuple[str, str]) -> tuple[Player, ...]:
    names = "Ana Bob Cleo Dan".split()[: len(hands)]
    return tuple(Player(n, cards(h), cards(f)[0]) for n, (h, f) in zip(names, hands, strict=True))


CIRCULAR = Table(
    _players("As Kd", "7c 7d", "Qh Jh"),
    cards("2h 9s Tc 5d 8s"),
    variant="circular",
    shared=(
        SharedHand(("Ana", "Bob"), cards("3c 4c")),
        SharedHand(("Bob", "Cleo"), cards("Ac 6h")),
        SharedHand(("Cleo", "Ana"), cards("Kc 2s")),
    ),
)

TABLES = {
    "classic": Table(_players("As Ad", "Kc Qc", "7h 8h", "2d 2s"), cards("2h 9s Jc 4h Td")),
    "classic-3-cards": Table(_players("As Ad 3c", "Kc Qc Qd", "7h 8h 9h"), cards("2h 9s Jc 4h Td")),
    "two-of-four": Table(
        _players("As Ad Kd Kh", "Kc Qc Jd Js", "7h 8h 6c 5c"),
        cards("2h 9s Jc 4h Td"),
        variant="two-of-four",
    ),
    "four-two-hands": Table(
        _players("As Ad Kd Kh", "Kc Qc Jd Js", "7h 8h 6c 5c"),
        cards("2h 9s Jc 4h Td"),
        variant="four-two-hands",
    ),
    "high-low": Table(
        _players("As Ad Kd Kh", "Kc Qc Jd Js", "7h 8h 6c 5c"),
        cards("2h 9s Jc 4h Td"),
        variant="high-low",
    ),
    "francois": Table(
        _francois(("As Ad Kd", "3s"), ("Kc Qc Jd", "9c"), ("7h 8h 6c", "Qs")),
        cards("2h 9s Jc 4h Td"),
        variant="francois",
    ),
    "circular": CIRCULAR,
    "six-three-hands": Table(
        _players("As Ad Kd Kh 3c 3d", "Kc Qc Jd Js 8h 7h"),
        cards("2h 9s Jc 4h Td"),
        variant="six-three-hands",
    ),
    "two-rivers": Table(
        _players("As Ad", "Kc Qc", "7h 8h"),
        cards("2h 9s Jc 4h Td"),
        two_rivers=True,
        board2=cards("3d 6s Ks 5h 8c"),
    ),
    "two-rivers-four-two": Table(
        _players("As Ad Kd Kh", "Kc Qc Jd Js"),
        cards("2h 9s Jc 4h Td"),
        variant="four-two-hands",
        two_rivers=True,
        board2=cards("3d 6s Ks 5h 8c"),
    ),
    # Ten players hold 40 cards: 90 deals of both rivers' ends at the flop.
    "two-rivers-four-two-ten": Table(
        _players(
            "As Ad Kd Kh",
            "Kc Qc Jd Js",
            "2c 3c 4c 5c",
            "6d 6h 7d 7s",
            "8d 9d Th Ts",
            "Qs Qd Ah Ac",
            "Jh 2s 3s 4s",
            "5s 6c 7c 8h",
            "9h 2d 3d 4d",
            "5d 6s 7h 8s",
        ),
        cards("2h 9s Jc 4h Td"),
        variant="four-two-hands",
        two_rivers=True,
        board2=cards("3h Ks 5h 8c Qh"),
    ),
    "six-three-low-27": Table(
        _players("As Ad Kd Kh 3c 3d", "Kc Qc Jd Js 8h 7h"),
        cards("2h 9s Jc 4h Td"),
        variant="six-three-hands",
        rules=TableRules(ranking=Ranking.LOW_27),
    ),
    "six-three-wild": Table(
        _players("* Ad Kd Kh 3c 3d", "Kc Qc Jd Js 8h 7h"),
        cards("2h 9s Jc 4h Td"),
        variant="six-three-hands",
    ),
    "low-a5": Table(
        _players("As 2d", "Kc Qc", "7h 8h", "3d 4s"),
        cards("2h 9s Jc 5h Td"),
        rules=TableRules(ranking=Ranking.LOW_A5),
    ),
    "low-27": Table(
        _players("As 2d", "Kc Qc", "7h 8h", "3d 4s"),
        cards("2h 9s Jc 5h Td"),
        rules=TableRules(ranking=Ranking.LOW_27),
    ),
    "wrap": Table(
        _players("As 2d", "Kc Qc", "7h 8h", "3d 4s"),
        cards("2h 9s Jc 5h Td"),
        rules=TableRules(straights=Straights.WRAP),
    ),
    "two-decks": Table(
        _players("As Ad", "As Kc", "7h 8h"), cards("Ah 9s Jc 4h Td"), rules=TableRules(decks=2)
    ),
    "wild-in-hand": Table(_players("* Ad", "Kc Qc", "7h 8h", "2d 2s"), cards("2h 9s Jc 4h Td")),
    "wild-on-river": Table(_players("As Ad", "Kc Qc", "7h 8h", "2d 2s"), cards("2h 9s Jc *h Td")),
}

# Enumerations whose brute force takes more than a few seconds.
SLOW_AT_TURN = {"two-rivers-four-two", "two-rivers-four-two-ten"}  # and own views
SLOW_AT_FLOP = {
    "classic-3-cards",
    "two-of-four",
    "four-two-hands",
    "high-low",
    "francois",
    "circular",
    "wild-in-hand",
    "wild-on-river",
    "two-decks",
    "six-three-hands",
    "six-three-low-27",
    "two-rivers",
}
# Two rivers of four-two hands at the flop: 442,890 deals of three players' hands, too many
# showdowns to brute-force (its ten-player table is checked instead); a wild six-three hand at
# the flop takes half a minute of showdowns (its rules are checked at the turn, and at the flop
# without the wild card).
TURN_ONLY = {"two-rivers-four-two", "six-three-wild"}
# Exact within the default budget everywhere but here, where the general path would sample:
# 666 flop deals of six-three hands valued through the hand former.
OVER_BUDGET = {("six-three-low-27", Street.FLOP)}


def _as_dict(odds: tuple[HandOdds, ...]) -> dict[str, list[float]]:
    return {h.hand_id: list(h.positions) for h in odds}


def _assert_close(got: dict[str, list[float]], want: dict[str, list[float]]) -> None:
    assert got.keys() == want.keys()
    for hand_id in want:
        assert got[hand_id] == pytest.approx(want[hand_id], abs=1e-9), hand_id


def _cases() -> list[object]:
    cases: list[object] = []
    for name in TABLES:
        marks = [pytest.mark.slow] if name in SLOW_AT_TURN else []
        cases.append(pytest.param(name, Street.TURN, id=f"{name}-turn", marks=marks))
        if name not in TURN_ONLY:
            marks = [pytest.mark.slow] if name in SLOW_AT_FLOP else []
            cases.append(pytest.param(name, Street.FLOP, id=f"{name}-flop", marks=marks))
    return cases


@pytest.mark.parametrize(("name", "street"), _cases())
def test_everyone_matches_brute_force(name: str, street: Street) -> None:
    table = TABLES[name]
    odds = everyone_odds(table, street, EXACT if (name, street) in OVER_BUDGET else Settings())
    assert all(h.method.exact and h.method.std_error == 0 for h in odds)
    _assert_close(_as_dict(odds), oracle(table, street.known))


@pytest.mark.parametrize(
    "name", ["classic", "low-27", "two-rivers", "two-rivers-four-two", "circular"]
)
def test_everyone_at_the_river_is_the_showdown(name: str) -> None:
    table = TABLES[name]
    odds = everyone_odds(table, Street.RIVER)
    assert _as_dict(odds) == _positions(table)
    assert {h.method.count for h in odds} == {1}


def test_a_numpy_path_values_every_variant_and_rule() -> None:
    for name, table in TABLES.items():
        assert uses_fast_path(table), name


@pytest.mark.parametrize(
    "name",
    [
        "classic",
        "two-of-four",
        "four-two-hands",
        "circular",
        "two-rivers",
        "two-rivers-four-two",
        "six-three-hands",
    ],
)
def test_numpy_path_matches_the_hand_formers(name: str) -> None:
    table = TABLES[name]
    general = everyone_odds(table, Street.TURN, replace(EXACT, numpy=False))
    _assert_close(_as_dict(everyone_odds(table, Street.TURN)), _as_dict(general))


def test_preflop_six_players_sums_to_one() -> None:
    table = Table(
        _players("As Kd", "2c 2d", "7h 8h", "Qc Jc", "3s 4s", "9d 9c"), cards("Th Js 5c 6d Ah")
    )
    odds = everyone_odds(table, Street.PREFLOP)
    assert {h.method.count for h in odds} == {658_008}
    for hand in odds:
        assert sum(hand.positions) == pytest.approx(1)
        assert 1 <= hand.expected <= 6
    # Each position is taken by exactly one hand's share on every board.
    for k in range(6):
        assert sum(h.positions[k] for h in odds) == pytest.approx(1)
    assert sum(h.expected for h in odds) == pytest.approx(21)


def _own_brute_force(table: Table, owner: int) -> dict[str, list[float]]:
    """At the river: average over every deal of the other players' cards (one opponent)."""
    me = table.players[owner]
    deck = _unseen(table, list(me.cards) + list(table.board))
    (other,) = [i for i in range(len(table.players)) if i != owner]
    size = len(table.players[other].cards)
    totals: Counter[tuple[str, int]] = Counter()
    count = 0
    for chosen in itertools.combinations(range(len(deck)), size):
        players = list(table.players)
        players[other] = replace(players[other], cards=tuple(deck[i] for i in chosen))
        for hand_id, row in _positions(replace(table, players=tuple(players))).items():
            for k, share in enumerate(row):
                totals[hand_id, k] += share
        count += 1
    n = len(run_showdown(table).hands)
    return {h: [totals[h, k] / count for k in range(n)] for h, _ in totals}


@pytest.mark.parametrize("name", ["classic", "low-a5"])
def test_own_view_at_the_river_matches_brute_force(name: str) -> None:
    table = replace(TABLES[name], players=TABLES[name].players[:2])
    odds = own_odds(table, Street.RIVER, EXACT)
    for owner, hand in enumerate(odds):
        assert hand.method.exact
        want = _own_brute_force(table, owner)[hand.hand_id]
        assert list(hand.positions) == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize(
    "name",
    ["classic", "two-of-four", "four-two-hands", "two-rivers", "two-rivers-four-two", "circular"],
)
def test_own_view_values_rank_hands_as_the_hand_formers(name: str) -> None:
    # The own view deals every player's (and shared hand's) cards per row; on 300 random deals,
    # each hand's count of weaker and equal hands must be the showdown's (hands formed by the
    # variant).
    table = TABLES[name]
    rng = random.Random(11)
    sizes = [len(p.cards) for p in table.players] + [len(h.cards) for h in table.shared]
    rivers = 2 if table.two_rivers else 1
    deals = [rng.sample(DECK, sum(sizes) + 5 * rivers) for _ in range(300)]
    spans = list(itertools.pairwise(itertools.accumulate(sizes, initial=0)))
    rows = {k: np.array([[c.id for c in d[a:b]] for d in deals]) for k, (a, b) in enumerate(spans)}
    n = len(table.players)
    starts = [sum(sizes) + 5 * r for r in range(rivers)]
    boards = [
        board_values.card_masks(np.array([[c.id for c in d[a : a + 5]] for d in deals]))
        for a in starts
    ]
    values = own_view_values(
        table,
        boards,
        {i: rows[i] for i in range(n)},
        {j: rows[n + j] for j in range(len(table.shared))},
    )
    for row, dealt in enumerate(deals):
        groups = [tuple(dealt[a:b]) for a, b in spans]
        rebuilt = replace(
            table,
            players=tuple(
                replace(p, cards=c) for p, c in zip(table.players, groups[:n], strict=True)
            ),
            shared=tuple(
                replace(h, cards=c) for h, c in zip(table.shared, groups[n:], strict=True)
            ),
            board=tuple(dealt[starts[0] : starts[0] + 5]),
            board2=tuple(dealt[starts[-1] : starts[-1] + 5]) if rivers == 2 else (),
        )
        want = _positions(rebuilt)
        got = {h: int(v[row]) for h, v in values.items()}
        assert got.keys() == want.keys()
        for hand_id, shares in want.items():
            weaker = sum(v < got[hand_id] for v in got.values())
            equal = sum(v == got[hand_id] for v in got.values())
            taken = [k for k, share in enumerate(shares) if share > 0]
            assert (weaker, equal) == (taken[0], len(taken)), (row, hand_id)


@pytest.mark.parametrize(
    ("name", "samples", "max_error"),
    [
        ("two-of-four", 10_000, 0.0051),
        ("four-two-hands", 10_000, 0.0051),
        ("two-rivers", 10_000, 0.0051),
        ("two-rivers-four-two", 10_000, 0.0051),
        ("circular", 10_000, 0.0051),
        ("six-three-hands", 10_000, 0.0051),
    ],
)
def test_own_view_on_the_numpy_path_agrees_with_the_hand_formers(
    name: str, samples: int, max_error: float
) -> None:
    table = TABLES[name]
    fast = own_odds(table, Street.TURN)
    slow = own_odds(table, Street.TURN, Settings(numpy=False, budget_s=0.01, min_samples=200))
    for f, g in zip(fast, slow, strict=True):
        assert f.method.count == samples and g.method.count == 200
        assert 0 < f.method.std_error < max_error
        bar = 5 * math.hypot(f.method.std_error, g.method.std_error)
        for p, q in zip(f.positions, g.positions, strict=True):
            assert abs(p - q) <= bar


def test_own_view_sampling_agrees_with_exact_within_its_error() -> None:
    table = replace(TABLES["classic"], players=TABLES["classic"].players[:2])
    exact = own_odds(table, Street.TURN)
    sampled = own_odds(table, Street.TURN, Settings(own_exact_limit=0, seed=3))
    for e, s in zip(exact, sampled, strict=True):
        assert e.method.exact and not s.method.exact
        assert s.method.count == 10_000 and s.method.seed == 3  # enough for a 0.5 % error
        assert 0 < s.method.std_error < 0.01
        for p, q in zip(e.positions, s.positions, strict=True):
            assert abs(p - q) <= 5 * s.method.std_error


def test_fast_sampling_agrees_with_exact_within_its_error() -> None:
    table = TABLES["classic"]
    exact = everyone_odds(table, Street.PREFLOP)
    sampled = everyone_odds(table, Street.PREFLOP, Settings(fast_exact_limit=0))
    assert exact[0].method.count == 1_086_008 and sampled[0].method.count == 27_778
    for e, s in zip(exact, sampled, strict=True):
        assert not s.method.exact and 0 < s.method.std_error < 0.01
        for p, q in zip(e.positions, s.positions, strict=True):
            assert abs(p - q) <= 5 * s.method.std_error


def test_two_rivers_at_the_flop_agree_with_sampled_hand_formers() -> None:
    # 548,340 completions: exact on the numpy path, sampled through the hand formers.
    table = TABLES["two-rivers"]
    exact = everyone_odds(table, Street.FLOP)
    unseen = 52 - 6 - 6
    assert exact[0].method.exact
    assert exact[0].method.count == math.comb(unseen, 2) * math.comb(unseen - 2, 2)
    sampled = everyone_odds(
        table, Street.FLOP, Settings(numpy=False, budget_s=0.01, min_samples=1500)
    )
    for e, s in zip(exact, sampled, strict=True):
        assert not s.method.exact and s.method.count == 1500
        for p, q in zip(e.positions, s.positions, strict=True):
            assert abs(p - q) <= 5 * s.method.std_error + 1e-3


def test_general_sampling_is_seeded_and_states_its_error() -> None:
    table = TABLES["low-27"]
    tight = Settings(budget_s=0.05, samples=400, min_samples=400)
    first = everyone_odds(table, Street.PREFLOP, tight)
    assert first == everyone_odds(table, Street.PREFLOP, tight)
    assert all(not h.method.exact and h.method.count == 400 for h in first)
    assert 0 < first[0].method.std_error < 0.05
    assert "400 samples (seed 0)" in method_text(first[0].method)
    other = everyone_odds(table, Street.PREFLOP, replace(tight, seed=1))
    assert other != first


@settings(max_examples=8, deadline=None)
@given(
    dealt=st.lists(st.sampled_from(DECK), min_size=17, max_size=17, unique=True),
    variant=st.sampled_from(["two-of-four", "four-two-hands", "circular"]),
)
def test_numpy_path_matches_the_hand_formers_on_random_deals(
    dealt: list[Card], variant: str
) -> None:
    names = ("Ana", "Bob", "Cleo")
    if variant == "circular":
        players = tuple(Player(n, tuple(dealt[2 * i : 2 * i + 2])) for i, n in enumerate(names))
        shared = tuple(
            SharedHand((names[i], names[(i + 1) % 3]), tuple(dealt[6 + 2 * i : 8 + 2 * i]))
            for i in range(3)
        )
    else:
        players = tuple(Player(n, tuple(dealt[4 * i : 4 * i + 4])) for i, n in enumerate(names))
        shared = ()
    table = Table(players, tuple(dealt[12:]), variant=variant, shared=shared)
    general = everyone_odds(table, Street.TURN, replace(EXACT, numpy=False))
    _assert_close(_as_dict(everyone_odds(table, Street.TURN)), _as_dict(general))


QUICK = Settings(budget_s=0.2, samples=300, min_samples=20)


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW_AT_TURN else []) for n in TABLES]
)
def test_own_view_of_every_variant_is_a_distribution(name: str) -> None:
    table = TABLES[name]
    odds = street_odds(table, Street.TURN, QUICK)
    assert [h.hand_id for h in odds.own] == [h.hand_id for h in odds.everyone]
    assert odds.board == table.board[:4]
    assert odds.board2 == (table.board2[:4] if table.two_rivers else ())
    for hand in odds.own:
        assert sum(hand.positions) == pytest.approx(1)
        assert hand.method.exact or 0 < hand.method.count <= 300
    # Hands of one owner share one deal of the unknown cards.
    by_owner: dict[str, set[object]] = {}
    for hand in odds.own:
        by_owner.setdefault(hand.owner, set()).add(hand.method)
    assert all(len(methods) == 1 for methods in by_owner.values())


def test_own_view_knows_only_the_own_cards() -> None:
    table = replace(TABLES["classic"], players=TABLES["classic"].players[:2])
    # Ana's view does not depend on Bob's actual cards.
    swapped = replace(table, players=(table.players[0], Player("Bob", cards("3c 3d"))))
    assert own_odds(table, Street.FLOP)[0] == own_odds(swapped, Street.FLOP)[0]
    assert everyone_odds(table, Street.FLOP)[0] != everyone_odds(swapped, Street.FLOP)[0]


DEALS = st.lists(st.sampled_from(DECK), min_size=11, max_size=11, unique=True)


@settings(max_examples=10, deadline=None)
@given(
    dealt=DEALS,
    order=st.permutations(range(3)),
    rules=st.sampled_from([TableRules(), TableRules(ranking=Ranking.LOW_27)]),
)
def test_order_of_players_does_not_matter(
    dealt: list[Card], order: list[int], rules: TableRules
) -> None:
    names = ("Ana", "Bob", "Cleo")
    players = tuple(Player(n, tuple(dealt[2 * i : 2 * i + 2])) for i, n in enumerate(names))
    table = Table(players, tuple(dealt[6:]), rules=rules)
    shuffled = replace(table, players=tuple(players[i] for i in order))
    for street in (Street.TURN, Street.FLOP):
        want = _as_dict(everyone_odds(table, street, EXACT))
        _assert_close(_as_dict(everyone_odds(shuffled, street, EXACT)), want)
    # The own view is exact for two players at the river (one opponent's two cards).
    pair = replace(table, players=players[:2])
    swapped = replace(table, players=players[1::-1])
    _assert_close(_as_dict(own_odds(swapped, Street.RIVER)), _as_dict(own_odds(pair, Street.RIVER)))


TOKENS = {
    "flop": {"Ana": 1, "Bob": 4, "Cleo": 3, "Dan": 2},
    "river": {"Ana": 1, "Bob": 4, "Cleo": 3, "Dan": 2},  # two straights beat three twos
}


def test_mistakes_flag_tokens_far_from_the_likely_position() -> None:
    table = TABLES["classic"]
    replay = replay_table(table, TOKENS)
    flop = next(s for s in replay.streets if s.street is Street.FLOP)
    ana = next(h for h in flop.everyone if h.hand_id == "Ana")
    assert ana.most_likely == 3  # aces, but Dan flopped three twos
    mistakes = {(m.street, m.hand_id): m for m in replay.mistakes}
    assert (Street.FLOP, "Ana") in mistakes
    flagged = mistakes[Street.FLOP, "Ana"]
    assert (flagged.token, flagged.most_likely) == (1, 3)
    assert flagged.p_token == pytest.approx(ana.positions[0])
    assert not any(m.street is Street.RIVER for m in replay.mistakes)  # right at the river
    gaps = [m.gap for m in replay.mistakes]
    assert gaps == sorted(gaps, reverse=True)
    text = mistake_text(flagged)
    assert text == (
        f"at the flop Ana was most likely the 3, not the 1 "
        f"({round(100 * ana.positions[2])}% against {round(100 * ana.positions[0])}%)"
    )
    assert mistake_text(flagged, "fr").startswith("au flop, Ana était le plus probablement le 3")


def test_no_mistake_without_tokens() -> None:
    streets = tuple(street_odds(TABLES["classic"], s) for s in (Street.TURN, Street.RIVER))
    assert find_mistakes(streets) == ()


def test_tokens_are_checked() -> None:
    with pytest.raises(TableError, match="Zoe"):
        street_odds(TABLES["classic"], Street.FLOP, tokens={"Zoe": 1})


def test_chart_data_is_plain_lists_per_hand_view_and_street() -> None:
    replay = replay_table(replace(TABLES["classic"], players=TABLES["classic"].players[:2]))
    chart = chart_data(replay)
    assert set(chart) == {"Ana", "Bob"}
    assert set(chart["Ana"]) == {"everyone", "own"}
    assert list(chart["Ana"]["everyone"]) == ["preflop", "flop", "turn", "river"]
    assert all(isinstance(p, float) for p in chart["Bob"]["own"]["turn"])
    assert sum(chart["Bob"]["everyone"]["flop"]) == pytest.approx(1)
