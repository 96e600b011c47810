"""What the app's card fields hold: a card where one was typed, the text where it was not."""

from __future__ import annotations

import pytest

from companion.ui.kit.cards import entries, entry, entry_text


@pytest.mark.parametrize(
    "typed, expected",
    [
        ("10h", "10h"),
        (" as ", "As"),
        ("Td", "10d"),
        ("1x", "1x"),
        ("*", "*"),
    ],
)
def test_normalise_card(typed: str, expected: str) -> None:
    assert entry_text(entry(typed)) == expected


def test_split_cards_accepts_commas_and_spaces() -> None:
    assert tuple(entry_text(e) for e in entries("As, 10h ;Kd")) == ("As", "10h", "Kd")
