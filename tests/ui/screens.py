"""Screens built from state without a client, as a tap would drive them: shared by the UI tests."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import cv2
import flet as ft
import numpy as np

from companion.ui.cribbage.state import CribBoard
from companion.ui.kit.services import Action, Services
from companion.ui.shell.dispatch import run
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState

__all__ = ["walk", "find", "texts", "shown", "codes", "Session", "png", "board"]


def walk(control: Any) -> Iterator[Any]:
    """Every control under ``control``, depth first; an empty slot in a list is an error.

    (The web client draws a grey box for a None among a Column's controls.)
    """
    yield control
    for name in ("content", "controls", "destinations"):
        child = getattr(control, name, None)
        if isinstance(child, list):
            for item in child:
                if item is None:
                    raise AssertionError(f"None among the {name} of {type(control).__name__}")
                yield from walk(item)
        elif isinstance(child, ft.BaseControl):
            yield from walk(child)


def find(control: Any, key: str) -> Any:
    found = [c for c in walk(control) if getattr(c, "key", None) == key]
    if len(found) != 1:
        raise LookupError(f"{len(found)} controls with key {key!r}")
    return found[0]


def texts(control: Any) -> list[str]:
    return [c.value for c in walk(control) if isinstance(c, ft.Text) and c.value]


def shown(control: Any) -> Iterator[str]:
    """Every text a player can read under ``control``: texts, fields' labels and values, button
    words, menu entries (not a menu's value: the chosen entry's key, which is never drawn)."""
    for c in walk(control):
        for name in ("value", "label", "content", "hint_text", "tooltip"):
            text = getattr(c, name, None)
            if isinstance(text, str) and text and not (name == "value" and hasattr(c, "options")):
                yield text
        for option in getattr(c, "options", None) or ():
            if option.text:
                yield option.text


class Session:
    """A state and a dispatch that applies actions to it, as the app's component does."""

    def __init__(self, state: AppState, services: Services) -> None:
        self.state, self.services = state, services

    def dispatch(self, action: Action) -> None:
        self.state = run(action, self.state, self.services)

    def view(self) -> Any:
        return root_view(self.state, self.dispatch)

    def tap(self, key: str) -> None:
        control = find(self.view(), key)
        control.on_click(ft.Event("click", control))

    def submit(self, key: str, value: str) -> None:
        control = find(self.view(), key)
        control.value = value
        control.on_submit(ft.Event("submit", control))

    def type_table(self, river: str, hands: Sequence[str], tokens: str) -> None:
        """The river, each hand in seat order and the tokens typed into their fields."""
        self.submit("river-text", river)
        for i, text in enumerate(hands):
            self.submit(f"hand-{i}-text", text)
        self.submit("tokens-text", tokens)


def png(width: int = 64, height: int = 48) -> bytes:
    ok, data = cv2.imencode(".png", np.full((height, width, 3), 90, np.uint8))
    assert ok
    return data.tobytes()


def board(*entries: tuple[int, str, int]) -> CribBoard:
    result = CribBoard(players=("Ana", "Bob"))
    for player, kind, points in entries:
        result = result.add(player, kind, points)
    return result


def codes(entries: Sequence[object | None]) -> tuple[str, ...]:
    """A field's cards as their codes (``Th``), typed text as typed, nothing as ``""``."""
    return tuple("" if entry is None else str(entry) for entry in entries)
