"""Le chien: the three burned cards valued as a three-card hand that beats everyone (issue #43)."""

from __future__ import annotations

import pytest

from companion.engine.gang.burned import value_dog
from companion.engine.gang.ranking import Category
from companion.engine.gang.showdown import run_showdown
from companion.engine.gang.table import Player, Table
from companion.engine.gang.words import describe
from companion.errors import DuplicateCardError, TableError
from companion.formats.table import table_from_json, table_to_json
from tests.helpers import cards


@pytest.mark.parametrize(
    ("burned", "category", "en", "fr"),
    [
        ("Kh 7d 2c", Category.HIGH_CARD, "king high", "hauteur roi"),
        ("7d Kh 7c", Category.PAIR, "pair of sevens", "paire de sept"),
        ("9d 9h 9c", Category.THREE_OF_A_KIND, "three nines", "brelan de neuf"),
        ("Kh 7d *", Category.PAIR, "pair of kings", "paire de rois"),
        ("* *s 4d", Category.THREE_OF_A_KIND, "three fours", "brelan de quatre"),
        ("* * *", Category.THREE_OF_A_KIND, "three aces", "brelan d'as"),
        ("Qh Jh Th", Category.HIGH_CARD, "queen high", "hauteur dame"),  # no three-card flush
    ],
)
def test_the_dog_is_a_three_card_hand(burned: str, category: Category, en: str, fr: str) -> None:
    value = value_dog(cards(burned))
    assert value.category is category
    assert (describe(value, "en"), describe(value, "fr")) == (en, fr)
    assert not any(c.is_wild for c in value.played_as)


def test_three_card_hands_compare_by_category_then_ranks() -> None:
    order = ["4d 3c 2h", "Ah Kd Qc", "2d 2c 3h", "2d 2c Ah", "Kd Kc 2h", "2d 2c 2h", "Ad Ac Ah"]
    values = [value_dog(cards(hand)) for hand in order]
    assert values == sorted(values) and len(set(values)) == len(values)


def _table(burned: str) -> Table:
    players = (Player("Ana", cards("Ad Ac")), Player("Bob", cards("Js Ts")))
    return Table(players, cards("As Ks Qs 2d 3c"), burned=cards(burned))


def test_the_showdown_shows_the_dog_without_changing_the_order() -> None:
    with_dog, without = run_showdown(_table("Kh 7d *")), run_showdown(_table(""))
    assert with_dog.order == without.order == (("Ana",), ("Bob",))
    assert with_dog.dog is not None and describe(with_dog.dog) == "pair of kings"
    assert without.dog is None


@pytest.mark.parametrize(
    ("burned", "error", "words"),
    [
        ("Kh 7d", TableError, "there are 2 burned cards, not 3"),
        ("Kh 7d 2c 3c", TableError, "there are 4 burned cards, not 3"),
        ("Kh 7d Ad", DuplicateCardError, "A♦ appears twice (Ana and the burned cards)"),
    ],
)
def test_wrong_burned_cards_are_named(burned: str, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as info:
        run_showdown(_table(burned))
    assert words in str(info.value)


def test_the_burned_cards_are_saved_and_read_back() -> None:
    table = _table("Kh 7d *")
    assert table_to_json(table)["burned"] == ["Kh", "7d", "*"]
    assert table_from_json(table_to_json(table)) == table
    assert "burned" not in table_to_json(_table(""))
