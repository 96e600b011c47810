"""How many decks a table may use, and what each deck holds: one of each card, one knight per
suit (issue #43)."""

from __future__ import annotations

import pytest

from companion.engine.gang.checks import table_problems
from companion.engine.gang.ranking import TableRules
from companion.engine.gang.showdown import form_hands, run_showdown
from companion.engine.gang.table import Player, Table
from companion.errors import DuplicateCardError, TableError
from tests.helpers import cards


def _table(ana: str, bob: str, decks: int = 1) -> Table:
    players = (Player("Ana", cards(ana)), Player("Bob", cards(bob)))
    return Table(players, cards("As Ks Qs 2d 3c"), rules=TableRules(decks=decks))


def test_three_decks_hold_three_copies_of_a_card() -> None:
    result = run_showdown(_table("As As", "*s 5s", decks=3))
    ana = next(h for h in result.hands if h.id == "Ana")
    assert [str(c) for c in ana.value.best] == ["As", "As", "As", "Ks", "Qs"]
    assert result.order == (("Bob",), ("Ana",))


@pytest.mark.parametrize("decks", [0, 4, 10])
def test_more_than_three_decks_are_refused(decks: int) -> None:
    with pytest.raises(TableError, match="1, 2 or 3"):
        form_hands(_table("As 2h", "Kd 5s", decks=decks))


@pytest.mark.parametrize(
    ("ana", "bob", "decks", "message"),
    [
        ("*s 4s", "*s 5s", 1, "the knight *♠ appears twice (Ana and Bob) but a one-deck game"),
        ("*h *h", "*h 5s", 2, "the knight *♥ appears 3 times (Ana (2 times) and Bob) but 2 decks"),
    ],
)
def test_a_deck_holds_one_knight_of_each_suit(ana: str, bob: str, decks: int, message: str) -> None:
    with pytest.raises(DuplicateCardError) as info:
        form_hands(_table(ana, bob, decks))
    assert str(info.value).startswith(message)
    assert info.value.message("fr").startswith("le cavalier")


def test_knights_of_two_suits_and_many_jokers_are_accepted() -> None:
    assert len(form_hands(_table("*s *h", "* *"))) == 2
    assert len(form_hands(_table("*s *s", "*s 5s", decks=3))) == 2


@pytest.mark.parametrize(
    ("ana", "bob", "decks", "refused"),
    [
        (12, 10, 1, False),  # the tarot's 22 trumps, the excuse included
        (12, 11, 1, True),
        (30, 14, 2, False),
        (30, 15, 2, True),
        (40, 26, 3, False),
        (40, 27, 3, True),
    ],
)
def test_jokers_are_counted_against_the_trumps_of_the_decks(
    ana: int, bob: int, decks: int, refused: bool
) -> None:
    """Issue #54: 22 trumps a tarot deck, as knights are counted per deck."""
    table = _table("* " * ana, "* " * bob, decks)
    problems = [p for p in table_problems(table) if p.code.startswith("card.joker")]
    assert bool(problems) is refused
    if refused:
        (problem,) = problems
        assert problem.message("en").startswith(f"{ana + bob} jokers, in Ana ({ana} times) and Bob")
        assert f"{ana + bob} jokers" in problem.message("fr")
