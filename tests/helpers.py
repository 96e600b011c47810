"""Tiny builders shared by the tests."""

from __future__ import annotations

from companion.engine.cards import Card, parse_cards


def cards(text: str) -> tuple[Card, ...]:
    """``cards("As Kd")`` -> the parsed cards."""
    return parse_cards(text, "test")
