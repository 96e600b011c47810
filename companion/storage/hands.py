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

from companion.messages import Phrase, phrase
from companion.storage.errors import UnreadableRowError
from companion.storage.model import card_tokens, same_name
from companion.storage.rows import HEIST, heist_key, json_of

__all__ = ["SPLIT_VARIANTS", "DealUnreadable", "whole_hands", "sat_out", "backfill_whole_hands"]

# Variants whose hands are disjoint parts of a player's hole cards.
SPLIT_VARIANTS = frozenset({"four-two-hands"})


class DealUnreadable(ValueError):
    """A deal whose players or cards are in no form the table format allows; ``field`` names
    what."""

    def __init__(self, field: Phrase) -> None:
        super().__init__(field.text())
        self.field = field


def _held(deal: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """Each player's hole cards in ``deal``, by the player's name as stored (NFC)."""
    players = deal.get("players", ())
    if not isinstance(players, list | tuple):
        raise DealUnreadable(phrase("log.field_deal_players"))
    held = {}
    for player in players:
        name = player.get("name") if isinstance(player, Mapping) else None
        if not isinstance(name, str):
            raise DealUnreadable(phrase("log.field_deal_players"))
        cards = card_tokens(player.get("cards", ()))
        if cards is None:
            raise DealUnreadable(phrase("log.field_cards_of", name=name))
        held[same_name(name)] = cards
    return held


def whole_hands(
    deal: Mapping[str, Any],
    hands: Mapping[str, Sequence[str]],
    owners: Mapping[str, str],
) -> dict[str, tuple[str, ...]]:
    """``hands`` with each player's hand holding all of the player's hole cards in ``deal``
    (given as one text or as a list, as the table format allows); ``DealUnreadable`` where the
    deal's players or cards are in no such form."""
    if str(deal.get("variant")) in SPLIT_VARIANTS:
        return {hand: tuple(cards) for hand, cards in hands.items()}
    held = _held(deal)
    whole = {}
    for hand, cards in hands.items():
        owner = owners.get(hand)
        whole[hand] = (held.get(same_name(owner)) if isinstance(owner, str) else None) or tuple(
            cards
        )
    return whole


def sat_out(players: Sequence[str], owners: Mapping[str, str]) -> tuple[str, ...]:
    """The night's players who owned no hand in a heist, in seating order."""
    playing = set(owners.values())
    return tuple(name for name in players if name not in playing)


def backfill_whole_hands(conn: sqlite3.Connection) -> None:
    """Rewrite every saved heist's hands from its deal (inside the migration's transaction).

    A damaged row (a deal, hands or owners that are not JSON objects, or nested past reading)
    keeps its hands as they were: the log names it and leaves it out when it is read. A deal
    that reads but holds cards in no form the table format allows stops the migration
    (``UnreadableRowError``, naming the heist): guessing would rewrite the hands wrongly.
    """
    rows = conn.execute(
        "SELECT id, night_id, number, hands, owners, deal FROM heists WHERE deal IS NOT NULL"
    ).fetchall()
    for heist_id, night, number, hands_text, owners_text, deal_text in rows:
        deal, hands, owners = (json_of(v, dict) for v in (deal_text, hands_text, owners_text))
        if deal is None or hands is None or owners is None:
            continue
        if not all(isinstance(cards, list) for cards in hands.values()):
            continue
        try:
            whole = whole_hands(deal, hands, owners)
        except DealUnreadable as error:
            raise UnreadableRowError(HEIST, heist_key(night, number), error.field) from None
        conn.execute(
            "UPDATE heists SET hands = ? WHERE id = ?",
            (json.dumps({h: list(c) for h, c in whole.items()}, ensure_ascii=False), heist_id),
        )
