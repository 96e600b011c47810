"""The game-night screen: score, heists with their photos, undo, start and close."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from companion.storage import CribbageGame, Heist, NightStatus, Outcome
from companion.storage.hands import sat_out
from companion.ui.night.actions import close_night, forget_seats, start_night, undo_heist
from companion.ui.night.host import H
from companion.ui.services import pure
from companion.ui.text import t, variant_name
from companion.ui.widgets import GREEN, RED, Dispatch, OpenReplay, card_chip, section

__all__ = ["NightLinks", "night_view"]


@dataclass(frozen=True)
class NightLinks:
    """What this screen shows or opens of the others, given by the app."""

    setup: Callable[[], ft.Control]  # the table's players, variant and rules (Showdown)
    game_row: Callable[[CribbageGame], ft.Control]  # a cribbage game of the night (Cribbage)
    replay: OpenReplay  # a heist's replay


def _heist_row(
    heist: Heist,
    lang: str,
    thumb: bytes | None,
    replay: OpenReplay | None = None,
    players: tuple[str, ...] = (),
) -> ft.Control:
    """A saved heist as it was on the table: the river, every hand's hole cards with its
    token, who sat out, the verdict and its reasons, the photo."""
    out = sat_out(players, heist.owners)
    verdict = t("vault" if heist.verdict.opens else "alarm_word", lang)
    reasons = [
        ft.Text(str(f.get("reason_fr" if lang == "fr" else "reason", "")), size=13)
        for f in heist.verdict.failures
    ]
    hands = [
        ft.Row(
            [
                ft.Text(f"{hid} #{heist.tokens.get(hid, '?')}", size=13),
                *[card_chip(c, key=f"h{heist.number}-{hid}-{i}") for i, c in enumerate(cards)],
            ],
            wrap=True,
            spacing=4,
        )
        for hid, cards in heist.hands.items()
    ]
    parts: list[ft.Control | None] = [
        ft.Text(
            t("heist_line", lang, n=heist.number, verdict=verdict),
            weight=ft.FontWeight.BOLD,
            color=GREEN if heist.verdict.opens else RED,
        ),
        ft.Row(
            [card_chip(c, key=f"h{heist.number}-river-{i}") for i, c in enumerate(heist.river)],
            wrap=True,
            spacing=4,
        ),
        ft.Row(
            [card_chip(c, key=f"h{heist.number}-river2-{i}") for i, c in enumerate(heist.board2)],
            wrap=True,
            spacing=4,
        )
        if heist.board2
        else None,
        *hands,
        ft.Text(
            t("photo.sitting_out", lang, names=", ".join(out)),
            size=13,
            key=f"h{heist.number}-out",
        )
        if out
        else None,
        *reasons,
        ft.Image(src=thumb, width=200, key=f"photo-{heist.number}") if thumb else None,
        ft.TextButton(
            key=f"replay-{heist.number}",
            content=t("replay", lang),
            icon=ft.Icons.INSIGHTS,
            on_click=lambda e: replay(heist.night_id, heist.id),
        )
        if replay
        else None,
    ]
    return ft.Container(
        key=f"heist-{heist.number}",
        content=ft.Column([p for p in parts if p is not None], spacing=4),
        padding=8,
        border=ft.Border.all(1, ft.Colors.GREY_400),
        border_radius=8,
    )


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
        _heist_row(h, lang, thumbs.get(h.photo or ""), links.replay, night.players)
        for h in reversed(state.heists)
    ] or [ft.Text(t("no_heist", lang))]
    parts: list[ft.Control | None] = [
        ft.Text(
            t("night_title", lang, id=night.id, variant=variant_name(night.variant, lang)),
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
                    on_click=lambda e: dispatch(close_night),
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
