"""Before the verdict: who sits where (once a night), and every doubt a photo leaves, each
fixed on the photo or confirmed with one tap."""

from __future__ import annotations

import flet as ft

from companion.ui.kit.text import t
from companion.ui.kit.widgets import Dispatch, panel, section
from companion.ui.showdown.actions import group_seats, name_hand, save_seats, table_players
from companion.ui.showdown.doubts import CHECK, Doubt, doubts
from companion.ui.showdown.host import H
from companion.ui.showdown.setup_view import table_action
from companion.ui.showdown.state import STRAY, ShowdownState

__all__ = ["seat_panel", "doubts_panel", "out_row"]


def seat_panel(state: H, dispatch: Dispatch[H]) -> ft.Control | None:
    """The night's first photo: which hand is whose, then kept as the night's seats."""
    table, lang = state.table, state.lang
    night = state.night
    if table.read is None or night is None or night.finished:
        return None
    if not table.seating:
        return ft.TextButton(
            key="change-seats",
            content=t("seat.change", lang),
            icon=ft.Icons.EVENT_SEAT,
            on_click=lambda e: dispatch(table_action(lambda tb: tb.with_seating(True))),
        )
    asked = table.asked_hand()
    return panel(
        "seats",
        section(
            "seat-list",
            t("seat.ask", lang),
            None if asked is None else _names_row(table.players, asked, lang, dispatch),
            _seat_answers(state, dispatch),
        ),
        ft.Colors.BLUE_50,
    )


def _seat_answers(state: H, dispatch: Dispatch[H]) -> ft.Control:
    """The night's first photo: its seats kept. Where the night has seats already (this
    photo's hands do not fit them, or they were asked again), the hands named go for this
    heist alone unless the players keep them as the night's new seats: never unasked."""
    lang = state.lang
    kept_already = bool(group_seats(state, table_players(state)))
    keep = ft.Button(
        key="keep-seats",
        content=t("seat.keep_new" if kept_already else "seat.keep", lang),
        icon=ft.Icons.EVENT_SEAT,
        on_click=lambda e: dispatch(save_seats),
    )
    if not kept_already:
        return keep
    once = ft.OutlinedButton(
        key="seats-this-heist",
        content=t("seat.this_heist", lang),
        on_click=lambda e: dispatch(table_action(lambda tb: tb.with_seating(False))),
    )
    return ft.Row([once, keep], wrap=True, spacing=6)


def _names_row(
    players: tuple[str, ...], asked: int, lang: str, dispatch: Dispatch[H]
) -> ft.Control:
    """The one row of names: whose is the hand outlined on the photo (its owner now filled)."""

    def button(i: int, name: str) -> ft.Control:
        kind = ft.FilledButton if i == asked else ft.OutlinedButton
        return kind(
            key=f"seat-name-{i}",
            content=name,
            on_click=lambda e: dispatch(name_hand(asked, name)),
        )

    return ft.Column(
        [
            ft.Text(t("seat.whose", lang), weight=ft.FontWeight.BOLD),
            ft.Row([button(i, name) for i, name in enumerate(players)], wrap=True, spacing=6),
        ],
        spacing=4,
        key="seat-names",
    )


def _answers(
    doubt: Doubt, table: ShowdownState, lang: str, dispatch: Dispatch[H], n: int
) -> list[ft.Control]:
    """A doubt's one-tap answers: its missing card typed, its player sitting out, or it
    confirmed as it is (a stray card left out)."""
    answers: list[ft.Control] = []
    if doubt.missing and doubt.place is not None:
        place = doubt.place
        # Not ``table_field``: a field set to expand, even by False, breaks a wrapping row.
        answers.append(
            ft.TextField(
                key=f"add-missing-{n}",
                label=t("doubt.add_missing", lang, place=table.place_name(place, lang)),
                dense=True,
                width=240,
                on_submit=lambda e: dispatch(
                    table_action(lambda tb: tb.add_cards(place, e.control.value or ""))
                ),
            )
        )
    if doubt.sits_out is not None:
        name = doubt.sits_out
        answers.append(
            ft.OutlinedButton(
                key=f"sits-out-{n}",
                content=t("doubt.sits_out", lang, name=name),
                on_click=lambda e: dispatch(table_action(lambda tb: tb.sit_out(name))),
            )
        )
    if doubt.confirmable:
        key = doubt.key
        answers.append(
            ft.OutlinedButton(
                key=f"confirm-{n}",
                content=t("doubt.leave_out" if doubt.place == STRAY else "doubt.confirm", lang),
                on_click=lambda e: dispatch(table_action(lambda tb: tb.confirm(key))),
            )
        )
    return answers


def _doubt_row(
    doubt: Doubt, table: ShowdownState, lang: str, dispatch: Dispatch[H], n: int
) -> ft.Control:
    """A doubt's line, then its answers. The line says what is in doubt; what shows it (the
    card's crop, the reader's other reads) goes between the two, by ``Doubt.spot``."""
    return ft.Row(
        [
            ft.Text("• " + doubt.text.text(lang), color=ft.Colors.BROWN_900),
            *_answers(doubt, table, lang, dispatch, n),
        ],
        wrap=True,
        spacing=6,
        key=f"doubt-{n}",
    )


def doubts_panel(state: H, dispatch: Dispatch[H]) -> ft.Control | None:
    """Every open doubt, with its one-tap answer; None when there is none."""
    table, lang = state.table, state.lang
    found = doubts(table)
    if not found:
        return None
    reads = tuple(d.key for d in found if d.key.startswith(CHECK))
    # The photo shows each doubtful read marked: one look at it, one tap for them all.
    all_right = (
        ft.OutlinedButton(
            key="confirm-reads",
            content=t("doubt.confirm_reads", lang),
            icon=ft.Icons.DONE_ALL,
            on_click=lambda e: dispatch(table_action(lambda tb: tb.confirm(*reads))),
        )
        if len(reads) > 1
        else None
    )
    return panel(
        "doubts",
        section(
            "doubt-list",
            t("doubt.title", lang),
            *[_doubt_row(d, table, lang, dispatch, i) for i, d in enumerate(found)],
            all_right,
            ft.Text(t("doubt.held", lang), size=13, italic=True),
        ),
        ft.Colors.AMBER_50,
    )


def out_row(state: H, dispatch: Dispatch[H]) -> ft.Control | None:
    """Who sits this heist out, each with a tap to bring them back."""
    table, lang = state.table, state.lang
    if not table.out:
        return None
    return ft.Row(
        [
            ft.Text(t("photo.sitting_out", lang, names=", ".join(table.out))),
            *[
                ft.TextButton(
                    key=f"plays-{i}",
                    content=t("photo.plays", lang, name=name),
                    on_click=lambda e, name=name: dispatch(
                        table_action(lambda tb: tb.back_in(name))
                    ),
                )
                for i, name in enumerate(table.out)
            ],
        ],
        wrap=True,
        key="sitting-out",
    )
