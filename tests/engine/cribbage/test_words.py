from __future__ import annotations

import pytest

from companion.engine.cribbage.discard import advise_discard
from companion.engine.cribbage.score import score_peg, score_show
from companion.engine.cribbage.words import (
    describe_advice,
    describe_peg,
    describe_show,
    number_word,
)
from tests.helpers import cards


@pytest.mark.parametrize(
    ("number", "en", "fr"),
    [
        (0, "zero", "zéro"),
        (2, "two", "deux"),
        (15, "fifteen", "quinze"),
        (17, "seventeen", "dix-sept"),
        (20, "twenty", "vingt"),
        (21, "twenty-one", "vingt et un"),
        (29, "twenty-nine", "vingt-neuf"),
        (31, "thirty-one", "trente et un"),
        (45, "45", "45"),
    ],
)
def test_number_word(number: int, en: str, fr: str) -> None:
    assert (number_word(number, "en"), number_word(number, "fr")) == (en, fr)


def test_example_counted_aloud() -> None:
    show = score_show(cards("4c 5d 6h Kc"), cards("5s")[0])
    assert describe_show(show, "en") == [
        "hand: 4♣ 5♦ 6♥ K♣, starter 5♠",
        "fifteen two: 4♣ 5♦ 6♥",
        "fifteen four: 4♣ 6♥ 5♠",
        "fifteen six: 5♦ K♣",
        "fifteen eight: K♣ 5♠",
        "pair for 2 makes ten: 5♦ 5♠",
        "run of three for 3 makes thirteen: 4♣ 5♦ 6♥",
        "run of three for 3 makes sixteen: 4♣ 5♠ 6♥",
        "total: 16 (fifteens 8, pairs 2, runs 6, flush 0, nobs 0)",
    ]
    french = describe_show(show, "fr")
    assert french[0] == "main : 4♣ 5♦ 6♥ K♣, carte de départ 5♠"
    assert french[1:3] == ["quinze deux : 4♣ 5♦ 6♥", "quinze quatre : 4♣ 6♥ 5♠"]
    assert french[5] == "paire pour 2, ça fait dix : 5♦ 5♠"
    assert french[-1] == "total : 16 (quinzes 8, paires 2, suites 6, couleur 0, nobs 0)"


def test_crib_and_nineteen_hand() -> None:
    lines = describe_show(score_show(cards("2c 4d 8s 10h"), cards("Qs")[0], crib=True), "en")
    assert lines[0].startswith("crib: 2♣ 4♦ 8♠ 10♥")
    assert "nineteen" in lines[1]
    assert "dix-neuf" in describe_show(score_show(cards("2c 4d 8s 10h"), cards("Qs")[0]), "fr")[1]


@pytest.mark.parametrize(
    ("sequence", "lang", "expected"),
    [
        ("5h 5d 5s", "en", ["fifteen for 2: 5♥ 5♦ 5♠", "pair royal for 6: 5♥ 5♦ 5♠", "8 for 5♠"]),
        ("5h 5d 5s", "fr", ["quinze pour 2 : 5♥ 5♦ 5♠", "brelan pour 6 : 5♥ 5♦ 5♠", "8 pour 5♠"]),
        ("4c 6d", "en", ["nothing for 6♦"]),
        ("2c 4h 3d", "fr", ["suite de trois pour 3 : 2♣ 4♥ 3♦", "3 pour 3♦"]),
    ],
)
def test_describe_peg(sequence: str, lang: str, expected: list[str]) -> None:
    played = cards(sequence)
    assert describe_peg(played, score_peg(played), lang) == expected


def test_advice_lines_use_the_language_decimal_mark() -> None:
    advice = advise_discard(cards("5c 5d Jh Qs 4c 9h"), dealer=False)
    english = describe_advice(advice, "en", top=1)
    french = describe_advice(advice, "fr", top=1)
    assert len(english) == len(french) == 4
    assert english[1].startswith("  discard ") and " - crib " in english[1]
    assert french[1].startswith("  écarter ") and "," in french[1].split("main ")[1]
