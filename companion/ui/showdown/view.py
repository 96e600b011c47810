"""The showdown screen: setup, cards in (photo, webcam, typing), fixes, tokens, the verdict."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.engine.cards import Card
from companion.errors import CompanionError, DuplicateCardError, TableCode
from companion.storage import Outcome
from companion.ui.kit.cards import entry_text
from companion.ui.kit.text import t
from companion.ui.kit.widgets import RED, Dispatch, card_chip, panel, photo_buttons, section
from companion.ui.showdown.actions import save_heist, save_in_next_night
from companion.ui.showdown.check import HAND_DEALT
from companion.ui.showdown.doubts import doubts, layout
from companion.ui.showdown.doubts_view import doubts_panel, out_row, seat_panel
from companion.ui.showdown.fix_view import fix_panel
from companion.ui.showdown.host import H
from companion.ui.showdown.photo_view import photo_panel, place_colour
from companion.ui.showdown.setup_view import setup_panel, table_action
from companion.ui.showdown.state import RIVER, RIVER2, STRAY, ShowdownState
from companion.ui.showdown.verdict_view import (
    answered_panel,
    best_fives,
    tokens_panel,
    verdict_panel,
)

__all__ = ["showdown_view"]


def _place_row(
    table: ShowdownState, place: int, lang: str, dispatch: Dispatch[H], doubled: set[Card]
) -> ft.Control:
    name = table.place_name(place, lang)
    cards = table.cards_at(place)
    slug = {RIVER: "river", RIVER2: "river2", STRAY: "stray"}.get(place, f"hand-{place}")

    def pick(index: int) -> Any:
        return lambda _e: dispatch(table_action(lambda tb: tb.select(place, index)))

    chips = [
        card_chip(
            entry_text(card),
            key=f"{slug}-card-{i}",
            selected=table.selected == (place, i),
            bad=isinstance(card, str) or card in doubled,
            on_click=pick(i),
        )
        for i, card in enumerate(cards)
    ]

    def typed(e: ft.Event[ft.TextField]) -> None:
        text = e.control.value or ""
        dispatch(table_action(lambda tb: tb.with_cards_text(place, text)))

    title: ft.Control = ft.Text(name, weight=ft.FontWeight.BOLD)
    if table.read is not None:  # the colour the photo draws this place's outlines in
        swatch = ft.Container(
            width=12, height=12, bgcolor=place_colour(table, place), border_radius=6
        )
        title = ft.Row([swatch, title], spacing=6)
    controls: list[ft.Control] = [
        title,
        ft.Row(chips, wrap=True, spacing=4),
        ft.TextField(
            key=f"{slug}-text",
            label=t("cards_of", lang, place=name),
            value=" ".join(entry_text(card) for card in cards),
            dense=True,
            on_submit=typed,
            on_blur=typed,
            data=table.edition,
        ),
    ]
    if place >= 0 and table.deals.francois_card:

        def given(e: ft.Event[ft.TextField]) -> None:
            text = e.control.value or ""
            dispatch(table_action(lambda tb: tb.with_francois_text(place, text)))

        card = table.francois[place]
        controls.append(
            ft.TextField(
                key=f"francois-{place}",
                label=t("francois_card", lang),
                width=200,
                dense=True,
                value="" if card is None else entry_text(card),
                on_submit=given,
                on_blur=given,
                data=table.edition,
            )
        )
    return ft.Column(key=f"{slug}-row", controls=controls, spacing=4)


def _shared_rows(table: ShowdownState, lang: str, dispatch: Dispatch[H]) -> ft.Control | None:
    """The circular variant's hands lying between neighbours, typed."""
    if not table.deals.shared_cards:
        return None

    def typed(pair: int) -> Any:
        def handler(e: ft.Event[ft.TextField]) -> None:
            text = e.control.value or ""
            dispatch(table_action(lambda tb: tb.with_shared_text(pair, text)))

        return handler

    return ft.Column(
        key="shared",
        controls=[
            ft.TextField(
                key=f"shared-{i}",
                label=t("shared_hand", lang, pair=f"{a}+{b}"),
                value=" ".join(entry_text(card) for card in table.shared[i]),
                dense=True,
                on_submit=typed(i),
                on_blur=typed(i),
                data=table.edition,
            )
            for i, (a, b) in enumerate(table.neighbours())
        ],
        spacing=6,
    )


def _replaced_row(table: ShowdownState, lang: str, dispatch: Dispatch[H]) -> ft.Control | None:
    """After a photo replaced a table that had cards: one tap brings that table back."""
    if table.before is None:
        return None
    return ft.Row(
        [
            ft.Text(t("photo.replaced", lang), size=13),
            ft.OutlinedButton(
                key="undo-photo",
                content=t("photo.undo", lang),
                icon=ft.Icons.UNDO,
                on_click=lambda e: dispatch(table_action(lambda tb: tb.back_before_photo())),
            ),
        ],
        wrap=True,
        key="replaced",
    )


# A hand's or the river's size, said by the engine or the setup: a photo's doubts say it too.
_SIZES = frozenset({TableCode.HOLE_COUNT, TableCode.NO_CARDS, HAND_DEALT})


def _problems_panel(
    table: ShowdownState, problems: tuple[CompanionError, ...], lang: str
) -> ft.Control | None:
    """What the engine finds wrong with the table, less the sizes a photo's doubts say already
    (with their answers) just above."""
    found = doubts(table)
    short = {d.sits_out for d in found if d.key.startswith("hand:")}
    river = any(d.key.startswith("river:") for d in found)
    shown = [
        p
        for p in problems
        if not (p.code in _SIZES and p.params.get("name") in short)
        and not (p.code == TableCode.RIVER_SIZE and river)
    ]
    if not shown:
        return None
    return panel(
        "problems",
        section(
            "problem-list",
            t("problems", lang),
            *[ft.Text("• " + p.message(lang), color=RED) for p in shown],
        ),
        ft.Colors.RED_50,
    )


_OVER = {Outcome.WON: "night.over_won", Outcome.LOST: "night.over_lost"}


def _share_button(lang: str, share: Callable[[], None] | None) -> ft.Control | None:
    """The verdict's picture (photo, reads, order, reasons) sent to the browser."""
    if share is None:
        return None
    return ft.OutlinedButton(
        key="share-picture",
        content=t("share.button", lang),
        icon=ft.Icons.SHARE,
        on_click=lambda e: share(),
    )


def _save_row(state: H, dispatch: Dispatch[H]) -> ft.Control | None:
    """Under a verdict: the heist saved in the night; a night already won, lost or closed
    says so, with one tap to start the group's next night and save the heist there."""
    night, lang = state.night, state.lang
    if night is None:
        return None
    if not night.finished:
        return ft.Button(
            key="save-heist", content=t("save_heist", lang), on_click=lambda e: dispatch(save_heist)
        )
    over = t(_OVER.get(night.outcome, "night.over_closed"), lang, id=night.night.id)
    return panel(
        "night-over",
        ft.Column(
            [
                ft.Text(over, weight=ft.FontWeight.BOLD),
                ft.Button(
                    key="next-night-save",
                    content=t("night.next_and_save", lang),
                    icon=ft.Icons.NIGHTLIFE,
                    on_click=lambda e: dispatch(save_in_next_night),
                ),
            ],
            spacing=6,
        ),
        ft.Colors.BLUE_50,
    )


def showdown_view(
    state: H,
    dispatch: Dispatch[H],
    photo_button: ft.Control | None,
    webcam_button: ft.Control | None = None,
    share: Callable[[], None] | None = None,
) -> ft.Control:
    """``share`` sends the judged table's picture to the browser (None: no such button)."""
    table, lang = state.table, state.lang
    checked = table.check  # the one showdown of this state
    problems, result = checked.problems, checked.showdown
    doubled = {p.params["card"] for p in problems if isinstance(p, DuplicateCardError)}
    cards_in = photo_buttons(state, photo_button, webcam_button)
    if table.photo:
        cards_in.append(ft.Text(t("photo_kept", lang), size=13, key="photo-kept"))
    parts: list[ft.Control | None] = [
        setup_panel(state, dispatch),
        ft.Row(cards_in, wrap=True, key="cards-in"),
        _replaced_row(table, lang, dispatch),
        photo_panel(table, lang, dispatch),
    ]
    if table.on_photo:  # a card tapped on the photo: its fixes right under it
        parts.append(fix_panel(table, lang, dispatch))
    if table.read is not None and layout(table, len(table.players) + len(table.out)) is None:
        parts.append(ft.Text(t("doubt.no_layout", lang), size=13, key="no-layout"))
    parts += [seat_panel(state, dispatch), out_row(state, dispatch)]
    shown = table.places() + ((STRAY,) if table.stray else ())
    in_list = table.selected is not None and not (table.on_photo or table.on_doubt)
    for place in shown:
        parts.append(_place_row(table, place, lang, dispatch, doubled))
        if in_list and table.selected is not None and table.selected[0] == place:
            parts.append(fix_panel(table, lang, dispatch))  # right under the tapped card
    parts.append(_shared_rows(table, lang, dispatch))
    held = doubts_panel(state, dispatch)  # the verdict waits for every doubt
    parts.append(held)
    parts.append(_problems_panel(table, problems, lang))
    if result is not None and held is None:
        # The verdict right under the token buttons: where the last tap was made.
        parts += [
            tokens_panel(table, lang, dispatch),
            verdict_panel(result, lang),
            answered_panel(table, lang),
            best_fives(table, result, lang),
        ]
        if result.verdict is not None:
            parts.append(_save_row(state, dispatch))
            parts.append(_share_button(lang, share))
    parts.append(
        ft.TextButton(
            key="new-table",
            content=t("new_table", lang),
            on_click=lambda e: dispatch(table_action(lambda tb: tb.cleared())),
        )
    )
    return ft.Column([p for p in parts if p is not None], spacing=12)
