"""House variants of The Gang as data: what each deals, and how its cards form the hands that
take tokens.

A new variant is one ``Variant`` entry in ``VARIANTS`` (what it deals, a hand former, the work
a deal costs) plus its tests; nothing outside this registry looks at variant names.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from companion.engine.cards import Card
from companion.engine.gang.ranking import (
    HandValue,
    TableRules,
    best_hand,
    five_strength,
    partial_value,
    stood_hand,
)
from companion.engine.gang.table import FRANCOIS, Hand, Player, Table
from companion.errors import TableCode, TableError
from companion.messages import Phrase, phrase

__all__ = ["Deals", "NumpyForm", "Variant", "VARIANTS", "HandFormer", "variant_of"]


@dataclass(frozen=True)
class Deals:
    """What a variant deals: each player's hole cards, and what else lies on the table."""

    hole_cards: int | None  # cards each player holds; None: any number (at least one)
    per_player: bool = False  # each of n players holds n cards (François's hand)
    on_two_rivers: int | None = None  # the hole cards dealt when the table plays two rivers
    francois_card: bool = False  # each player gives one card to François's hand
    shared_cards: int = 0  # cards of the hand lying between each two neighbours (circular)

    def hole_count(self, players: int, two_rivers: bool) -> int | None:
        """How many cards each player holds at a table of ``players`` (None: any number)."""
        if self.per_player:
            return players
        if two_rivers and self.on_two_rivers is not None:
            return self.on_two_rivers
        return self.hole_cards


class NumpyForm(Enum):
    """How the replay's numpy path forms a player's hands from their hole cards, when it can.

    ``max_cards``: the most hole cards a player may hold on the standard-rules path (past them,
    or under other rules, the rule path forms the hands); ``work``: how many times a classic
    deal's numpy work one deal takes there.
    """

    ALL_CARDS = ("all", 2, 1)  # one hand per river, from every hole card
    BEST_PAIR = ("best pair", 4, 1)  # the best of any 2 hole cards
    PAIR_SPLIT = ("pair split", 4, 1)  # the cards split in two pairs, one hand each
    THREE_SPLIT = ("three split", 6, 100)  # six cards split into three hands
    HIGH_LOW = ("high and low", 0, 1)  # the best and the worst of any 2 hole cards

    def __init__(self, label: str, max_cards: int, work: int) -> None:
        self.label = label
        self.max_cards = max_cards
        self.work = work


# A hand former: the table's hands, at the showdown or (``stood``) as they stood at the street
# its board was cut to (``ranking.stood_hand``).
HandFormer = Callable[[Table, bool], tuple[Hand, ...]]
Work = Callable[[Table], int]


@dataclass(frozen=True)
class Variant:
    name: str
    deals: Deals
    former: HandFormer
    work: Work  # how many fives the hand former values for one deal (replay cost estimates)
    two_rivers: bool = False  # whether the two-rivers rule may be combined with it
    players: tuple[int, int] = (2, 10)
    numpy: NumpyForm | None = None  # the replay's numpy path, when it covers the variant
    preflop_empty: tuple[str, ...] = ()  # sub-hands (``Ana/3``: "3") empty at pre-flop: no token

    def form(self, table: Table) -> tuple[Hand, ...]:
        """The hands that take tokens at the showdown (every river card out)."""
        return self.former(table, False)

    def form_stood(self, table: Table) -> tuple[Hand, ...]:
        """The hands as they stood with the river(s) cut to the cards out at a street: a hand
        of fewer than five cards is valued as it is (``ranking.stood_hand``)."""
        return self.former(table, True)

    @property
    def title(self) -> Phrase:
        """The variant's name in words, for players."""
        return phrase(f"variant.{self.name}")


def fives_valued(hole: int, max_hole: int | None = None) -> int:
    """How many fives ``best_hand`` values for ``hole`` cards and a river of five."""
    top = min(5, hole if max_hole is None else max_hole)
    return sum(math.comb(hole, j) * math.comb(5, 5 - j) for j in range(top + 1))


def _sizes(table: Table) -> list[int]:
    return [len(p.cards) for p in table.players]


def _pick(values: list[tuple[HandValue, int]]) -> list[tuple[HandValue, int]]:
    """Values sorted strongest first, keeping the river each came from."""
    return sorted(values, key=lambda item: item[0], reverse=True)


def _valuer(stood: bool) -> Callable[..., HandValue]:
    return stood_hand if stood else best_hand


def _best_split(
    player: Player, rivers: tuple[tuple[Card, ...], ...], rules: TableRules, stood: bool
) -> list[tuple[HandValue, int]]:
    """Split 4 cards into two pairs (and, with two rivers, place them) to maximise the stronger
    hand, then the weaker."""
    best: list[tuple[HandValue, int]] | None = None
    value = _valuer(stood)
    cards = player.cards
    for j in range(1, len(cards)):
        first = (cards[0], cards[j])
        second = tuple(c for i, c in enumerate(cards) if i not in (0, j))
        placements = [(0, 1), (1, 0)] if len(rivers) == 2 else [(0, 0)]
        for r1, r2 in placements:
            pair_values = _pick(
                [
                    (value(first, rivers[r1], rules, max_hole=2), r1 + 1),
                    (value(second, rivers[r2], rules, max_hole=2), r2 + 1),
                ]
            )
            key = [v for v, _ in pair_values]
            if best is None or key > [v for v, _ in best]:
                best = pair_values
    if best is None:
        raise TableError(
            TableCode.HOLE_COUNT,
            name=player.name,
            n=len(cards),
            want=4,
            variant=phrase("variant.four-two-hands"),
        )
    return best


def _numbered(player: Player, values: list[tuple[HandValue, int]]) -> tuple[Hand, ...]:
    return tuple(
        Hand(f"{player.name}/{i}", player.name, value, river)
        for i, (value, river) in enumerate(values, start=1)
    )


def _rivers(table: Table) -> tuple[tuple[Card, ...], ...]:
    return table.rivers


def _form_classic(table: Table, stood: bool) -> tuple[Hand, ...]:
    value = _valuer(stood)
    hands: list[Hand] = []
    for p in table.players:
        if table.two_rivers:
            values = _pick(
                [(value(p.cards, b, table.rules), i + 1) for i, b in enumerate(_rivers(table))]
            )
            hands.extend(_numbered(p, values))
        else:
            hands.append(Hand(p.name, p.name, value(p.cards, table.board, table.rules)))
    return tuple(hands)


def _form_two_of_four(table: Table, stood: bool) -> tuple[Hand, ...]:
    value = _valuer(stood)
    return tuple(
        Hand(p.name, p.name, value(p.cards, table.board, table.rules, max_hole=2))
        for p in table.players
    )


def _form_four_two_hands(table: Table, stood: bool) -> tuple[Hand, ...]:
    hands: list[Hand] = []
    for p in table.players:
        hands.extend(_numbered(p, _best_split(p, _rivers(table), table.rules, stood)))
    return tuple(hands)


def _form_high_low(table: Table, stood: bool) -> tuple[Hand, ...]:
    value = _valuer(stood)
    hands: list[Hand] = []
    for p in table.players:
        high = value(p.cards, table.board, table.rules, max_hole=2)
        low = value(p.cards, table.board, table.rules, max_hole=2, worst=True)
        hands += [Hand(f"{p.name}/high", p.name, high), Hand(f"{p.name}/low", p.name, low)]
    return tuple(hands)


def _form_francois(table: Table, stood: bool) -> tuple[Hand, ...]:
    value = _valuer(stood)
    hands = [Hand(p.name, p.name, value(p.cards, table.board, table.rules)) for p in table.players]
    given = tuple(p.francois_card for p in table.players if p.francois_card is not None)
    hands.append(Hand(FRANCOIS, FRANCOIS, value(given, table.board, table.rules)))
    return tuple(hands)


def _form_circular(table: Table, stood: bool) -> tuple[Hand, ...]:
    value = _valuer(stood)
    hands = [Hand(p.name, p.name, value(p.cards, table.board, table.rules)) for p in table.players]
    hands += [Hand(s.id, s.id, value(s.cards, table.board, table.rules)) for s in table.shared]
    return tuple(hands)


def _subset_strengths(
    cards: tuple[Card, ...], board: tuple[Card, ...], rules: TableRules, stood: bool
) -> list[tuple[int, ...]]:
    """For every subset of ``cards`` (bit i: card i), the strength of its best five with the board.

    Each five of hole + board cards is valued once and credited to the subset of hole cards it
    uses; a subset's best five is then the best credited to any of its subsets. That is 462
    valuations for six cards, where valuing each subset on its own takes over 5,000. With
    ``stood``, a subset too small for a five with the board is valued as a partial hand of all
    its cards and the board.
    """
    size = 1 << len(cards)
    best: list[tuple[int, ...] | None] = [None] * size
    for used in range(max(0, 5 - len(board)), min(5, len(cards)) + 1):
        for held in itertools.combinations(range(len(cards)), used):
            mask = sum(1 << i for i in held)
            hole = tuple(cards[i] for i in held)
            for shared in itertools.combinations(board, 5 - used):
                strength = five_strength(hole + shared, rules)
                current = best[mask]
                if current is None or strength > current:
                    best[mask] = strength
    for bit in range(len(cards)):
        for mask in range(size):
            below = best[mask ^ (1 << bit)]
            if mask >> bit & 1 and below is not None:
                current = best[mask]
                if current is None or below > current:
                    best[mask] = below
    if stood:  # after the spread: a partial hand is all its cards, never a larger one's
        for mask in range(size):
            if mask.bit_count() + len(board) < 5:
                subset = tuple(c for i, c in enumerate(cards) if mask >> i & 1)
                best[mask] = partial_value(subset + board, rules).strength
    if any(b is None for b in best):
        raise TableError("hand.too_few_cards", n=len(board))
    return [b for b in best if b is not None]


@functools.cache
def _three_groups(cards: int) -> tuple[tuple[int, int, int], ...]:
    """Every split of ``cards`` cards in three groups (as masks), each split once: the labels
    of card 0, 1, ... in increasing order, a card opening at most the next unused group. The
    first labelling of each split in ``itertools.product`` order is this one, so the choice
    among equal splits is the same as trying every labelling (729 for six cards, not 122)."""
    found: list[tuple[int, int, int]] = []
    for labels in itertools.product(range(3), repeat=cards):
        if all(lab <= max(labels[:i], default=-1) + 1 for i, lab in enumerate(labels)):
            masks = [sum(1 << i for i, lab in enumerate(labels) if lab == g) for g in range(3)]
            found.append((masks[0], masks[1], masks[2]))
    return tuple(found)


def _form_six_three(table: Table, stood: bool) -> tuple[Hand, ...]:
    value = _valuer(stood)
    hands: list[Hand] = []
    for p in table.players:
        strength = _subset_strengths(p.cards, table.board, table.rules, stood)
        best: list[tuple[int, ...]] | None = None
        chosen: tuple[int, ...] = ()
        for masks in _three_groups(len(p.cards)):
            values = sorted((strength[m] for m in masks), reverse=True)
            if best is None or values > best:
                best, chosen = values, masks
        # Only the chosen groups need their explained values (the same as ``best_hand``'s).
        groups = [tuple(c for i, c in enumerate(p.cards) if m >> i & 1) for m in chosen]
        found = sorted((value(g, table.board, table.rules) for g in groups), reverse=True)
        hands.extend(_numbered(p, [(v, 1) for v in found]))
    return tuple(hands)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "classic",
            Deals(None, on_two_rivers=2),
            _form_classic,
            lambda t: len(t.rivers) * sum(fives_valued(k) for k in _sizes(t)),
            two_rivers=True,
            numpy=NumpyForm.ALL_CARDS,
        ),
        Variant(
            "two-of-four",
            Deals(4),
            _form_two_of_four,
            lambda t: sum(fives_valued(k, 2) for k in _sizes(t)),
            numpy=NumpyForm.BEST_PAIR,
        ),
        Variant(
            "four-two-hands",
            Deals(4),
            _form_four_two_hands,
            lambda t: len(t.players) * 3 * 2 * len(t.rivers) * fives_valued(2),
            two_rivers=True,
            numpy=NumpyForm.PAIR_SPLIT,
        ),
        Variant(
            "high-low",
            Deals(4),
            _form_high_low,
            lambda t: 2 * sum(fives_valued(k, 2) for k in _sizes(t)),
            numpy=NumpyForm.HIGH_LOW,
        ),
        Variant(
            "francois",
            Deals(None, per_player=True, francois_card=True),
            _form_francois,
            lambda t: sum(fives_valued(k) for k in _sizes(t)) + fives_valued(len(t.players)),
            numpy=NumpyForm.ALL_CARDS,
        ),
        Variant(
            "circular",
            Deals(2, shared_cards=2),
            _form_circular,
            lambda t: (len(t.players) + len(t.shared)) * fives_valued(2),
            players=(3, 10),
            numpy=NumpyForm.ALL_CARDS,
        ),
        Variant(
            "six-three-hands",
            Deals(6),
            _form_six_three,
            # Every five of hole + river once, then 729 splits compared: about 100 fives' work.
            lambda t: len(t.players) * (math.comb(11, 5) + 100),
            players=(2, 2),
            numpy=NumpyForm.THREE_SPLIT,
            preflop_empty=("3",),  # the best sub-hand takes 5 cards, the second the last one
        ),
    )
}


def variant_of(table: Table) -> Variant:
    """The table's variant, or a ``TableError`` naming the known ones."""
    variant = VARIANTS.get(table.variant)
    if variant is None:
        raise TableError("table.variant_unknown", variant=table.variant, known=tuple(VARIANTS))
    return variant
