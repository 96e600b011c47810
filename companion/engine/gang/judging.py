"""How well each hand's token matched its true rank: the showdown, and each street recorded.

A token fits a hand when it lies among the positions the hand covers: past every weaker hand
and among the hands it ties with (tied hands may take their tokens in any order). At the
showdown the hands are the final ones (``form_hands``); at a street recorded in
``tokens_by_street`` they are the hands as they stood then (``stood_street``: Crack's "on ne
joue pas au potentiel"). The game log's stats turn these fits into distances.

>>> from companion.engine.cards import parse_cards
>>> from companion.engine.gang.table import Player, Table
>>> table = Table((Player("Ana", parse_cards("7s 7d")), Player("Bob", parse_cards("As Kc")),
...                Player("Cy", parse_cards("7h 7c"))), parse_cards("2h 3d 9s Jc 4h"))
>>> fits = token_fits(table, {"Ana": 1, "Bob": 3, "Cy": 2})
>>> [(f.hand_id, f.token, f.lowest, f.highest) for f in fits]
[('Bob', 3, 1, 1), ('Ana', 1, 2, 3), ('Cy', 2, 2, 3)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine.gang.replay.records import StoodHand, Street
from companion.engine.gang.replay.stood import judge_stood, stood_street
from companion.engine.gang.showdown import check_tokens, form_hands
from companion.engine.gang.table import Table

__all__ = ["SHOWDOWN", "TokenFit", "token_fits"]

SHOWDOWN = "showdown"  # the street name of the final tokens judged against the final hands


@dataclass(frozen=True)
class TokenFit:
    """A hand's token at a street (or the showdown) and the tokens that would have fit it."""

    hand_id: str
    street: str  # a ``Street`` value, or ``SHOWDOWN``
    token: int
    lowest: int
    highest: int


def token_fits(
    table: Table,
    tokens: Mapping[str, int],
    tokens_by_street: Mapping[str, Mapping[str, int]] | None = None,
) -> tuple[TokenFit, ...]:
    """Every hand's final token against the showdown's order, then every recorded street's
    tokens against the hands as they stood then (weakest first within each)."""
    hands = form_hands(table)
    check_tokens(hands, tokens)
    fits = [_fit(h, SHOWDOWN) for h in judge_stood(hands, tokens)]
    for street in Street:
        given = (tokens_by_street or {}).get(street.value)
        if given is not None:
            stood = stood_street(table, street, given)
            fits += [_fit(h, street.value) for h in stood.hands]
    return tuple(fits)


def _fit(stood: StoodHand, street: str) -> TokenFit:
    token = stood.token if stood.token is not None else 0  # judged with tokens: never None
    return TokenFit(stood.hand.id, street, token, stood.lowest, stood.highest)
