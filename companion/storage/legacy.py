"""The whole deal of a heist saved before the game log kept it (schema 3 and older).

Those heists kept only each hand's cards keyed by hand id (``Ana``, ``Ana/1``, ``francois``,
``Ana+Bob``); the deal is put back together from them once, when the file is migrated. In the
variants that split a player's cards into several hands, a card no hand used was not kept: the
deal then holds fewer cards than the variant deals, and the replay says so.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.storage.rows import json_of

__all__ = ["old_deal", "backfill_deals"]

_RULE_KEYS = ("ranking", "straights", "decks")
_FRANCOIS = "francois"


def _player_cards(
    hands: Mapping[str, Sequence[str]], owners: Mapping[str, str], name: str
) -> list[str]:
    """The cards of every hand the player owns, each card as often as one hand holds it (a card
    two hands share, as in high-low, is one card)."""
    held: Counter[str] = Counter()
    order: list[str] = []
    for hand_id, owner in owners.items():
        if owner != name:
            continue
        for card, n in Counter(hands.get(hand_id, ())).items():
            if card not in held:
                order.append(card)
            held[card] = max(held[card], n)
    return [card for card in order for _ in range(held[card])]


def old_deal(
    variant: str,
    rules: Mapping[str, Any],
    players: Sequence[str],
    river: Sequence[str],
    board2: Sequence[str] | None,
    hands: Mapping[str, Sequence[str]],
    owners: Mapping[str, str],
) -> dict[str, Any]:
    """The table (``companion showdown``'s JSON format) an old heist's hands come from."""
    seated = [name for name in players if name in owners.values()]
    table: dict[str, Any] = {
        "variant": variant,
        "rules": {key: rules[key] for key in _RULE_KEYS if key in rules},
        "board": list(river),
        "players": [{"name": n, "cards": _player_cards(hands, owners, n)} for n in seated],
    }
    given = hands.get(_FRANCOIS, ())
    if given:
        for player, card in zip(table["players"], given, strict=False):
            player["francois_card"] = card
    shared = [
        {"between": hand_id.split("+"), "cards": list(cards)}
        for hand_id, cards in hands.items()
        if "+" in hand_id
    ]
    if shared:
        table["shared"] = shared
    if rules.get("two_rivers") or board2:
        table["two_rivers"] = True
        table["board2"] = list(board2 or ())
    return table


def backfill_deals(conn: sqlite3.Connection) -> None:
    """Write the deal of every heist saved without one (inside the migration's transaction).

    A heist whose columns, or whose night's, are damaged (not JSON of their kind) keeps no
    deal: the log names the damaged row when it is read, and nothing is guessed.
    """
    nights = {
        row[0]: (row[1], json_of(row[2], dict), json_of(row[3], list))
        for row in conn.execute("SELECT id, variant, rules, players FROM nights")
    }
    rows = conn.execute(
        "SELECT id, night_id, river, board2, hands, owners FROM heists WHERE deal IS NULL"
    ).fetchall()
    for heist_id, night_id, river_text, board2_text, hands_text, owners_text in rows:
        variant, rules, players = nights.get(night_id, (None, None, None))
        river, hands, owners = (
            json_of(river_text, list),
            json_of(hands_text, dict),
            json_of(owners_text, dict),
        )
        board2 = json_of(board2_text, list) if board2_text is not None else ()
        if rules is None or players is None or river is None or board2 is None:
            continue
        if hands is None or owners is None:
            continue
        if not all(isinstance(cards, list) for cards in hands.values()):
            continue
        deal = old_deal(str(variant), rules, players, river, board2 or None, hands, owners)
        conn.execute(
            "UPDATE heists SET deal = ? WHERE id = ?",
            (json.dumps(deal, ensure_ascii=False), heist_id),
        )
