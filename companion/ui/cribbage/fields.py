"""The cribbage screen's inputs: a field of cards and a switch, each handing what the player
typed or flipped to a state change (one line in the sections that use them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from companion.ui.kit.cards import Entry, entry_text

__all__ = ["cards_field", "switch"]


def cards_field(
    key: str, label: str, typed: Sequence[Entry], width: int, on_text: Callable[[str], None]
) -> ft.TextField:
    """Cards as typed: each card in the app's notation (``10h``), a token that is no card as
    it was typed.

    Submitting the field or leaving it hands its text over; an unchanged text changes nothing
    in the state, so leaving a field is cheap.
    """

    def handler(e: ft.Event[ft.TextField]) -> None:
        on_text(e.control.value or "")

    return ft.TextField(
        key=key,
        label=label,
        value=" ".join(entry_text(entry) for entry in typed),
        dense=True,
        width=width,
        on_submit=handler,
        on_blur=handler,
    )


def switch(key: str, label: str, value: bool, on_flip: Callable[[bool], None]) -> ft.Switch:
    return ft.Switch(
        key=key, label=label, value=value, on_change=lambda e: on_flip(bool(e.control.value))
    )
