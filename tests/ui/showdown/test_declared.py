"""A card short on a hand is never waved through with "Right as it is": it is fixed, or the
table declares the count, which the verdict then shows as a rule error; doubtful reads are
confirmed apart from it, and the verdict lists what was confirmed rather than read."""

from __future__ import annotations

from dataclasses import replace

from companion.engine.cards import parse_card
from companion.ui.kit.photo.read import PhotoRead, Spot
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.doubts import CHECK, answered, doubts
from companion.ui.showdown.state import RIVER, ShowdownState
from tests.helpers import cards
from tests.ui.screens import find, shown


def spot(x: float, code: str, at: tuple[int, int], check: bool = False) -> Spot:
    quad = ((x, 0.0), (x + 10, 0.0), (x + 10, 14.0), (x, 14.0))
    return Spot(quad, parse_card(code), check, at)


def short_table() -> ShowdownState:
    """Chloé's hand read with one card; Ana's Ah a doubtful read."""
    table = ShowdownState(("Ana", "Bob", "Chloé"))
    table = table.with_cards_text(RIVER, "As Kd Qh 7c 2s")
    for seat, text in enumerate(("Ah Ad", "Th 9h", "3c")):
        table = table.with_cards_text(seat, text)
    read = PhotoRead(b"", 100, 100, (spot(0, "Ah", (0, 0), check=True), spot(20, "3c", (2, 0))))
    return replace(table, read=read)


def view_words(table: ShowdownState) -> list[str]:
    return list(shown(root_view(AppState(lang="en", table=table), lambda action: None)))


def test_a_missing_card_is_declared_not_confirmed_and_the_verdict_says_so() -> None:
    table = short_table()
    found = {d.key: d for d in doubts(table)}
    short = found["hand:Chloé:1"]
    assert short.declare is not None and short.declare.text("en") == "Chloé really has 1 card"
    words = view_words(table)
    # One "Right as it is" for the doubtful read only; the short hand has its own words.
    assert words.count("Right as it is") == 1 and "Chloé really has 1 card" in words
    # Confirming every doubtful read leaves the short hand open: no verdict yet.
    reads = [key for key in found if key.startswith(CHECK)]
    confirmed = table.confirm(*reads)
    assert [d.key for d in doubts(confirmed)] == ["hand:Chloé:1"]
    assert "Red tokens" not in view_words(confirmed)

    declared = confirmed.confirm(short.key)
    assert doubts(declared) == ()
    told = [d.on_verdict().text("en") for d in answered(declared)]
    assert told == [
        "Rule error: Chloé plays 1 card, 2 dealt",
        "A♥ (Ana's hand): confirmed by eye, not read",
    ]
    result = declared.showdown()
    assert result is not None
    for group in result.order:
        for hand in group:
            declared = declared.tap_hand(hand)
    view = root_view(AppState(lang="en", table=declared), lambda action: None)
    assert find(view, "verdict") is not None
    assert {"• " + line for line in told} <= set(shown(find(view, "answered")))
    fr = [d.on_verdict().text("fr") for d in answered(declared)]
    assert fr[0] == "Erreur de règle : Chloé joue 1 carte, 2 distribuées"


def test_a_declared_count_no_longer_holds_once_the_hand_changes() -> None:
    declared = short_table().confirm("hand:Chloé:1")
    fixed = declared.with_cards_text(2, "3c 2c")
    assert not any(d.key.startswith("hand:") for d in doubts(fixed) + answered(fixed))
    again = declared.with_cards_text(2, "3c 2c 4d")
    assert [d.key for d in doubts(again) if d.key.startswith("hand:")] == ["hand:Chloé:3"]
    assert cards("3c 2c 4d") == again.hands[2]
