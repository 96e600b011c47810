"""French writes "d'" for "de" before a vowel or an h: "la main d'Ana", never "de Ana"."""

from __future__ import annotations

import pytest

from companion.messages import phrase, text


@pytest.mark.parametrize(
    ("name", "hand"),
    [
        ("Ana", "la main d'Ana"),
        ("Élodie", "la main d'Élodie"),
        ("hugo", "la main d'hugo"),
        ("Yves", "la main d'Yves"),
        ("Bob", "la main de Bob"),
        ("Chloé", "la main de Chloé"),
        ("3", "la main de 3"),
    ],
)
def test_the_hand_of_a_player(name: str, hand: str) -> None:
    assert text("place.hand", "fr", name=name) == hand
    assert text("place.hand", "en", name=name) == f"{name}'s hand"


def test_a_place_inside_a_sentence_elides_too() -> None:
    where = phrase("place.hand", name="Ana")
    assert (
        text("doubt.check", "fr", card="Ah", place=where)
        == "Ah (la main d'Ana) : lecture incertaine"
    )
    assert text("best_five", "fr") == "Les cinq meilleures cartes"
