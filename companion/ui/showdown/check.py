"""The Showdown screen's table as the engine sees it: checked by its validation, then judged.

Apart from the state's edits (``state.py``): it reads the fields only, through ``Fields``, and
the state asks it once per value (``ShowdownState.check``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from companion.engine.cards import Card
from companion.engine.gang.burned import value_dog
from companion.engine.gang.checks import table_problems
from companion.engine.gang.ranking import TableRules
from companion.engine.gang.showdown import Showdown, judge, order_hands
from companion.engine.gang.table import Player, SharedHand, Table
from companion.engine.gang.variants import VARIANTS, Deals
from companion.errors import CardParseError, CompanionError, TableCode, TableError
from companion.messages import Phrase, phrase
from companion.ui.kit.cards import Entry
from companion.ui.showdown.places import place_phrase

__all__ = ["HAND_DEALT", "Checked", "Fields", "checked", "table_of"]

HAND_DEALT = "showdown.hand_dealt"  # a hand not of the size the setup deals


@dataclass(frozen=True)
class Checked:
    """What the engine makes of a state: the table, what keeps it from a verdict, the showdown
    (with a verdict once every hand has a token)."""

    table: Table
    problems: tuple[CompanionError, ...]
    showdown: Showdown | None


class Fields(Protocol):
    """What the screen's fields hold (``ShowdownState`` gives it)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def river(self) -> tuple[Entry, ...]: ...

    @property
    def river2(self) -> tuple[Entry, ...]: ...

    @property
    def hands(self) -> tuple[tuple[Entry, ...], ...]: ...

    @property
    def francois(self) -> tuple[Entry | None, ...]: ...

    @property
    def shared(self) -> tuple[tuple[Entry, ...], ...]: ...

    @property
    def burned(self) -> tuple[Entry, ...]: ...

    @property
    def variant(self) -> str: ...

    @property
    def rules(self) -> TableRules: ...

    @property
    def two_rivers(self) -> bool: ...

    @property
    def tokens(self) -> tuple[str, ...]: ...

    @property
    def deals(self) -> Deals: ...

    @property
    def sizes_free(self) -> bool: ...

    def hand_size(self, seat: int) -> int: ...

    def places(self) -> tuple[int, ...]: ...

    def cards_at(self, place: int) -> tuple[Entry, ...]: ...

    def neighbours(self) -> tuple[tuple[str, str], ...]: ...

    def token_map(self) -> dict[str, int]: ...


def _typed(fields: Fields) -> list[tuple[Phrase, tuple[Entry, ...]]]:
    """(place, entries) of every field this variant uses, in screen order."""
    typed = [
        (place_phrase(place, fields.players), fields.cards_at(place)) for place in fields.places()
    ]
    deals = fields.deals
    if deals.francois_card:
        typed += [
            (phrase("place.francois_card", name=name), (card,))
            for name, card in zip(fields.players, fields.francois, strict=True)
            if card is not None
        ]
    if deals.shared_cards:
        typed += [
            (phrase("place.shared", hand=f"{a}+{b}"), cards)
            for (a, b), cards in zip(fields.neighbours(), fields.shared, strict=False)
        ]
    if fields.burned:
        typed.append((phrase("place.burned"), fields.burned))
    return typed


def _cards(typed: tuple[Entry, ...]) -> tuple[Card, ...]:
    return tuple(e for e in typed if isinstance(e, Card))


def table_of(fields: Fields) -> Table:
    """The engine's table of what the fields hold, the text that is no card left out."""
    deals = fields.deals
    players = tuple(
        Player(
            name,
            _cards(held),
            given if deals.francois_card and isinstance(given, Card) else None,
        )
        for name, held, given in zip(fields.players, fields.hands, fields.francois, strict=True)
    )
    shared: tuple[SharedHand, ...] = ()
    if deals.shared_cards:
        shared = tuple(
            SharedHand(pair, _cards(typed))
            for pair, typed in zip(fields.neighbours(), fields.shared, strict=False)
            if typed
        )
    return Table(
        players=players,
        board=_cards(fields.river),
        variant=fields.variant,
        rules=fields.rules,
        two_rivers=fields.two_rivers,
        board2=_cards(fields.river2) if fields.two_rivers else (),
        shared=shared,
        burned=_cards(fields.burned),
    )


def _said(fields: Fields, problem: CompanionError) -> bool:
    """Whether ``problem`` only counts cards a field holds as text that is not a card: the
    text is flagged already, and saying the field is short of a card too would be noise."""
    if problem.code == TableCode.RIVER_SIZE:
        return any(isinstance(e, str) for e in fields.river)
    if problem.code == TableCode.RIVER2_SIZE:
        return any(isinstance(e, str) for e in fields.river2)
    if problem.code == TableCode.BURNED_SIZE:
        return any(isinstance(e, str) for e in fields.burned)
    name = problem.params.get("name")
    if name not in fields.players:
        return False
    seat = fields.players.index(name)
    if problem.code in (TableCode.HOLE_COUNT, TableCode.NO_CARDS):
        return any(isinstance(e, str) for e in fields.hands[seat])
    return problem.code == TableCode.NO_FRANCOIS_CARD and isinstance(fields.francois[seat], str)


def _dealt(fields: Fields) -> list[CompanionError]:
    """Where the variant lets hand sizes differ, each hand counted against the setup's size
    (the engine takes any number there: a hand a card short would be judged as it is). An
    empty hand is the engine's problem already, and text that is no card is said already."""
    if not fields.sizes_free:
        return []
    return [
        TableError(HAND_DEALT, name=name, n=len(held), want=fields.hand_size(seat))
        for seat, (name, held) in enumerate(zip(fields.players, fields.hands, strict=True))
        if held
        and len(held) != fields.hand_size(seat)
        and not any(isinstance(e, str) for e in held)
    ]


def checked(fields: Fields) -> Checked:
    """The table checked by the engine's validation, and judged."""
    unread: list[CompanionError] = [
        CardParseError(entry, where)
        for where, typed in _typed(fields)
        for entry in typed
        if isinstance(entry, str)
    ]
    table = table_of(fields)
    engine = (p for p in table_problems(table) if not _said(fields, p))
    problems = (*unread, *engine, *_dealt(fields))
    if problems:
        return Checked(table, problems, None)
    try:
        hands = VARIANTS[fields.variant].form(table)
    except CompanionError as error:  # a table its checks let through but no hand forms
        return Checked(table, (error,), None)
    ids = {h.id for h in hands}
    complete = len(fields.tokens) == len(hands) and set(fields.tokens) == ids
    verdict = judge(hands, fields.token_map()) if complete else None
    dog = value_dog(table.burned) if table.burned else None
    return Checked(table, (), Showdown(hands, order_hands(hands), verdict, dog))
