"""No verdict on a short hand: a hand with fewer cards than the table deals is fixed (typed, or
a card of the photo moved to it) or its player sits out; nothing confirms it as it is, in any
variant. Where the variant lets hand sizes differ, the setup's count is the one checked."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine.cards import parse_card
from companion.errors import InputError
from companion.ui.kit.photo.read import ShownPhoto, Spot
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.dealt import HandSizes
from companion.ui.showdown.doubts import CHECK, doubts
from companion.ui.showdown.state import RIVER, ShowdownState
from companion.ui.showdown.view import showdown_view
from tests.ui.screens import find, shown

RIVER_TEXT = "As Kd Qh 7c 2s"


def spot(x: float, code: str, at: tuple[int, int], check: bool = False) -> Spot:
    quad = ((x, 0.0), (x + 10, 0.0), (x + 10, 14.0), (x, 14.0))
    return Spot(quad, parse_card(code), check, at)


def short_table() -> ShowdownState:
    """Chloé's hand read with one card; Ana's Ah a doubtful read."""
    table = ShowdownState(("Ana", "Bob", "Chloé"))
    table = table.with_cards_text(RIVER, RIVER_TEXT)
    for seat, text in enumerate(("Ah Ad", "Th 9h", "3c")):
        table = table.with_cards_text(seat, text)
    read = ShownPhoto(b"", 100, 100, (spot(0, "Ah", (0, 0), check=True), spot(20, "3c", (2, 0))))
    return replace(table, read=read)


def view_words(table: ShowdownState) -> list[str]:
    return list(shown(root_view(AppState(lang="en", table=table), lambda action: None)))


def tapped_in_order(table: ShowdownState) -> ShowdownState:
    result = table.showdown()
    assert result is not None
    for group in result.order:
        for hand in group:
            table = table.tap_hand(hand)
    return table


def test_a_short_hand_offers_its_card_or_its_player_sitting_out_never_a_confirm() -> None:
    table = short_table()
    found = {d.key: d for d in doubts(table)}
    short = found["hand:Chloé:1"]
    assert not short.confirmable and short.sits_out == "Chloé" and short.missing
    words = view_words(table)
    # "Right as it is" for the doubtful read only; the short hand has no such answer.
    assert words.count("Right as it is") == 1
    assert "Chloé sits out" in words and "Ana sits out" in words  # Ana holds a doubtful read
    assert not any("really has" in w for w in words)
    # Confirming everything there is to confirm leaves the short hand open: no verdict.
    confirmed = table.confirm(*found)
    assert [d.key for d in doubts(confirmed)] == ["hand:Chloé:1"]
    assert confirmed.showdown() is None and "Red tokens" not in view_words(confirmed)


def test_the_missing_card_typed_in_the_doubts_row_lets_the_verdict_come() -> None:
    table = short_table().confirm(f"{CHECK}0:Ah")
    view = showdown_view(AppState(lang="en", table=table), lambda action: None, None)
    field = find(view, "add-missing-0")
    assert field is not None and field.label == "Type the missing card: Chloé"
    fixed = table.add_cards(2, "2c")
    assert doubts(fixed) == () and fixed.showdown() is not None
    assert tapped_in_order(fixed).showdown().verdict.opens  # type: ignore[union-attr]


def test_a_player_sitting_out_leaves_a_table_judged_without_them() -> None:
    out = short_table().confirm(f"{CHECK}0:Ah").sit_out("Chloé")
    assert doubts(out) == () and out.players == ("Ana", "Bob") and out.out == ("Chloé",)
    result = tapped_in_order(out).showdown()
    assert result is not None and [h.id for h in result.hands] == ["Ana", "Bob"]


def test_a_river_a_card_short_is_fixed_only() -> None:
    table = short_table().with_cards_text(RIVER, "As Kd Qh 7c").add_cards(2, "2c")
    (river,) = [d for d in doubts(table) if d.key.startswith("river:")]
    assert not river.confirmable and river.sits_out is None and river.missing
    assert not any("river really" in w for w in view_words(table))
    assert table.confirm(river.key).showdown() is None  # even a forced confirm is no way past


@pytest.mark.parametrize("variant", ["classic", "two-of-four", "four-two-hands", "high-low"])
def test_a_typed_short_hand_reaches_no_verdict_in_any_variant(variant: str) -> None:
    size = 2 if variant == "classic" else 4
    hands = ("Ah Ad 3h 4h", "Th 9h 8d 8c", "3c 2c 5c 6c")
    table = ShowdownState(("Ana", "Bob", "Chloé")).with_variant(variant)
    table = table.with_cards_text(RIVER, RIVER_TEXT)
    for seat, text in enumerate(hands):
        table = table.with_cards_text(seat, " ".join(text.split()[:size]))
    assert table.showdown() is not None
    short = table.with_cards_text(1, "Th")
    assert short.showdown() is None and short.problems()
    words = [p.message("en") for p in short.problems()]
    assert any(w.startswith("Bob has 1 card;") for w in words), words


def test_where_hand_sizes_differ_the_setups_count_is_the_one_checked() -> None:
    table = ShowdownState(("Ana", "Bob", "Chloé")).with_cards_text(RIVER, RIVER_TEXT)
    for seat, text in enumerate(("Ah Ad", "Th 9h 8d", "3c 2c")):
        table = table.with_cards_text(seat, text)
    (problem,) = table.problems()
    assert problem.message("en") == "Bob has 3 cards; this table deals 2 (Cards in hand)"
    assert problem.message("fr") == "Bob a 3 cartes ; cette table en distribue 2 (Cartes en main)"
    house = table.with_dealt_text("2, Bob 3")
    assert house.problems() == () and house.showdown() is not None
    assert house.dealt == HandSizes(2, (("Bob", 3),)) and house.hand_size(1) == 3
    # The same count holds a photo's table: Bob's three cards raise no doubt; two would.
    read = ShownPhoto(b"", 100, 100, ())
    assert not any(d.key.startswith("hand:") for d in doubts(replace(house, read=read)))
    two = replace(house.with_cards_text(1, "Th 9h"), read=read)
    assert [d.key for d in doubts(two)] == ["hand:Bob:2"]
    # A new table keeps the count; the variants that fix it do not ask it.
    assert house.cleared().dealt == house.dealt
    assert not house.with_variant("two-of-four").sizes_free and house.sizes_free
    assert not house.with_two_rivers(True).sizes_free


@pytest.mark.parametrize(
    "text, said",
    [
        ("2, Zoé 3", "Zoé is not a player at this table (Ana, Bob, Chloé)"),
        ("two", "'two' is not a number of cards"),
        ("2, Bob 0", "'Bob 0' is not a number of cards"),
        ("2, Bob 11", "'Bob 11' is not a number of cards"),
    ],
)
def test_hand_sizes_that_do_not_read_are_refused_by_name(text: str, said: str) -> None:
    with pytest.raises(InputError) as refused:
        ShowdownState(("Ana", "Bob", "Chloé")).with_dealt_text(text)
    assert refused.value.message("en").startswith(said)
