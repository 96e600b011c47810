"""Le chien in the app (issue #43): the burned cards typed in the table's setup, checked like
any card, the verdict's dog line, saved with the heist in a real game log and shown in the
night's log; heists saved without them read as before."""

from __future__ import annotations

from dataclasses import replace

from companion.engine.gang.burned import value_dog
from companion.errors import CardParseError, DuplicateCardError, TableCode
from companion.storage import HeistDraft, Verdict
from companion.ui.kit.burned_row import dog_text
from companion.ui.kit.services import Services
from companion.ui.shell.root import root_view
from companion.ui.showdown.state import ShowdownState
from tests.helpers import cards
from tests.ui.replay.test_screen import CASES, _judged, _saved, _table
from tests.ui.screens import find, texts


def _typed(burned: str) -> ShowdownState:
    return _judged(_table(*CASES["classic"]), ("Bob", "Cy", "Ana")).with_burned_text(burned)


def test_the_verdict_says_the_dog_and_whom_it_beats() -> None:
    table = _typed("Kh 7d *")
    result = table.showdown()
    assert result is not None and result.verdict is not None and result.verdict.opens
    assert result.dog == value_dog(cards("Kh 7d *"))
    assert dog_text(result.dog, ["Ana", "Bob", "Cy"], "en") == (
        "The dog (the burned cards): pair of kings [K♥ * 7♦], which beats everyone: Ana, Bob, Cy"
    )
    assert dog_text(result.dog, ["Ana"], "fr").startswith(
        "Le chien (les cartes brûlées) : paire de rois [K♥ * 7♦], qui bat tout le monde : Ana"
    )


def test_the_burned_cards_are_optional_and_leave_the_tokens() -> None:
    table = _judged(_table(*CASES["classic"]), ("Bob", "Cy", "Ana"))
    result = table.showdown()
    assert result is not None and result.verdict is not None and result.dog is None
    typed = table.with_burned_text("Kh 7d 2c")
    assert typed.tokens == table.tokens and typed.with_burned_text("Kh 7d 2c") is typed


def test_burned_cards_are_checked_like_any_card() -> None:
    unread = _typed("Kh 7d zz").check.problems
    assert [type(p) for p in unread] == [CardParseError]
    assert "the burned cards" in unread[0].message("en")
    short = _typed("Kh 7d").check.problems
    assert [p.code for p in short] == [TableCode.BURNED_SIZE]
    assert _typed("Kh zz").check.problems[0].code == "card.unreadable"  # the text, said once
    assert len(_typed("Kh zz").check.problems) == 1
    twice = _typed("Ah 7d 2c").check.problems  # Ana holds the A♥
    assert any(isinstance(p, DuplicateCardError) for p in twice)
    assert any("the burned cards" in p.message("en") for p in twice)


def test_saved_with_the_heist_and_shown_in_the_nights_log(services: Services) -> None:
    state = _saved(services, _typed("Kh 7d *"))
    (heist,) = state.heists
    assert heist.burned == ("Kh", "7d", "*")
    dog = value_dog(cards("Kh 7d *"))
    for lang in ("en", "fr"):
        page = root_view(replace(state.go("night"), lang=lang), lambda action: None)
        assert texts(find(page, "h1-dog-text")) == [dog_text(dog, tuple(heist.hands), lang)]
        assert find(page, "h1-dog-0") is not None


def test_heists_saved_without_burned_cards_read_as_before(services: Services) -> None:
    state = _saved(services, _judged(_table(*CASES["classic"]), ("Bob", "Cy", "Ana")))
    (heist,) = state.heists
    assert heist.burned == ()
    page = root_view(state.go("night"), lambda action: None)
    assert not [c for c in texts(page) if "chien" in c]
    old = HeistDraft(("As", "Kd", "Qh", "7c", "2s"), {"Ana": ("Ah", "Ad")}, {}, {}, Verdict(True))
    assert old.burned == ()
    odd = replace(old, deal={"burned": 7})
    assert odd.burned == ()  # a damaged entry is left out, never a crash
