"""The replay's numpy path under every table rule (``rule_path``) against the variants' own hand
formers (the general path), on random tables of every variant, ranking, straights rule, decks
and wild cards, dealt with fixed seeds."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest

from companion.engine.cards import DECK, Card, Suit
from companion.engine.gang.ranking import Ranking, Straights, TableRules
from companion.engine.gang.replay.deals import Key
from companion.engine.gang.replay.odds import (
    HandOdds,
    Settings,
    Street,
    everyone_odds,
    own_odds,
    replay_table,
    street_error,
)
from companion.engine.gang.replay.rule_path import codes, rule_values, samples_for
from companion.engine.gang.table import Player, SharedHand, Table
from tests.helpers import cards, clear_engine_tables

GENERAL = Settings(budget_s=1e9, numpy=False)  # every deal through the hand formers
NAMES = ("Ana", "Bob", "Cleo")
WILDS = (Card(None, None), Card(None, Suit.HEARTS))


@pytest.fixture(autouse=True)
def _tables_per_test() -> Iterator[None]:
    # Each test draws its own rule set: the tables of one are of no use to the next.
    yield
    clear_engine_tables()


def _rules(rng: random.Random) -> TableRules:
    ranking = rng.choice(list(Ranking))
    straights = Straights.NORMAL if ranking is Ranking.LOW_A5 else rng.choice(list(Straights))
    return TableRules(ranking, straights, rng.choice((1, 2)))


def random_table(variant: str, seed: int) -> Table:
    """A table of ``variant`` with random rules, cards and maybe a wild card or two."""
    rng = random.Random(f"{variant}:{seed}")
    rules = _rules(rng)
    deck = list(DECK) * rules.decks
    rng.shuffle(deck)
    for _ in range(rng.choice((0, 0, 1))):
        deck.insert(rng.randrange(12), rng.choice(WILDS))
    two_rivers = variant in ("classic", "four-two-hands") and rng.random() < 0.3

    def take(n: int) -> tuple[Card, ...]:
        return tuple(deck.pop(0) for _ in range(n))

    players: tuple[Player, ...]
    shared: tuple[SharedHand, ...] = ()
    if variant == "classic":
        sizes = [2, 2] if two_rivers else [rng.choice((1, 2, 3)) for _ in range(rng.choice((2, 3)))]
        players = tuple(Player(n, take(k)) for n, k in zip(NAMES, sizes, strict=False))
    elif variant == "francois":
        players = tuple(Player(n, take(2), take(1)[0]) for n in NAMES[:2])
    elif variant == "circular":
        players = tuple(Player(n, take(2)) for n in NAMES)
        shared = tuple(SharedHand((NAMES[i], NAMES[(i + 1) % 3]), take(2)) for i in range(3))
    elif variant == "six-three-hands":
        players = tuple(Player(n, take(6)) for n in NAMES[:2])
    else:
        players = tuple(Player(n, take(4)) for n in NAMES[:2])
    board2 = take(5) if two_rivers else ()
    return Table(players, take(5), variant, rules, two_rivers, board2, shared)


def _close(a: tuple[HandOdds, ...], b: tuple[HandOdds, ...]) -> None:
    assert [h.hand_id for h in a] == [h.hand_id for h in b]
    for x, y in zip(a, b, strict=True):
        assert x.positions == pytest.approx(y.positions, abs=1e-9), x.hand_id


VARIANTS = [  # six-three-hands: below, its hand former is slow
    "classic",
    "two-of-four",
    "four-two-hands",
    "high-low",
    "francois",
    "circular",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(
    "seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in (1, 2, 3))]
)
def test_rule_path_matches_the_hand_formers_knowing_every_card(variant: str, seed: int) -> None:
    table = random_table(variant, seed)
    fast = everyone_odds(table, Street.TURN)
    assert all(h.method.exact for h in fast)
    _close(fast, everyone_odds(table, Street.TURN, GENERAL))


@pytest.mark.parametrize(
    "seed", [0, 11, *(pytest.param(seed, marks=pytest.mark.slow) for seed in (1, 12, 15, 19))]
)
@pytest.mark.parametrize("street", [Street.TURN, Street.RIVER])
def test_six_three_hands_on_the_rule_path_match_the_hand_former(seed: int, street: Street) -> None:
    # Seed 11: 2-7 lowball, wrap, two decks and a wild card; the turn's 36 deals (or so) each
    # split both players' six cards afresh.
    table = random_table("six-three-hands", seed)
    fast = everyone_odds(table, street)
    assert all(h.method.exact for h in fast)
    _close(fast, everyone_odds(table, street, GENERAL))


@pytest.mark.parametrize("seed", range(4))
def test_rule_path_matches_the_hand_formers_from_own_cards(seed: int) -> None:
    # Two players knowing only their own cards at the river: every deal of the other's cards.
    table = random_table("classic", seed)
    players = tuple(replace(p, cards=p.cards[:2]) for p in table.players[:2])
    table = replace(table, players=players, two_rivers=False, board2=())
    fast = own_odds(table, Street.RIVER, Settings(rules_exact_limit=10**9))
    assert all(h.method.exact for h in fast)
    _close(fast, own_odds(table, Street.RIVER, GENERAL))


def test_sampling_keeps_the_standard_error_within_the_targets() -> None:
    table = random_table("high-low", 1)
    everyone = everyone_odds(table, Street.PREFLOP)
    own = own_odds(table, Street.FLOP)
    assert not everyone[0].method.exact and everyone[0].method.count == samples_for(0.003)
    assert 0 < max(h.method.std_error for h in everyone) <= 0.003
    assert 0 < max(h.method.std_error for h in own) <= 0.005
    again = everyone_odds(table, Street.PREFLOP)
    assert again == everyone  # seeded


def test_sampled_odds_agree_with_exact_ones_within_their_error() -> None:
    players = (Player("Ana", cards("Ah *")), Player("Bob", cards("7c 5d")))
    table = Table(players, cards("2h 9s Jc 4h Td"), rules=TableRules(Ranking.LOW_27))
    exact = everyone_odds(table, Street.PREFLOP, Settings(rules_exact_limit=10**9))
    sampled = everyone_odds(table, Street.PREFLOP)
    assert exact[0].method.exact and not sampled[0].method.exact
    for e, s in zip(exact, sampled, strict=True):
        for p, q in zip(e.positions, s.positions, strict=True):
            assert abs(p - q) <= 5 * s.method.std_error + 1e-12


def test_replay_reports_each_street_as_it_is_done() -> None:
    table = random_table("two-of-four", 0)
    heard: list[str] = []
    replay = replay_table(table, progress=lambda odds: heard.append(odds.street.value))
    assert heard == [s.value for s in Street]
    assert street_error(replay.streets[-1]) <= 0.005
    assert street_error(replay.streets[0]) > 0  # pre-flop is sampled, its error stated


@pytest.mark.parametrize("variant", [*VARIANTS, "six-three-hands"])
def test_a_hand_valued_once_per_distinct_board_gets_each_rows_value(variant: str) -> None:
    # Cards the same on every row and boards that repeat (a late street's samples): each
    # distinct board is valued once; every row must still get its own board's value.
    table = random_table(variant, 7)
    rng = np.random.default_rng(7)
    used = {c for p in table.players for c in p.cards} | {c for s in table.shared for c in s.cards}
    free = np.array([codes((c,))[0] for c in DECK if c not in used])
    distinct = np.stack(
        [rng.choice(free, 5 * (1 + table.two_rivers), replace=False) for _ in range(3)]
    )
    boards = distinct[rng.integers(0, 3, size=40)]
    rivers = np.split(boards, 1 + table.two_rivers, axis=1)
    groups: dict[Key, np.ndarray] = {
        ("cards", i): np.broadcast_to(codes(p.cards), (40, len(p.cards)))
        for i, p in enumerate(table.players)
    }
    groups |= {
        ("shared", j): np.broadcast_to(codes(s.cards), (40, 2)) for j, s in enumerate(table.shared)
    }
    for i, p in enumerate(table.players):
        if p.francois_card is not None:
            groups[("francois", i)] = np.broadcast_to(codes((p.francois_card,)), (40, 1))
    together = rule_values(table, [np.ascontiguousarray(r) for r in rivers], groups)
    for row in (0, 1, 39):
        alone = rule_values(
            table,
            [np.ascontiguousarray(r[row : row + 1]) for r in rivers],
            {k: g[row : row + 1] for k, g in groups.items()},
        )
        assert {k: int(v[row]) for k, v in together.items()} == {
            k: int(v[0]) for k, v in alone.items()
        }
