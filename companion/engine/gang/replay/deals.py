"""The deals a replay counts: which cards are fixed at a street, and every way to deal the rest.

A table's cards lie in groups (each river, each player's cards, François's cards, shared hands),
keyed by kind and index. At a street, from one point of view, some groups are known and the
rest (with the unseen end of each river) are dealt from the pool of cards nobody saw; the deck
is ``decks`` x 52 natural cards plus every wild card seen at the table.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from companion.engine.cards import DECK, Card
from companion.engine.gang.replay import board_values
from companion.engine.gang.replay.records import Street
from companion.engine.gang.table import FRANCOIS, Hand, Table

__all__ = [
    "Key",
    "Dealt",
    "Deal",
    "table_groups",
    "rebuilt",
    "deal_at",
    "known_groups",
    "exact_deals",
    "sampled_deals",
    "joint_combinations",
    "sampled_positions",
]

Key = tuple[str, int]


def table_groups(table: Table) -> dict[Key, tuple[Card, ...]]:
    """Every place cards lie at the table, keyed by kind and index."""
    groups: dict[Key, tuple[Card, ...]] = {("board", 0): table.board}
    if table.two_rivers:
        groups[("board", 1)] = table.board2
    for i, p in enumerate(table.players):
        groups[("cards", i)] = p.cards
        if p.francois_card is not None:
            groups[("francois", i)] = (p.francois_card,)
    for j, s in enumerate(table.shared):
        groups[("shared", j)] = s.cards
    return groups


def rebuilt(table: Table, groups: Mapping[Key, tuple[Card, ...]]) -> Table:
    players = tuple(
        replace(
            p,
            cards=groups[("cards", i)],
            francois_card=groups[("francois", i)][0] if ("francois", i) in groups else None,
        )
        for i, p in enumerate(table.players)
    )
    shared = tuple(replace(s, cards=groups[("shared", j)]) for j, s in enumerate(table.shared))
    return replace(
        table,
        players=players,
        board=groups[("board", 0)],
        board2=groups.get(("board", 1), ()),
        shared=shared,
    )


@dataclass(frozen=True)
class Deal:
    """What is fixed at a street from one point of view, and what is dealt from the pool."""

    fixed: dict[Key, tuple[Card, ...]]  # whole known groups and the known start of each river
    unknown: tuple[tuple[Key, int], ...]  # groups (or river ends) to deal, with their sizes
    pool: tuple[Card, ...]  # the cards they come from, one entry per physical card

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(size for _, size in self.unknown)

    @property
    def count(self) -> int:
        return board_values.count_deals(len(self.pool), self.sizes)

    def groups(self, dealt: tuple[tuple[Card, ...], ...]) -> dict[Key, tuple[Card, ...]]:
        groups = dict(self.fixed)
        for (key, _), cards in zip(self.unknown, dealt, strict=True):
            groups[key] = groups.get(key, ()) + cards
        return groups


def deal_at(table: Table, street: Street, known: frozenset[Key] | None) -> Deal:
    """The deal from the view of someone who knows the ``known`` groups (None: all hole cards)."""
    groups = table_groups(table)
    fixed: dict[Key, tuple[Card, ...]] = {}
    unknown: list[tuple[Key, int]] = []
    for key, cards in groups.items():
        if key[0] == "board":
            fixed[key] = cards[: street.known]
            if street.known < len(cards):
                unknown.append((key, len(cards) - street.known))
        elif known is None or key in known:
            fixed[key] = cards
        else:
            unknown.append((key, len(cards)))
    deck = Counter({card: table.rules.decks for card in DECK})
    deck.update(c for cards in groups.values() for c in cards if c.is_wild)
    deck.subtract(c for cards in fixed.values() for c in cards)
    pool = tuple(card for card, n in deck.items() for _ in range(n))
    return Deal(fixed, tuple(unknown), pool)


def known_groups(table: Table, hand: Hand) -> frozenset[Key]:
    """The groups whose cards the hand's owner saw: their cards (and card for François)."""
    if hand.owner == FRANCOIS:
        return frozenset(
            ("francois", i) for i, p in enumerate(table.players) if p.francois_card is not None
        )
    for j, s in enumerate(table.shared):
        if s.id == hand.owner:
            return frozenset({("shared", j)})
    i = next(i for i, p in enumerate(table.players) if p.name == hand.owner)
    return frozenset({("cards", i), ("francois", i)})


Dealt = tuple[tuple[Card, ...], ...]  # the cards of each unknown group, in order


def exact_deals(pool: tuple[Card, ...], sizes: tuple[int, ...]) -> Iterator[Dealt]:
    if not sizes:
        yield ()
        return
    for chosen in itertools.combinations(range(len(pool)), sizes[0]):
        taken = set(chosen)
        rest = tuple(c for i, c in enumerate(pool) if i not in taken)
        head = tuple(pool[i] for i in chosen)
        for tail in exact_deals(rest, sizes[1:]):
            yield (head, *tail)


def sampled_deals(
    pool: tuple[Card, ...], sizes: tuple[int, ...], rng: random.Random, samples: int
) -> Iterator[Dealt]:
    cut = list(itertools.accumulate(sizes, initial=0))
    for _ in range(samples):
        drawn = rng.sample(pool, cut[-1])
        yield tuple(tuple(drawn[a:b]) for a, b in itertools.pairwise(cut))


def joint_combinations(pool: int, sizes: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """Every deal of disjoint groups of these sizes from ``range(pool)``, one row per deal."""
    rows = np.zeros((1, 0), dtype=np.int64)
    for size in sizes:
        combos = board_values.combinations_array(pool, size).astype(np.int64)
        left = np.repeat(np.arange(len(rows)), len(combos))
        right = np.tile(np.arange(len(combos)), len(rows))
        # Disjoint when no card of the new group is among the row's (a 64-bit mask cannot hold
        # two decks' pool, so the columns are compared).
        keep = np.ones(len(left), dtype=bool)
        for a in range(rows.shape[1]):
            for b in range(size):
                keep &= rows[left, a] != combos[right, b]
        left, right = left[keep], right[keep]
        rows = np.concatenate([rows[left], combos[right]], axis=1)
    return rows


def sampled_positions(
    rng: np.random.Generator, samples: int, pool: int, size: int
) -> npt.NDArray[np.int64]:
    """(samples, size): uniform ordered draws without replacement from ``range(pool)``, one
    per row, by the first ``size`` steps of a Fisher-Yates shuffle done for every row at once
    (sorting a random key per card, the obvious way, costs ``pool`` log ``pool`` a row)."""
    if not 0 <= size <= pool:
        raise ValueError(f"cannot draw {size} of {pool}")  # a bug: deals never ask for it
    rows = np.arange(samples)
    drawn = np.tile(np.arange(pool, dtype=np.int64), (samples, 1))
    for step in range(size):
        pick = rng.integers(step, pool, size=samples)
        chosen = drawn[rows, pick]
        drawn[rows, pick] = drawn[:, step]
        drawn[:, step] = chosen
    return np.ascontiguousarray(drawn[:, :size])
