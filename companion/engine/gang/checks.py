"""Whether a table fits its variant: every problem, each a coded error naming the player or place.

``table_problems`` lists them all (a screen shows them together); ``validate_table`` raises the
first (a command stops there).

>>> from companion.engine.cards import parse_cards
>>> from companion.engine.gang.table import Player, Table
>>> table = Table((Player("Ana", parse_cards("As")), Player("Bob", parse_cards("Kc Qc"))),
...               parse_cards("2h 7d 9s Jc"))
>>> [problem.message("en") for problem in table_problems(table)]
['the river has 4 cards, not 5']
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.engine.cards import Card, duplicates
from companion.engine.gang.burned import DOG_CARDS
from companion.engine.gang.table import FRANCOIS, Table
from companion.engine.gang.variants import Variant, variant_of
from companion.errors import CompanionError, TableCode, TableError
from companion.messages import Phrase, phrase

__all__ = ["table_problems", "validate_table", "card_places", "DECKS"]

RIVER_SIZE = 5
DECKS = (1, 2, 3)  # why three at most: docs/rules.md, "Decks"


def _players(table: Table, variant: Variant) -> Iterator[CompanionError]:
    low, high = variant.players
    n = len(table.players)
    if not low <= n <= high:
        yield TableError("table.players_count", variant=variant.title, low=low, high=high, n=n)
    folded = [p.name.casefold() for p in table.players]
    for p in table.players:
        name = p.name
        if (
            not name.strip()
            or folded.count(name.casefold()) > 1
            or name.casefold() == FRANCOIS
            or any(c in name for c in "/+")
        ):
            yield TableError("table.player_name", name=name)
            break
    deals = variant.deals
    want = deals.hole_count(n, table.two_rivers)
    for p in table.players:
        if want is None and not p.cards:
            yield TableError(TableCode.NO_CARDS, name=p.name)
        elif want is not None and len(p.cards) != want:
            yield TableError(
                TableCode.HOLE_COUNT, name=p.name, n=len(p.cards), want=want, variant=variant.title
            )
        if deals.francois_card and p.francois_card is None:
            yield TableError(TableCode.NO_FRANCOIS_CARD, name=p.name)
        if not deals.francois_card and p.francois_card is not None:
            yield TableError("table.francois_card_unused", name=p.name, variant=variant.title)


def _rivers(table: Table, variant: Variant) -> Iterator[CompanionError]:
    if len(table.board) != RIVER_SIZE:
        yield TableError(TableCode.RIVER_SIZE, n=len(table.board))
    if table.two_rivers and not variant.two_rivers:
        yield TableError("table.two_rivers_refused", variant=variant.title)
    if table.two_rivers and len(table.board2) != RIVER_SIZE:
        yield TableError(TableCode.RIVER2_SIZE, n=len(table.board2))
    if not table.two_rivers and table.board2:
        yield TableError("table.river2_unexpected")


def _shared(table: Table, variant: Variant) -> Iterator[CompanionError]:
    size = variant.deals.shared_cards
    if not size:
        if table.shared:
            yield TableError("table.shared_unexpected", variant=variant.title)
        return
    names = [p.name for p in table.players]
    neighbours = {frozenset((names[i], names[(i + 1) % len(names)])) for i in range(len(names))}
    seen: set[frozenset[str]] = set()
    for s in table.shared:
        pair = frozenset(s.between)
        if len(pair) != 2 or not pair <= set(names):
            yield TableError("table.shared_between", hand=s.id)
        elif pair not in neighbours:
            yield TableError(
                "table.shared_not_neighbours", hand=s.id, a=s.between[0], b=s.between[1]
            )
        elif pair in seen:
            yield TableError("table.shared_twice", hand=s.id)
        if len(s.cards) != size:
            yield TableError("table.shared_size", hand=s.id, n=len(s.cards), want=size)
        seen.add(pair)
    # Crack, "Circulaire": "à n joueurs il y a donc 2n mains": every two neighbours share one.
    for i, name in enumerate(names):
        after = names[(i + 1) % len(names)]
        if len(names) > 2 and frozenset((name, after)) not in seen:
            yield TableError(
                "table.shared_missing", hand=f"{name}+{after}", n=len(names), hands=2 * len(names)
            )


def card_places(table: Table) -> dict[Phrase, tuple[Card, ...]]:
    """Every place cards lie at the table, named for players (for duplicates)."""
    places: dict[Phrase, tuple[Card, ...]] = {phrase("place.river"): table.board}
    if table.board2:
        places[phrase("place.river2")] = table.board2
    for p in table.players:
        places[phrase("place.player", name=p.name)] = p.cards
        if p.francois_card is not None:
            places[phrase("place.francois_card", name=p.name)] = (p.francois_card,)
    for s in table.shared:
        places[phrase("place.shared", hand=s.id)] = s.cards
    if table.burned:
        places[phrase("place.burned")] = table.burned
    return places


def table_problems(table: Table) -> tuple[CompanionError, ...]:
    """Everything that keeps the table from a showdown, in the order players fix them."""
    try:
        variant = variant_of(table)
    except TableError as error:
        return (error,)
    found: list[CompanionError] = []
    if table.rules.decks not in DECKS:
        found.append(TableError("table.decks", decks=table.rules.decks))
    found += _rivers(table, variant)
    if table.burned and len(table.burned) != DOG_CARDS:
        found.append(TableError(TableCode.BURNED_SIZE, n=len(table.burned)))
    found += _players(table, variant)
    found += _shared(table, variant)
    found += duplicates(card_places(table), decks=table.rules.decks)
    return tuple(found)


def validate_table(table: Table) -> Variant:
    """The table's variant, after checking the table fits it; raises its first problem."""
    problems = table_problems(table)
    if problems:
        raise problems[0]
    return variant_of(table)
