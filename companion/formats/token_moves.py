"""A heist's token moves street by street (``token_moves``), checked under the table's token
rule (``rules.tokens``), and the tokens they leave each hand.

``{"token_moves": {"flop": [{"by": "Ana", "take": 2}, {"by": "Bob", "take": 1, "from": "Ana"},
{"by": "Ana", "put_back": 2}, {"by": "Cy", "give": 3, "to": "Ana"}]}}``: take from the centre,
take from a hand, put a token back (one's own; under Crack anyone's), give from the centre to
another player. Each street's
moves must be legal and leave every token held; where the street's tokens are also recorded
(``tokens_by_street``, or ``tokens`` for the river), the moves must end on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.engine.gang.replay.odds import token_hands
from companion.engine.gang.replay.records import Street
from companion.engine.gang.showdown import form_hands
from companion.engine.gang.table import Table
from companion.engine.gang.tokens import MoveKind, StreetTokens, TokenMove, check_moves
from companion.engine.names import same_name
from companion.errors import InputError, TableError, shortened
from companion.formats.reading import key_names
from companion.messages import Phrase, phrase

__all__ = [
    "MAX_MOVES",
    "CheckedStreet",
    "token_moves_from_json",
    "checked_streets",
    "merged_tokens",
    "tokens_with_moves",
]

# The key naming each move's kind, and the key naming the other hand where it has one.
_KINDS = {
    "take": (MoveKind.TAKE, None),
    "put_back": (MoveKind.PUT_BACK, None),
    "give": (MoveKind.GIVE, "to"),
}
_MOVE_KEYS = {"by", "take", "put_back", "give", "from", "to"}
# A real street has a few dozen moves (ten players taking, passing and putting back); each move
# is checked against every hand, so millions of them took minutes and a gigabyte.
MAX_MOVES = 200


@dataclass(frozen=True)
class CheckedStreet:
    """One street's moves, legal under the table's rule, and the tokens they leave."""

    street: Street
    moves: tuple[TokenMove, ...]
    result: StreetTokens


def _street_phrase(street: str) -> Phrase:
    return phrase(f"words.street.{street}")


def _move(raw: Any, street: str, n: int) -> TokenMove:
    where = phrase("token_moves.where", street=_street_phrase(street), n=n)
    if not isinstance(raw, Mapping):
        raise InputError("token_moves.move_object", where=where)
    unknown = set(raw) - _MOVE_KEYS
    if unknown:
        raise InputError("token_moves.unknown_keys", where=where, keys=key_names(unknown))
    kinds = [key for key in _KINDS if key in raw]
    by = raw.get("by")
    if len(kinds) != 1 or not isinstance(by, str):
        raise InputError("token_moves.move_shape", where=where)
    kind, other_key = _KINDS[kinds[0]]
    if kind is MoveKind.TAKE and "from" in raw:
        kind, other_key = MoveKind.TAKE_FROM, "from"
    token = raw[kinds[0]]
    if isinstance(token, bool) or not isinstance(token, int):
        raise InputError("token_moves.token_type", where=where, token=shortened(repr(token)))
    other = raw.get(other_key) if other_key else None
    extra = {"from", "to"} - {other_key} & set(raw)
    if (other_key and not isinstance(other, str)) or extra:
        raise InputError("token_moves.move_shape", where=where)
    named = same_name(other) if isinstance(other, str) else None
    return TokenMove(same_name(by), kind, token, named)


def token_moves_from_json(raw: Any) -> dict[str, tuple[TokenMove, ...]]:
    """The ``token_moves`` object of a heist (absent: none), street by street."""
    given = raw.get("token_moves") if isinstance(raw, Mapping) else None
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise InputError("token_moves.object")
    names = [s.value for s in Street]
    moves: dict[str, tuple[TokenMove, ...]] = {}
    for street, items in given.items():
        if street not in names:
            raise InputError(
                "token_moves.street_unknown", street=shortened(repr(street)), streets=tuple(names)
            )
        if not isinstance(items, list):
            raise InputError("token_moves.list", street=_street_phrase(street))
        if len(items) > MAX_MOVES:
            raise InputError(
                "token_moves.too_many", street=_street_phrase(street), n=len(items), most=MAX_MOVES
            )
        moves[street] = tuple(_move(item, street, n) for n, item in enumerate(items, start=1))
    return moves


def checked_streets(
    table: Table, moves: Mapping[str, tuple[TokenMove, ...]], recorded: Mapping[str, Any]
) -> tuple[CheckedStreet, ...]:
    """Each street's moves checked under ``table.rules.tokens``, in street order: the first
    illegal move, a token left in the centre, or an end other than the tokens ``recorded``
    for that street is refused, naming the street."""
    owners = {hand.id: hand.owner for hand in form_hands(table)}
    checked = []
    for street in Street:
        if street.value not in moves:
            continue
        tokens = recorded.get(street.value)
        hands = tuple(h.id for h in token_hands(table, street, tokens))
        played = moves[street.value]
        result = check_moves(table.rules.tokens, hands, played, owners, len(hands))
        where = _street_phrase(street.value)
        if result.problem is not None:
            raise TableError("token_moves.illegal", street=where, problem=result.problem.phrase)
        if not result.finished:
            raise TableError(
                "token_moves.unfinished", street=where, tokens=result.centre, n=len(result.centre)
            )
        if tokens is not None and dict(tokens) != result.holdings:
            hand = next(h for h in hands if tokens.get(h) != result.holdings.get(h))
            raise TableError(
                "token_moves.differs",
                street=where,
                hand=hand,
                moved=result.holdings[hand],
                recorded=shortened(repr(tokens.get(hand))),
            )
        checked.append(CheckedStreet(street, played, result))
    return tuple(checked)


def merged_tokens(
    recorded: Mapping[str, Mapping[str, int]], streets: tuple[CheckedStreet, ...]
) -> dict[str, dict[str, int]]:
    """The tokens of each street: those ``recorded``, and those the checked moves leave where a
    street has moves but no recorded tokens."""
    tokens = {street: dict(given) for street, given in recorded.items()}
    for street in streets:
        tokens.setdefault(street.street.value, street.result.holdings)
    return tokens


def tokens_with_moves(
    table: Table, raw: Mapping[str, Any], recorded: Mapping[str, Mapping[str, int]]
) -> dict[str, dict[str, int]]:
    """``merged_tokens`` of the heist's moves, checked (``checked_streets``)."""
    return merged_tokens(recorded, checked_streets(table, token_moves_from_json(raw), recorded))
