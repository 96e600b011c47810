"""Pieces every screen uses: card chips, banners, titled blocks, choices, the photo buttons."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

import flet as ft

from companion.engine.cards import Card
from companion.ui.kit.banner import Banner
from companion.ui.kit.cards import card_face, entry, entry_text
from companion.ui.kit.page import Page
from companion.ui.kit.services import Action
from companion.ui.kit.text import t

__all__ = [
    "dropdown",
    "photo_buttons",
    "Dispatch",
    "Download",
    "OpenReplay",
    "card_chip",
    "card_label",
    "suit_colours",
    "banner_view",
    "section",
    "panel",
]

S = TypeVar("S")
Dispatch = Callable[[Action[S]], None]
Download = Callable[[str, int | None], None]  # (kind "json"/"csv", night id or None for all)
OpenReplay = Callable[[int, int | None], None]  # a night's heist (None: its first alarm)

RED = ft.Colors.RED_700
GREEN = ft.Colors.GREEN_700
TWO_COLOURS = {"s": ft.Colors.BLACK, "h": RED, "d": RED, "c": ft.Colors.BLACK}
# Hearts and diamonds are the pair players confuse most: four colours set them apart.
FOUR_COLOURS = {"s": ft.Colors.BLACK, "h": RED, "d": ft.Colors.BLUE_800, "c": ft.Colors.GREEN_800}
# The suit colours of the page being built. A context, not a parameter: every screen draws
# chips, and the colours are one setting of the whole page (``root_view`` sets it).
_PALETTE: ContextVar[Mapping[str, str]] = ContextVar("suit colours", default=TWO_COLOURS)


@contextmanager
def suit_colours(four: bool) -> Iterator[None]:
    """Chips built inside use four suit colours, or the usual two."""
    token = _PALETTE.set(FOUR_COLOURS if four else TWO_COLOURS)
    try:
        yield
    finally:
        _PALETTE.reset(token)


def card_label(card: str) -> str:
    """``"Th"`` -> ``"10h"``: a card in the app's notation (the rank as printed on the card,
    then the suit letter, as fields show it and as it is typed); other text as it is."""
    value = entry(card)
    return entry_text(value) if isinstance(value, Card) else card


def _face(card: str) -> tuple[str, str | None]:
    """What a chip draws: ``"Th"`` -> (``"10♥"``, ``"h"``); text that is no card as it is."""
    value = entry(card)
    if not isinstance(value, Card):
        return card, None
    return card_face(value), None if value.suit is None else value.suit.letter


def card_chip(
    card: str,
    *,
    key: str,
    selected: bool = False,
    highlight: bool = False,
    on_click: Callable[[ft.Event[ft.Container]], None] | None = None,
    bad: bool = False,
) -> ft.Control:
    face, suit = _face(card)
    color = _PALETTE.get().get(suit or "", ft.Colors.BLACK)
    border = (
        ft.Colors.BLUE_700
        if selected
        else (ft.Colors.AMBER_700 if highlight else ft.Colors.GREY_400)
    )
    return ft.Container(
        key=key,
        content=ft.Text(
            face,
            size=18,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.PURPLE_900 if bad else color,
            # Named as it is typed (10h), for screen readers and tests alike.
            semantics_label=card_label(card),
        ),
        padding=ft.Padding.symmetric(horizontal=8, vertical=6),
        border=ft.Border.all(3 if selected or highlight else 1, border),
        border_radius=6,
        bgcolor=ft.Colors.AMBER_100
        if highlight
        else (ft.Colors.PINK_50 if bad else ft.Colors.WHITE),
        on_click=on_click,
    )


def banner_view(
    banner: Banner | None, lang: str, on_close: Callable[[], None] | None = None
) -> ft.Control | None:
    """The banner, drawn over the page's foot (nothing under it moves); a tap closes it."""
    if banner is None:
        return None
    return ft.Container(
        key="banner",
        content=ft.Text(banner.text(lang), color=ft.Colors.WHITE, size=15),
        bgcolor=RED if banner.error else ft.Colors.BLUE_GREY_700,
        padding=10,
        border_radius=6,
        shadow=ft.BoxShadow(blur_radius=8, color=ft.Colors.BLACK_38),
        on_click=None if on_close is None else lambda e: on_close(),
        left=12,
        right=12,
        bottom=8,
    )


def section(key: str, title: str, *controls: ft.Control | None) -> ft.Control:
    """A titled block; keyed, so that blocks appearing above it never take over its controls."""
    return ft.Column(
        [
            ft.Text(title, size=16, weight=ft.FontWeight.BOLD),
            *[c for c in controls if c is not None],
        ],
        spacing=6,
        key=key,
    )


def panel(key: str, content: ft.Control, colour: str) -> ft.Control:
    """A block set apart by its tint (a question asked, the doubts, the problems)."""
    return ft.Container(key=key, content=content, padding=8, bgcolor=colour, border_radius=8)


def dropdown(
    key: str,
    label: str,
    value: str,
    options: list[tuple[str, str]],
    on_pick: Callable[[str], None],
    width: int = 170,
) -> ft.Dropdown:
    """A compact choice among ``options`` (key, words); ``on_pick`` gets the chosen key.

    Named by its label for screen readers and tests (a tooltip: the web client gives a menu
    no name of its own).
    """
    return ft.Dropdown(
        key=key,
        label=label,
        tooltip=label,
        value=value,
        dense=True,
        width=width,
        options=[ft.DropdownOption(key=k, text=v) for k, v in options],
        on_select=lambda e: on_pick(str(e.control.value)),
    )


def photo_buttons(state: Page, *buttons: ft.Control | None) -> list[ft.Control]:
    """The ways a screen takes a photo, and why photos cannot be read now, if they cannot."""
    row: list[ft.Control] = [button for button in buttons if button is not None]
    if state.vision_note:
        reason = state.vision_note.text(state.lang)
        row.append(
            ft.Text(
                t("vision_off", state.lang, reason=reason),
                size=13,
                color=ft.Colors.ORANGE_900,
                key="vision-note",
            )
        )
    return row
