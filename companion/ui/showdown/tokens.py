"""The tokens given to the hands: tapped one by one, or typed as numbers in seating order.

Tokens are hand ids in the order they were given (token 1 first), as ``ShowdownState`` keeps
them.

>>> tapped(("Ana", "Bob"), "Ana"), tapped(("Bob",), "Ana")
(('Bob',), ('Bob', 'Ana'))
>>> typed_order("2 1", ["Ana", "Bob"]), typed_order("2 2", ["Ana", "Bob"])
(('Bob', 'Ana'), ())
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["numbered", "tapped", "typed_order"]


def numbered(tokens: Sequence[str]) -> dict[str, int]:
    """Each hand's token number."""
    return {hand: number for number, hand in enumerate(tokens, start=1)}


def tapped(tokens: tuple[str, ...], hand_id: str) -> tuple[str, ...]:
    """The hand given the next token; a hand that has one gives it back."""
    if hand_id in tokens:
        return tuple(h for h in tokens if h != hand_id)
    return tokens + (hand_id,)


def typed_order(text: str, ids: Sequence[str]) -> tuple[str, ...]:
    """Numbers typed in seating order ("2 1 3"): hand k gets the k-th number.

    Unreadable or incomplete input gives no tokens, so no verdict is guessed.
    """
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    if len(numbers) != len(ids) or sorted(numbers) != list(range(1, len(ids) + 1)):
        return ()
    return tuple(hid for _, hid in sorted(zip(numbers, ids, strict=True)))
