"""The picked card's fixes: its rank or suit in one tap, another card typed, a card the photo
missed added beside it, the card moved elsewhere or taken off the table. Shown where the card
was picked: under its place's row, under the photo, or in its doubt's row ("other...")."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.ui.kit.cards import entry_text
from companion.ui.kit.text import t
from companion.ui.kit.widgets import Dispatch
from companion.ui.showdown.host import H
from companion.ui.showdown.setup_view import table_action, table_field
from companion.ui.showdown.state import ShowdownState

__all__ = ["fix_panel"]

RANKS = "AKQJT98765432"
SUITS = "shdc"


def _tap_button(key: str, label: str, dispatch: Dispatch[H], change: Any) -> ft.Control:
    """A small button for one-tap fixes (a rank or a suit of the picked card)."""
    return ft.TextButton(
        key=key,
        content=label,
        on_click=lambda e: dispatch(table_action(change)),
        style=ft.ButtonStyle(padding=ft.Padding.all(4)),
    )


def _retouch_rows(lang: str, dispatch: Dispatch[H]) -> list[ft.Control]:
    """The picked card's rank, then its suit, each one tap."""
    ranks = [
        _tap_button(
            f"rank-{r}",
            "10" if r == "T" else r,
            dispatch,
            lambda tb, r=r: tb.retouch_selected(rank=r),
        )
        for r in RANKS
    ]
    suits = [
        _tap_button(
            f"suit-{s}", t(f"suit_{s}", lang), dispatch, lambda tb, s=s: tb.retouch_selected(suit=s)
        )
        for s in SUITS
    ]
    return [
        ft.Row(ranks, wrap=True, spacing=2, run_spacing=2),
        ft.Row(suits, spacing=2, wrap=True),
    ]


def _typed_fixes(
    table: ShowdownState, here: int, lang: str, dispatch: Dispatch[H]
) -> list[ft.Control]:
    """The picked card replaced by a typed one, or a card the photo missed added beside it."""
    return [
        table_field(
            "replace",
            t("replace_with", lang),
            160,
            dispatch,
            lambda tb, text: tb.replace_selected(text),
        ),
        table_field(
            "add-card",
            t("photo.add_card", lang, place=table.place_name(here, lang)),
            200,
            dispatch,
            lambda tb, text: tb.add_cards(here, text),
        ),
    ]


def _move_rows(
    table: ShowdownState, here: int, lang: str, dispatch: Dispatch[H]
) -> list[ft.Control]:
    """The picked card moved to another place, or taken off the table."""
    moves: list[ft.Control] = [
        ft.OutlinedButton(
            key=f"move-{p}",
            content=table.place_name(p, lang),
            on_click=lambda e, p=p: dispatch(table_action(lambda tb: tb.move_selected(p))),
        )
        for p in table.places()
        if p != here
    ]
    return [
        ft.Text(t("move_to", lang)),
        ft.Row(moves, wrap=True),
        ft.TextButton(
            key="remove",
            content=t("remove", lang),
            on_click=lambda e: dispatch(table_action(lambda tb: tb.remove_selected())),
        ),
    ]


def fix_panel(table: ShowdownState, lang: str, dispatch: Dispatch[H]) -> ft.Control | None:
    """The picked card's fixes: its rank or suit, another card typed, a card added, moved
    elsewhere or removed."""
    card = table.selected_card()
    if card is None or table.selected is None:
        return None
    here = table.selected[0]
    title = ft.Text(t("selected", lang, card=entry_text(card)), weight=ft.FontWeight.BOLD)
    return ft.Container(
        key="fix-panel",
        content=ft.Column(
            [
                title,
                *_retouch_rows(lang, dispatch),
                *_typed_fixes(table, here, lang, dispatch),
                *_move_rows(table, here, lang, dispatch),
            ],
            spacing=6,
        ),
        padding=10,
        border=ft.Border.all(2, ft.Colors.BLUE_700),
        border_radius=8,
    )
