from __future__ import annotations

import pytest

from companion.engine.gang.ranking import Ranking, Straights, TableRules, rank_five
from companion.engine.gang.words import describe, explain_win, hand_label
from tests.helpers import cards


@pytest.mark.parametrize(
    ("hand", "en", "fr"),
    [
        ("Ah Jc 8d 4s 2h", "ace high", "hauteur as"),
        ("Kc Kd 9h 5s 2c", "pair of kings", "paire de rois"),
        ("Ac Ad 9h 5s 2c", "pair of aces", "paire d'as"),
        ("Kc Kd 9h 9s 2c", "two pair, kings and nines", "deux paires, rois et neuf"),
        ("7c 7d 7h As 2c", "three sevens", "brelan de sept"),
        ("Ah 2c 3d 4s 5h", "straight, five high", "quinte au cinq"),
        ("9h Tc Jd Qs Kh", "straight, king high", "quinte au roi"),
        ("Ah Jh 8h 4h 2h", "flush, ace high", "couleur à l'as"),
        ("Qh Jh 8h 4h 2h", "flush, queen high", "couleur à la dame"),
        ("Kc Kd Kh 9s 9c", "full house, kings over nines", "full aux rois par les neuf"),
        ("9c 9d 9h 9s 2c", "four nines", "carré de neuf"),
        ("9s Ts Js Qs Ks", "straight flush, king high", "quinte flush au roi"),
        ("As Ks Qs Js Ts", "royal flush", "quinte flush royale"),
        ("* As Ah Ad Ac", "five aces", "cinq as"),
        ("*h Ah Ah Kh Kh", "flush house, aces over kings", "full couleur aux as par les rois"),
        ("* * * Ah Ah", "flush five, aces", "cinq as de la même couleur"),
    ],
)
def test_every_category_in_both_languages(hand: str, en: str, fr: str) -> None:
    value = rank_five(cards(hand))
    assert (describe(value, "en"), describe(value, "fr")) == (en, fr)


def test_low_hands_read_as_their_cards() -> None:
    value = rank_five(cards("7h 5c 4d 3s 2h"), TableRules(ranking=Ranking.LOW_27))
    assert describe(value) == "7-5-4-3-2"


def test_lowball_reason_says_lower() -> None:
    rules = TableRules(ranking=Ranking.LOW_A5)
    ana, bob = rank_five(cards("7h 5c 4d 3s Ah"), rules), rank_five(cards("8h 5c 4d 3s Ah"), rules)
    assert explain_win("Ana", ana, "Bob", bob) == (
        "Ana's 7-5-4-3-A beats Bob's 8-5-4-3-A: highest card 7 under 8"
    )


def test_wrap_straight_reason() -> None:
    rules = TableRules(straights=Straights.WRAP)
    a, b = rank_five(cards("Ah 2c 3d 4s 5h"), rules), rank_five(cards("Kh Ac 2d 3s 4h"), rules)
    assert explain_win("A", a, "B", b) == (
        "A's straight, five high, beats B's straight, four high: top card 5 over 4"
    )


@pytest.mark.parametrize(
    ("hand_id", "en", "fr"),
    [
        ("Bob", "Bob", "Bob"),
        ("Bob/1", "Bob, hand 1", "Bob, main 1"),
        ("Bob/high", "Bob, high hand", "Bob, main haute"),
        ("Ana+Bob", "the shared hand Ana+Bob", "la main partagée Ana+Bob"),
        ("francois", "François", "François"),
    ],
)
def test_hand_labels(hand_id: str, en: str, fr: str) -> None:
    assert (hand_label(hand_id, "en"), hand_label(hand_id, "fr")) == (en, fr)
