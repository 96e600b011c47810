"""Each saved hand's cards as they lay on the table: every hole card, not only those the best
five used.

A player's hand shows all of the player's hole cards, read from the heist's deal; the one
exception is a variant where a player splits the hole cards into hands of their own
(four-two-hands), whose hands keep their own part. François's and a shared hand have no
player's cards to take: they stay as given.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["SPLIT_VARIANTS", "whole_hands", "sat_out", "backfill_whole_hands"]

# Variants whose hands are disjoint parts of a player's hole cards.
SPLIT_VARIANTS = frozenset({"four-two-hands"})


def whole_hands(
    deal: Mapping[str, Any],
    hands: Mapping[str, Sequence[str]],
    owners: Mapping[str, str],
) -> dict[str, tuple[str, ...]]:
    """``hands`` with each player's hand holding all of the player's hole cards in ``deal``."""
    if deal.get("variant") in SPLIT_VARIANTS:
        return {hand: tuple(cards) for hand, cards in hands.items()}
    held = {
        str(p.get("name")): tuple(str(c) for c in p.get("cards", ()))
        for p in deal.get("players", ())
        if isinstance(p, Mapping)
    }
    return {
        hand: held.get(owners.get(hand, ""), tuple(cards)) or tuple(cards)
        for hand, cards in hands.items()
    }


def sat_out(players: Sequence[str], owners: Mapping[str, str]) -> tuple[str, ...]:
    """The night's players who owned no hand in a heist, in seating order."""
    playing = set(owners.values())
    return tuple(name for name in players if name not in playing)


def backfill_whole_hands(conn: sqlite3.Connection) -> None:
    """Rewrite every saved heist's hands from its deal (inside the migration's transaction).

    A row whose deal cannot be read keeps its hands as they were: nothing is lost.
    """
    rows = conn.execute(
        "SELECT id, hands, owners, deal FROM heists WHERE deal IS NOT NULL"
    ).fetchall()
    for heist_id, hands, owners, deal in rows:
        try:
            parsed = json.loads(deal), json.loads(hands), json.loads(owners)
        except ValueError:
            continue
        if not all(isinstance(value, dict) for value in parsed):
            continue
        whole = whole_hands(*parsed)
        conn.execute(
            "UPDATE heists SET hands = ? WHERE id = ?",
            (json.dumps({h: list(c) for h, c in whole.items()}, ensure_ascii=False), heist_id),
        )
