"""The hands as they stood, street by street: Crack's convention "on ne joue pas au potentiel".

At each street the tokens should follow the hands as they are, not what they may become:
pre-flop the hole cards alone, then with the river cards out so far (``ranking.stood_hand``:
fewer than five cards make a partial hand). ``stood_street`` gives that order and judges a
street's tokens against it: a token fits when it lies among the positions its hand covers
(tied hands in any order); each hand whose token does not fit is given the token it should
have taken, the tokens that fit staying where they are.

>>> from companion.engine.cards import parse_cards
>>> from companion.engine.gang.table import Player, Table
>>> table = Table((Player("Ana", parse_cards("7s 7d")), Player("Bob", parse_cards("As Kc"))),
...               parse_cards("Ah 2d 9s Jc 4h"))
>>> pre = stood_street(table, Street.PREFLOP, {"Ana": 1, "Bob": 2})
>>> [(h.hand.id, h.token, h.should) for h in pre.hands]
[('Bob', 2, 1), ('Ana', 1, 2)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from companion.engine.gang.replay.hands import token_hands
from companion.engine.gang.replay.records import StoodHand, StoodStreet, Street
from companion.engine.gang.showdown import check_tokens
from companion.engine.gang.table import Hand, Table
from companion.engine.gang.variants import variant_of

__all__ = ["stood_hands", "judge_stood", "stood_street", "stood_streets"]


def stood_hands(table: Table, street: Street) -> tuple[Hand, ...]:
    """Every hand as it stood at ``street``: the table's river(s) cut to the cards then out."""
    cut = replace(
        table,
        board=table.board[: street.known],
        board2=table.board2[: street.known] if table.two_rivers else table.board2,
    )
    return variant_of(cut).form_stood(cut)


def _fits(hands: tuple[Hand, ...]) -> dict[str, tuple[int, int]]:
    """For each hand, the lowest and highest token that fit it: past every weaker hand, and
    among the hands it ties with."""
    strengths = [h.value.strength for h in hands]
    return {
        h.id: (1 + sum(t < s for t in strengths), sum(t <= s for t in strengths))
        for h, s in zip(hands, strengths, strict=True)
    }


def judge_stood(hands: tuple[Hand, ...], tokens: Mapping[str, int] | None) -> tuple[StoodHand, ...]:
    """The hands weakest first (ties in the given order), each with the tokens that fit it and,
    when its token does not fit, the one it should have taken: the free tokens of its place, to
    the misplaced hands of that place in the order of the tokens they took."""
    fits = _fits(hands)
    ordered = sorted(hands, key=lambda h: fits[h.id][0])
    should: dict[str, int] = {}
    if tokens is not None:
        for place in sorted(set(fits.values())):
            members = [h.id for h in ordered if fits[h.id] == place]
            kept = {tokens[i] for i in members if place[0] <= tokens[i] <= place[1]}
            free = [k for k in range(place[0], place[1] + 1) if k not in kept]
            wrong = sorted((i for i in members if tokens[i] not in kept), key=tokens.__getitem__)
            should.update(zip(wrong, free, strict=True))
    return tuple(
        StoodHand(
            h,
            *fits[h.id],
            None if tokens is None else tokens[h.id],
            should.get(h.id),
        )
        for h in ordered
    )


def stood_street(
    table: Table, street: Street, tokens: Mapping[str, int] | None = None
) -> StoodStreet:
    """The hands as they stood at ``street`` and the street's tokens (if any) judged by them;
    the table is taken as checked (``form_hands``)."""
    hands = token_hands(table, street, tokens, stood_hands(table, street))
    if tokens is not None:
        check_tokens(hands, tokens)
    board2 = table.board2[: street.known] if table.two_rivers else ()
    return StoodStreet(
        street, table.board[: street.known], board2, judge_stood(hands, tokens), tokens
    )


def stood_streets(
    table: Table, tokens_by_street: Mapping[str, Mapping[str, int]] | None = None
) -> tuple[StoodStreet, ...]:
    """Every street's hands as they stood, with the tokens recorded then."""
    recorded = dict(tokens_by_street or {})
    return tuple(stood_street(table, s, recorded.get(s.value)) for s in Street)
