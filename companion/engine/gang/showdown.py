"""The showdown: order every hand of the table, reveal them in red-token order, judge the vault.

A hand fails when it is strictly weaker than any hand revealed before it; ties never fail.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine.gang.burned import value_dog
from companion.engine.gang.checks import validate_table
from companion.engine.gang.ranking import HandValue
from companion.engine.gang.table import Hand, Table
from companion.engine.gang.words import explain_win
from companion.errors import TableError

__all__ = [
    "Failure",
    "Verdict",
    "Showdown",
    "form_hands",
    "order_hands",
    "check_tokens",
    "judge",
    "run_showdown",
]


@dataclass(frozen=True)
class Failure:
    """A hand revealed after a stronger one: the alarm's cause."""

    hand: Hand
    token: int
    beaten_by: Hand

    def reason(self, lang: str = "en") -> str:
        return explain_win(
            self.beaten_by.id, self.beaten_by.value, self.hand.id, self.hand.value, lang
        )


@dataclass(frozen=True)
class Verdict:
    failures: tuple[Failure, ...]

    @property
    def opens(self) -> bool:
        return not self.failures


@dataclass(frozen=True)
class Showdown:
    hands: tuple[Hand, ...]
    order: tuple[tuple[str, ...], ...]  # groups of tied hand ids, weakest group first
    verdict: Verdict | None
    dog: HandValue | None = None  # the burned cards' three-card hand, which beats everyone


def order_hands(hands: tuple[Hand, ...]) -> tuple[tuple[str, ...], ...]:
    """Hand ids grouped by equal value, weakest group first (the correct token order)."""
    groups: list[list[Hand]] = []
    for hand in sorted(hands, key=lambda h: h.value):
        if groups and groups[-1][0].value == hand.value:
            groups[-1].append(hand)
        else:
            groups.append([hand])
    return tuple(tuple(h.id for h in group) for group in groups)


def check_tokens(hands: tuple[Hand, ...], tokens: Mapping[str, int]) -> None:
    """Tokens must give every hand exactly one of the numbers 1..N."""
    ids = [h.id for h in hands]
    for hand_id in tokens:
        if hand_id not in ids:
            raise TableError("tokens.unknown_hand", hand=hand_id, hands=tuple(ids))
    for hand_id in ids:
        if hand_id not in tokens:
            raise TableError("tokens.missing", hand=hand_id)
    n = len(ids)
    by_number: dict[int, str] = {}
    for hand_id, number in tokens.items():
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= n:
            raise TableError("tokens.not_a_number", hand=hand_id, token=repr(number), n=n)
        if number in by_number:
            raise TableError("tokens.twice", token=number, first=by_number[number], second=hand_id)
        by_number[number] = hand_id


def judge(hands: tuple[Hand, ...], tokens: Mapping[str, int]) -> Verdict:
    """Reveal the hands by token; each failure names the strongest hand revealed before it."""
    check_tokens(hands, tokens)
    failures = []
    strongest: Hand | None = None
    for hand in sorted(hands, key=lambda h: tokens[h.id]):
        if strongest is not None and hand.value < strongest.value:
            failures.append(Failure(hand, tokens[hand.id], strongest))
        if strongest is None or hand.value > strongest.value:
            strongest = hand
    return Verdict(tuple(failures))


def form_hands(table: Table) -> tuple[Hand, ...]:
    """Every hand of the table that takes a token, after validating the table."""
    return validate_table(table).form(table)


def run_showdown(table: Table, tokens: Mapping[str, int] | None = None) -> Showdown:
    """Hands, their correct order and, when tokens are given, the vault's verdict."""
    hands = form_hands(table)
    verdict = judge(hands, tokens) if tokens is not None else None
    dog = value_dog(table.burned) if table.burned else None
    return Showdown(hands, order_hands(hands), verdict, dog)
