"""House variants of The Gang as data: each turns a table into the hands that get tokens.

A new variant is one ``Variant`` entry in ``VARIANTS`` (a checker and a hand former) plus its tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.engine.cards import Card, check_duplicates
from companion.engine.gang.ranking import HandValue, TableRules, best_hand, five_strength
from companion.errors import TableError

__all__ = [
    "Player",
    "SharedHand",
    "Table",
    "Hand",
    "Variant",
    "VARIANTS",
    "form_hands",
    "validate_table",
]


@dataclass(frozen=True)
class Player:
    name: str
    cards: tuple[Card, ...]
    francois_card: Card | None = None


@dataclass(frozen=True)
class SharedHand:
    """A hand lying between two neighbours in the circular variant."""

    between: tuple[str, str]
    cards: tuple[Card, ...]

    @property
    def id(self) -> str:
        return "+".join(self.between)


@dataclass(frozen=True)
class Table:
    """Everything revealed at a showdown."""

    players: tuple[Player, ...]
    board: tuple[Card, ...]
    variant: str = "classic"
    rules: TableRules = field(default_factory=TableRules)
    two_rivers: bool = False
    board2: tuple[Card, ...] = ()
    shared: tuple[SharedHand, ...] = ()


@dataclass(frozen=True)
class Hand:
    """One hand that takes a token: its id, whose it is, its value and the river it plays on."""

    id: str
    owner: str
    value: HandValue
    river: int = 1


HandFormer = Callable[[Table], tuple[Hand, ...]]


@dataclass(frozen=True)
class Variant:
    name: str
    hole_cards: int | None  # cards each player holds; None: any number (at least one)
    form: HandFormer
    two_rivers: bool = False  # whether the two-rivers rule may be combined with it
    players: tuple[int, int] = (2, 10)


def _error(en: str, fr: str) -> TableError:
    return TableError(en, fr)


def _pick(values: list[tuple[HandValue, int]]) -> list[tuple[HandValue, int]]:
    """Values sorted strongest first, keeping the river each came from."""
    return sorted(values, key=lambda item: item[0], reverse=True)


def _best_split(
    player: Player, rivers: tuple[tuple[Card, ...], ...], rules: TableRules
) -> list[tuple[HandValue, int]]:
    """Split 4 cards into two pairs (and, with two rivers, place them) to maximise the stronger
    hand, then the weaker."""
    best: list[tuple[HandValue, int]] | None = None
    cards = player.cards
    for j in range(1, len(cards)):
        first = (cards[0], cards[j])
        second = tuple(c for i, c in enumerate(cards) if i not in (0, j))
        placements = [(0, 1), (1, 0)] if len(rivers) == 2 else [(0, 0)]
        for r1, r2 in placements:
            pair_values = _pick(
                [
                    (best_hand(first, rivers[r1], rules, max_hole=2), r1 + 1),
                    (best_hand(second, rivers[r2], rules, max_hole=2), r2 + 1),
                ]
            )
            key = [v for v, _ in pair_values]
            if best is None or key > [v for v, _ in best]:
                best = pair_values
    if best is None:
        raise _error(f"{player.name} needs 4 cards", f"{player.name} doit avoir 4 cartes")
    return best


def _numbered(player: Player, values: list[tuple[HandValue, int]]) -> tuple[Hand, ...]:
    return tuple(
        Hand(f"{player.name}/{i}", player.name, value, river)
        for i, (value, river) in enumerate(values, start=1)
    )


def _rivers(table: Table) -> tuple[tuple[Card, ...], ...]:
    return (table.board, table.board2) if table.two_rivers else (table.board,)


def _form_classic(table: Table) -> tuple[Hand, ...]:
    hands: list[Hand] = []
    for p in table.players:
        if table.two_rivers:
            values = _pick(
                [(best_hand(p.cards, b, table.rules), i + 1) for i, b in enumerate(_rivers(table))]
            )
            hands.extend(_numbered(p, values))
        else:
            hands.append(Hand(p.name, p.name, best_hand(p.cards, table.board, table.rules)))
    return tuple(hands)


def _form_two_of_four(table: Table) -> tuple[Hand, ...]:
    return tuple(
        Hand(p.name, p.name, best_hand(p.cards, table.board, table.rules, max_hole=2))
        for p in table.players
    )


def _form_four_two_hands(table: Table) -> tuple[Hand, ...]:
    hands: list[Hand] = []
    for p in table.players:
        hands.extend(_numbered(p, _best_split(p, _rivers(table), table.rules)))
    return tuple(hands)


def _form_high_low(table: Table) -> tuple[Hand, ...]:
    hands: list[Hand] = []
    for p in table.players:
        high = best_hand(p.cards, table.board, table.rules, max_hole=2)
        low = best_hand(p.cards, table.board, table.rules, max_hole=2, worst=True)
        hands += [Hand(f"{p.name}/high", p.name, high), Hand(f"{p.name}/low", p.name, low)]
    return tuple(hands)


def _form_francois(table: Table) -> tuple[Hand, ...]:
    hands = [
        Hand(p.name, p.name, best_hand(p.cards, table.board, table.rules)) for p in table.players
    ]
    given = tuple(p.francois_card for p in table.players if p.francois_card is not None)
    hands.append(Hand("francois", "francois", best_hand(given, table.board, table.rules)))
    return tuple(hands)


def _form_circular(table: Table) -> tuple[Hand, ...]:
    hands = [
        Hand(p.name, p.name, best_hand(p.cards, table.board, table.rules)) for p in table.players
    ]
    hands += [Hand(s.id, s.id, best_hand(s.cards, table.board, table.rules)) for s in table.shared]
    return tuple(hands)


def _subset_strengths(
    cards: tuple[Card, ...], board: tuple[Card, ...], rules: TableRules
) -> list[tuple[int, ...]]:
    """For every subset of ``cards`` (bit i: card i), the strength of its best five with the board.

    Each five of hole + board cards is valued once and credited to the subset of hole cards it
    uses; a subset's best five is then the best credited to any of its subsets. That is 462
    valuations for six cards, where valuing each subset on its own takes over 5,000.
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
    if any(b is None for b in best):
        raise _error(
            f"{len(board)} river cards cannot make a 5-card hand",
            f"{len(board)} cartes de rivière ne font pas une main de 5 cartes",
        )
    return [b for b in best if b is not None]


def _form_six_three(table: Table) -> tuple[Hand, ...]:
    hands: list[Hand] = []
    for p in table.players:
        strength = _subset_strengths(p.cards, table.board, table.rules)
        best: list[tuple[int, ...]] | None = None
        chosen: list[int] = []
        for labels in itertools.product(range(3), repeat=len(p.cards)):
            masks = [sum(1 << i for i, lab in enumerate(labels) if lab == g) for g in range(3)]
            values = sorted((strength[m] for m in masks), reverse=True)
            if best is None or values > best:
                best, chosen = values, masks
        # Only the chosen groups need their explained values (the same as ``best_hand``'s).
        groups = [tuple(c for i, c in enumerate(p.cards) if m >> i & 1) for m in chosen]
        found = sorted((best_hand(g, table.board, table.rules) for g in groups), reverse=True)
        hands.extend(_numbered(p, [(v, 1) for v in found]))
    return tuple(hands)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("classic", None, _form_classic, two_rivers=True),
        Variant("two-of-four", 4, _form_two_of_four),
        Variant("four-two-hands", 4, _form_four_two_hands, two_rivers=True),
        Variant("high-low", 4, _form_high_low),
        Variant("francois", None, _form_francois),
        Variant("circular", 2, _form_circular, players=(3, 10)),
        Variant("six-three-hands", 6, _form_six_three, players=(2, 2)),
    )
}


def _check_players(table: Table, variant: Variant) -> None:
    low, high = variant.players
    n = len(table.players)
    if not low <= n <= high:
        raise _error(
            f"{variant.name} is played by {low} to {high} players, not {n}",
            f"{variant.name} se joue de {low} à {high} joueurs, pas {n}",
        )
    names = [p.name for p in table.players]
    for name in names:
        if not name or names.count(name) > 1 or name == "francois" or any(c in name for c in "/+"):
            raise _error(
                f"player name {name!r} is empty, repeated, reserved or contains / or +",
                f"le nom de joueur {name!r} est vide, répété, réservé ou contient / ou +",
            )
    for p in table.players:
        expected = variant.hole_cards
        if table.variant == "francois":
            expected = n
        if table.two_rivers and table.variant == "classic":
            expected = 2
        if expected is None and not p.cards:
            raise _error(f"{p.name} has no cards", f"{p.name} n'a aucune carte")
        if expected is not None and len(p.cards) != expected:
            raise _error(
                f"{p.name} has {len(p.cards)} cards; {variant.name} deals {expected}",
                f"{p.name} a {len(p.cards)} cartes ; {variant.name} en distribue {expected}",
            )
        if table.variant == "francois" and p.francois_card is None:
            raise _error(
                f"{p.name} gave no card to François (francois_card)",
                f"{p.name} n'a pas donné de carte à François (francois_card)",
            )


def _check_rivers(table: Table, variant: Variant) -> None:
    if len(table.board) != 5:
        raise _error(
            f"the river has {len(table.board)} cards, not 5",
            f"la rivière a {len(table.board)} cartes, pas 5",
        )
    if table.two_rivers and not variant.two_rivers:
        raise _error(
            f"two rivers cannot be combined with {variant.name}",
            f"deux rivières ne se combinent pas avec {variant.name}",
        )
    if table.two_rivers and len(table.board2) != 5:
        raise _error(
            f"the second river has {len(table.board2)} cards, not 5",
            f"la deuxième rivière a {len(table.board2)} cartes, pas 5",
        )
    if not table.two_rivers and table.board2:
        raise _error(
            "a second river was given but two_rivers is not set",
            "une deuxième rivière est donnée sans two_rivers",
        )


def _check_shared(table: Table) -> None:
    if table.variant != "circular":
        if table.shared:
            raise _error(
                "shared hands belong to the circular variant",
                "les mains partagées appartiennent à la variante circulaire",
            )
        return
    names = [p.name for p in table.players]
    neighbours = {frozenset((names[i], names[(i + 1) % len(names)])) for i in range(len(names))}
    seen: set[frozenset[str]] = set()
    for s in table.shared:
        pair = frozenset(s.between)
        if len(pair) != 2 or not pair <= set(names):
            raise _error(
                f"shared hand {s.id}: 'between' must name two players at the table",
                f"main partagée {s.id} : 'between' doit nommer deux joueurs de la table",
            )
        if pair not in neighbours:
            raise _error(
                f"shared hand {s.id}: {s.between[0]} and {s.between[1]} are not neighbours",
                f"main partagée {s.id} : {s.between[0]} et {s.between[1]} ne sont pas voisins",
            )
        if pair in seen:
            raise _error(
                f"two shared hands lie between {s.id}", f"deux mains partagées entre {s.id}"
            )
        if len(s.cards) != 2:
            raise _error(
                f"shared hand {s.id} has {len(s.cards)} cards, not 2",
                f"la main partagée {s.id} a {len(s.cards)} cartes, pas 2",
            )
        seen.add(pair)


def validate_table(table: Table) -> Variant:
    """The table's variant, after checking the table fits it; errors name the player or place."""
    variant = VARIANTS.get(table.variant)
    if variant is None:
        raise _error(
            f"unknown variant {table.variant!r}; known: {', '.join(VARIANTS)}",
            f"variante inconnue {table.variant!r} ; connues : {', '.join(VARIANTS)}",
        )
    if table.rules.decks not in (1, 2):
        raise _error(
            f"decks must be 1 or 2, not {table.rules.decks}",
            f"decks vaut 1 ou 2, pas {table.rules.decks}",
        )
    _check_rivers(table, variant)
    _check_players(table, variant)
    _check_shared(table)
    places: dict[str, tuple[Card, ...]] = {"the river": table.board}
    if table.board2:
        places["the second river"] = table.board2
    for p in table.players:
        places[p.name] = p.cards
        if p.francois_card is not None:
            places[f"{p.name}'s card for François"] = (p.francois_card,)
    for s in table.shared:
        places[f"the shared hand {s.id}"] = s.cards
    check_duplicates(places, decks=table.rules.decks)
    return variant


def form_hands(table: Table) -> tuple[Hand, ...]:
    """Every hand of the table that takes a token, after validating the table."""
    return validate_table(table).form(table)
