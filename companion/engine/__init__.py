"""The rules engine: pure functions over immutable card values. Imports nothing from vision or ui."""

from __future__ import annotations

from companion.engine.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    check_duplicates,
    format_cards,
    parse_card,
    parse_cards,
)

__all__ = [
    "DECK",
    "Card",
    "Rank",
    "Suit",
    "check_duplicates",
    "format_cards",
    "parse_card",
    "parse_cards",
]
