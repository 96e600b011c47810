"""A line being typed survives re-renders caused by other actions, as Flet diffs them."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch
from flet.utils.object_model import patch_dataclass

from companion.ui.kit.services import Services
from companion.ui.shell.state import SCREENS, AppState
from companion.ui.shell.typing_kept import Rendered, keep_typing
from companion.ui.showdown.state import ShowdownState
from tests.ui.screens import Session, codes, find


class Page:
    """A session as the app's component renders it: each render goes through keep_typing."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.last: dict[Any, Rendered] = {}
        self.shown = self.render()

    def render(self) -> Any:
        page = self.session.view()
        self.last = keep_typing(page, self.last)
        return page

    def type(self, key: str, text: str) -> None:
        """Keystrokes: the client patches the shown field, as Session.apply_patch does."""
        patch_dataclass(find(self.shown, key), {"value": text})

    def rerender(self) -> tuple[Any, list[Any]]:
        """The next render, and the operations Flet's diff would send to the client."""
        before, self.shown = self.shown, self.render()
        return self.shown, sent(before, self.shown)

    def submit(self, key: str) -> None:
        field = find(self.shown, key)
        field.on_submit(ft.Event("submit", field))


def sent(before: Any, after: Any) -> list[Any]:
    for tree in (before, after):
        object.__setattr__(tree, "_frozen", True)
    patch, _added, _removed = ObjectPatch.from_diff(
        {"_b": before}, {"_b": after}, control_cls=BaseControl, frozen=True
    )
    return patch.to_message()[1:]


def value_ops(ops: list[Any]) -> list[Any]:
    return [op for op in ops if len(op) > 2 and op[2] == "value"]


@pytest.fixture
def page(services: Services) -> Page:
    return Page(Session(AppState(table=ShowdownState(("Ana", "Bob", "Cy"))), services))


def test_flet_sends_the_old_text_over_typing_without_keep_typing(services: Services) -> None:
    # The mechanism of the bug: a re-render carrying the state's text overwrites the typing.
    session = Session(AppState(table=ShowdownState(("Ana", "Bob", "Cy"))), services)
    before = session.view()
    patch_dataclass(find(before, "hand-0-text"), {"value": "As Kd"})
    session.submit("players", "Ana, Bob, Cy, Dee")
    assert "" in [op[3] for op in value_ops(sent(before, session.view()))]


@pytest.mark.parametrize("key", ["hand-0-text", "river-text", "players"])
def test_typing_survives_another_fields_submit(page: Page, key: str) -> None:
    page.type(key, "As Kd")
    other = "hand-1-text" if key != "hand-1-text" else "hand-2-text"
    page.session.submit(other, "Qh Jh")
    shown, ops = page.rerender()
    assert find(shown, key).value == "As Kd"
    assert find(shown, other).value == "Qh Jh"
    assert not [op for op in value_ops(ops) if op[3] == ""]  # nothing wipes the typing


def test_typing_survives_a_change_of_players(page: Page) -> None:
    page.type("hand-0-text", "As Kd")
    page.session.submit("players", "Ana, Bob, Cy, Dee")
    shown, ops = page.rerender()
    assert find(shown, "hand-0-text").value == "As Kd"
    assert find(shown, "hand-3-text").value == ""
    assert [op[3] for op in value_ops(ops)] == ["Ana, Bob, Cy, Dee"]


@pytest.mark.parametrize("variant, key", [("francois", "francois-1"), ("circular", "shared-0")])
def test_variant_fields_keep_typing(services: Services, variant: str, key: str) -> None:
    page = Page(
        Session(AppState(table=ShowdownState(("Ana", "Bob", "Cy"), variant=variant)), services)
    )
    page.type(key, "7c")
    page.session.submit("river-text", "2c 3d 4h")
    shown, _ops = page.rerender()
    assert find(shown, key).value == "7c"


def test_submit_still_parses_and_flags_the_typed_line(page: Page) -> None:
    page.type("hand-0-text", "As Zz")
    page.submit("hand-0-text")
    assert codes(page.session.state.table.cards_at(0)) == ("As", "Zz")
    assert "card.unreadable" in {p.code for p in page.session.state.table.problems()}
    shown, _ops = page.rerender()
    assert find(shown, "hand-0-text").value == "As Zz"
    assert find(shown, "hand-0-card-1")  # the bad card is a chip, to fix by tap


def test_a_change_from_elsewhere_replaces_the_typing(page: Page) -> None:
    page.session.submit("hand-0-text", "Qh")
    page.rerender()
    page.type("hand-0-text", "Qh 9")
    page.session.dispatch(lambda s, _: s.with_table(s.table.cleared()))  # new table
    shown, ops = page.rerender()
    assert find(shown, "hand-0-text").value == ""
    assert ["value", ""] in [op[2:] for op in value_ops(ops)]


@pytest.mark.parametrize("key", ["hand-0-text", "river-text", "players"])
def test_a_new_table_drops_typing_even_where_the_text_was_empty(page: Page, key: str) -> None:
    # The state's text is "" before and after: only the table's reset count tells them apart.
    page.type(key, "As Kd")
    page.session.tap("new-table")
    shown, ops = page.rerender()
    expected = "Ana, Bob, Cy" if key == "players" else ""
    assert find(shown, key).value == expected
    assert ["value", expected] in [op[2:] for op in value_ops(ops)]


def test_a_photo_read_keeps_typing_where_it_read_nothing(page: Page) -> None:
    page.type("hand-2-text", "9c 9d")
    page.session.dispatch(
        lambda s, _: s.with_table(
            s.table.with_read(["2c", "3d", "4h"], [["As", "Ks"], ["Qh", "Jh"]], None, "fr")
        )
    )
    shown, _ops = page.rerender()
    assert find(shown, "river-text").value == "2c 3d 4h"
    assert find(shown, "hand-0-text").value == "As Ks"
    assert find(shown, "hand-2-text").value == "9c 9d"


def test_a_cleared_spit_table_drops_typing(services: Services) -> None:
    page = Page(Session(AppState().go("spit"), services))
    page.type("spit-pile-0", "7h")
    page.session.tap("spit-new")
    shown, _ops = page.rerender()
    assert find(shown, "spit-pile-0").value == ""


@pytest.mark.parametrize("screen", SCREENS)
def test_every_screen_keeps_typing_in_its_fields(services: Services, screen: str) -> None:
    page = Page(Session(AppState().go(screen), services))
    for key in page.last:
        page.type(key, "typed")
    shown, ops = page.rerender()
    assert value_ops(ops) == []
    assert all(find(shown, key).value == "typed" for key in page.last)


def test_a_command_field_is_cleared_once_used(page: Page) -> None:
    page.type("preset-name", "Friday")
    page.submit("preset-name")
    assert [p.name for p in page.session.state.presets] == ["Friday"]
    shown, _ops = page.rerender()
    assert find(shown, "preset-name").value == ""
