"""Which hands a street's tokens rank (six-three-hands' pre-flop leaves the empty ones out)."""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.gang.replay.records import Street
from companion.engine.gang.showdown import form_hands
from companion.engine.gang.table import Hand, Table
from companion.engine.gang.variants import variant_of

__all__ = ["token_hands"]


def token_hands(
    table: Table,
    street: Street,
    tokens: Mapping[str, int] | None = None,
    hands: tuple[Hand, ...] | None = None,
) -> tuple[Hand, ...]:
    """The hands a street's tokens rank among ``hands`` (default: the final ones): every hand,
    but at pre-flop of six-three-hands, when the tokens leave them out, not the third
    sub-hands, which are empty then (4 tokens, not 6); the odds are then those of the final
    order among the hands that hold a token."""
    hands = form_hands(table) if hands is None else hands
    empty = variant_of(table).preflop_empty
    if tokens is None or street is not Street.PREFLOP or not empty:
        return hands
    kept = tuple(h for h in hands if h.id.rpartition("/")[2] not in empty)
    return kept if set(tokens) == {h.id for h in kept} else hands
