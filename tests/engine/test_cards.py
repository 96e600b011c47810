from __future__ import annotations

import pytest

from companion.engine.cards import DECK, Card, Rank, Suit, check_duplicates, parse_card
from companion.errors import CardParseError, DuplicateCardError
from tests.helpers import cards


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("As", Card(Rank.ACE, Suit.SPADES)),
        ("as", Card(Rank.ACE, Suit.SPADES)),
        ("10h", Card(Rank.TEN, Suit.HEARTS)),
        ("Td", Card(Rank.TEN, Suit.DIAMONDS)),
        ("Q♥", Card(Rank.QUEEN, Suit.HEARTS)),
        ("2♣", Card(Rank.TWO, Suit.CLUBS)),
        ("Rs", Card(Rank.KING, Suit.SPADES)),
        ("Dd", Card(Rank.QUEEN, Suit.DIAMONDS)),
        ("Vc", Card(Rank.JACK, Suit.CLUBS)),
        ("*", Card(None, None)),
        ("*s", Card(None, Suit.SPADES)),
        ("*♦", Card(None, Suit.DIAMONDS)),
    ],
)
def test_parse_card(token: str, expected: Card) -> None:
    assert parse_card(token) == expected


@pytest.mark.parametrize("token", ["", "A", "1s", "Ax", "11h", "**", "Zs", "s"])
def test_parse_card_rejects_with_token_and_place(token: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(token, "Bob's hand")
    assert "Bob's hand" in str(info.value)
    assert repr(token) in str(info.value)


def test_parse_cards_separators() -> None:
    assert cards("As, Kd;Qh  Jc") == (
        DECK[51 - 3],
        DECK[4 * 11 + 2],
        DECK[4 * 10 + 1],
        DECK[4 * 9 + 3],
    )


def test_card_ids_round_trip() -> None:
    assert [Card.from_id(card.id) for card in DECK] == list(DECK)
    assert len(set(DECK)) == 52
    assert str(Card.from_id(0)) == "2s" and str(Card.from_id(51)) == "Ac"


def test_wild_has_no_id() -> None:
    with pytest.raises(ValueError):
        _ = Card(None, None).id


def test_duplicates_name_card_and_places() -> None:
    with pytest.raises(DuplicateCardError) as info:
        check_duplicates({"river": cards("As Kd"), "Bob": cards("Qh As")})
    assert "A♠" in str(info.value) and "river" in str(info.value) and "Bob" in str(info.value)


def test_two_decks_allow_two_copies_not_three() -> None:
    check_duplicates({"river": cards("As Kd"), "Bob": cards("As")}, decks=2)
    with pytest.raises(DuplicateCardError):
        check_duplicates({"river": cards("As As"), "Bob": cards("As")}, decks=2)


def test_jokers_never_duplicate_but_a_deck_has_one_knight_per_suit() -> None:
    check_duplicates({"river": cards("* * *s"), "Bob": cards("* *h")})
    with pytest.raises(DuplicateCardError, match="knight") as info:
        check_duplicates({"river": cards("* *s"), "Bob": cards("*s")})
    assert info.value.code == "card.knight_twice" and "Bob" in str(info.value)
    check_duplicates({"river": cards("*s"), "Bob": cards("*s")}, decks=2)
    with pytest.raises(DuplicateCardError, match="3 times"):
        check_duplicates({"river": cards("*s *s"), "Bob": cards("*s")}, decks=2)
