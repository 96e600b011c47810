"""Le chien in the app: the three burned cards' hand, which beats everyone (Crack's rules).

The Showdown screen's verdict and the saved heists of the night's log both say it.
"""

from __future__ import annotations

from collections.abc import Sequence

import flet as ft

from companion.engine.cards import format_cards
from companion.engine.gang.ranking import HandValue
from companion.engine.gang.words import describe, hand_label
from companion.ui.kit.text import t
from companion.ui.kit.widgets import card_chip

__all__ = ["dog_text", "dog_row"]


def dog_text(dog: HandValue, beaten: Sequence[str], lang: str) -> str:
    """``The dog (the burned cards): pair of kings [K♥ * 7♦], which beats everyone: Ana, Bob``."""
    return t(
        "dog_line",
        lang,
        value=describe(dog, lang),
        best=format_cards(dog.best, pretty=True),
        hands=", ".join(hand_label(h, lang) for h in beaten),
    )


def dog_row(key: str, dog: HandValue, beaten: Sequence[str], lang: str) -> ft.Control:
    """The dog's cards as chips, and what they make, for a saved heist."""
    return ft.Column(
        [
            ft.Row(
                [card_chip(str(c), key=f"{key}-{i}") for i, c in enumerate(dog.best)],
                wrap=True,
                spacing=4,
            ),
            ft.Text(dog_text(dog, beaten, lang), size=13, key=f"{key}-text"),
        ],
        spacing=2,
        key=key,
    )
