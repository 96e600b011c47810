"""The Showdown screen's render: the engine checks and judges a state once, whatever it shows."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.engine.gang import variants
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown import check as showdown_check
from companion.ui.showdown.state import RIVER, ShowdownState
from tests.ui.screens import find, texts


class Counted:
    """A real engine function that counts its calls."""

    def __init__(self, function: Any) -> None:
        self.function, self.calls = function, 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.function(*args)


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> tuple[Counted, Counted]:
    classic = variants.VARIANTS["classic"]
    forms: Counted = Counted(classic.former)
    monkeypatch.setitem(variants.VARIANTS, "classic", replace(classic, former=forms))
    checks = Counted(showdown_check.table_problems)
    monkeypatch.setattr(showdown_check, "table_problems", checks)
    return forms, checks


def judged() -> ShowdownState:
    table = ShowdownState(("Ana", "Bob", "Cy")).with_cards_text(RIVER, "As Kd Qh 7c 2s")
    for seat, cards in enumerate(("Ah Ad", "Th 9h", "3c 2c")):
        table = table.with_cards_text(seat, cards)
    for hand in ("Bob", "Cy", "Ana"):  # weakest first: the vault opens
        table = table.tap_hand(hand)
    return table


def test_one_render_runs_one_showdown_and_one_check(counts: tuple[Counted, Counted]) -> None:
    forms, checks = counts
    state = AppState(lang="en").with_table(judged())
    page = root_view(state, lambda action: None)
    # Everything that needs the showdown is on the page: tokens, verdict, best fives, order.
    assert texts(find(page, "verdict"))[0] == "VAULT OPENS"
    assert find(page, "token-Ana") and find(page, "best-five")
    assert (forms.calls, checks.calls) == (1, 1)
    root_view(state, lambda action: None)  # the same state shown again: nothing recomputed
    assert (forms.calls, checks.calls) == (1, 1)


def test_each_change_of_state_is_judged_once_more(counts: tuple[Counted, Counted]) -> None:
    forms, checks = counts
    state = AppState(lang="en").with_table(judged().clear_tokens().tap_hand("Bob"))
    root_view(state, lambda action: None)
    assert (forms.calls, checks.calls) == (1, 1)
    changed = state.with_table(state.table.tap_hand("Cy"))
    root_view(changed, lambda action: None)
    assert (forms.calls, checks.calls) == (2, 2)


def test_a_table_with_problems_forms_no_hand(counts: tuple[Counted, Counted]) -> None:
    forms, checks = counts
    state = AppState(lang="en").with_table(judged().with_cards_text(RIVER, "As Kd Qh"))
    page = root_view(state, lambda action: None)
    assert any("the river has 3 cards, not 5" in text for text in texts(find(page, "problems")))
    assert (forms.calls, checks.calls) == (0, 1)
