"""The game-night screen: score, heists with their photos, undo, start and close."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from companion.storage import CribbageGame, NightStatus, Outcome
from companion.storage.bgstats import create_play_link, play_of
from companion.storage.stats import night_token_rule
from companion.ui.kit.heist_row import heist_row
from companion.ui.kit.services import pure
from companion.ui.kit.text import t, variant_name
from companion.ui.kit.widgets import Dispatch, OpenReplay, panel, section
from companion.ui.night.actions import close_night, forget_seats, start_night, undo_heist
from companion.ui.night.host import H

__all__ = ["NightLinks", "night_view"]


@dataclass(frozen=True)
class NightLinks:
    """What this screen shows or opens of the others, given by the app."""

    setup: Callable[[], ft.Control]  # the table's players, variant and rules (Showdown)
    game_row: Callable[[CribbageGame], ft.Control]  # a cribbage game of the night (Cribbage)
    replay: OpenReplay  # a heist's replay


def _seats_row(status: NightStatus, lang: str, dispatch: Dispatch[H]) -> ft.Control | None:
    """Where the players sit, going round the table, and a way to tell it again."""
    seats = status.night.seats
    if not seats or status.finished:
        return None
    names = ", ".join(sorted(seats, key=lambda name: seats[name]))
    return ft.Row(
        [
            ft.Text(t("seat.night", lang, names=names), key="seats-line"),
            ft.TextButton(
                key="forget-seats",
                content=t("seat.forget", lang),
                on_click=lambda e: dispatch(forget_seats),
            ),
        ],
        wrap=True,
    )


def _bgstats_link(state: H) -> ft.Control | None:
    """A won or lost night, to add to BG Stats with one tap."""
    status = state.night
    if status is None or not status.outcome.decided:
        return None
    return ft.TextButton(
        key="night-bgstats",
        content=t("bgstats.open", state.lang),
        icon=ft.Icons.OPEN_IN_NEW,
        url=create_play_link(play_of(status, state.heists, state.lang)),
    )


def _close_asked(state: H, dispatch: Dispatch[H]) -> ft.Control | None:
    """ "Close the night" tapped: the night and its score said, and asked once more."""
    status, lang = state.night, state.lang
    if status is None or not state.closing_night:
        return None
    ask = t("close_night.ask", lang, id=status.night.id, vaults=status.vaults, alarms=status.alarms)
    return panel(
        "close-night-ask",
        ft.Column(
            [
                ft.Text(ask, weight=ft.FontWeight.BOLD),
                ft.Row(
                    [
                        ft.Button(
                            key="close-night-yes",
                            content=t("close_night.yes", lang),
                            on_click=lambda e: dispatch(close_night),
                        ),
                        ft.OutlinedButton(
                            key="close-night-no",
                            content=t("close_night.no", lang),
                            on_click=lambda e: dispatch(
                                pure(lambda s: s.with_closing_night(False))
                            ),
                        ),
                    ],
                    wrap=True,
                ),
            ],
            spacing=6,
        ),
        ft.Colors.AMBER_50,
    )


def night_view(state: H, dispatch: Dispatch[H], links: NightLinks) -> ft.Control:
    lang = state.lang
    if state.night is None:
        return ft.Column(
            [
                ft.Text(t("no_night", lang), size=16, key="no-night"),
                links.setup(),
                ft.Button(
                    key="start-night",
                    content=t("start_night", lang),
                    on_click=lambda e: dispatch(start_night),
                ),
            ],
            spacing=12,
        )
    status = state.night
    night = status.night
    ended = {Outcome.WON: "won", Outcome.LOST: "lost", Outcome.ABANDONED: "abandoned"}
    thumbs = dict(state.thumbnails)
    rows = [
        heist_row(h, lang, thumbs.get(h.photo or ""), links.replay, night.players)
        for h in reversed(state.heists)
    ] or [ft.Text(t("no_heist", lang))]
    parts: list[ft.Control | None] = [
        ft.Text(
            t(
                "night_title",
                lang,
                id=night.id,
                variant=variant_name(night.variant, lang, night_token_rule(night)),
            ),
            key="night-title",
            size=20,
            weight=ft.FontWeight.BOLD,
        ),
        ft.Text(", ".join(night.players)),
        _seats_row(status, lang, dispatch),
        ft.Text(
            t("score", lang, vaults=status.vaults, alarms=status.alarms),
            size=22,
            key="score",
            weight=ft.FontWeight.BOLD,
        ),
        ft.Text(t(ended[status.outcome], lang), size=20, key="night-end")
        if status.outcome in ended
        else None,
        _bgstats_link(state),
        _close_asked(state, dispatch),
        ft.Row(
            [
                ft.Button(
                    key="undo",
                    content=t("undo", lang),
                    on_click=lambda e: dispatch(undo_heist),
                ),
                ft.TextButton(
                    key="close-night",
                    content=t("close_night", lang),
                    on_click=lambda e: dispatch(pure(lambda s: s.with_closing_night(True))),
                ),
                ft.TextButton(
                    key="to-showdown",
                    content=t("nav_showdown", lang),
                    on_click=lambda e: dispatch(pure(lambda s: s.go("showdown"))),
                ),
            ],
            wrap=True,
        ),
        section(
            "night-cribbage",
            t("night_crib", lang),
            *(
                [links.game_row(g) for g in state.night_cribbage]
                or [ft.Text(t("night_crib_none", lang))]
            ),
        ),
        *rows,
    ]
    return ft.Column([p for p in parts if p is not None], spacing=10)
