"""The cribbage screen: count a show (typed or photographed), the board to 121, a pegging count,
discard advice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from companion.engine.cards import Card
from companion.engine.cribbage.score import ScoreItem, Show
from companion.engine.cribbage.words import item_label
from companion.errors import CompanionError
from companion.ui.cribbage.actions import CribAction, count_to, on_screen, peg_to, starter_at
from companion.ui.cribbage.advice_view import advice_section
from companion.ui.cribbage.board_view import BOARD_SIZE, board_section, hole_xy
from companion.ui.cribbage.fields import cards_field, switch
from companion.ui.cribbage.host import H
from companion.ui.cribbage.state import PEG_ENDS, PegCount, ShowCount
from companion.ui.kit.cards import Entry
from companion.ui.kit.text import t
from companion.ui.kit.widgets import (
    GREEN,
    RED,
    Dispatch,
    card_chip,
    dropdown,
    photo_buttons,
    section,
)

__all__ = ["cribbage_view", "hole_xy", "BOARD_SIZE"]


def _picked(
    on_pick: Callable[[int], None] | None, index: int
) -> Callable[[ft.Event[ft.Container]], None] | None:
    if on_pick is None:
        return None
    return lambda _e: on_pick(index)


def _chips(
    typed: Sequence[Entry],
    key: str,
    unsure: Sequence[Card] = (),
    on_pick: Callable[[int], None] | None = None,
) -> ft.Control:
    return ft.Row(
        [
            card_chip(
                str(entry),
                key=f"{key}-{i}",
                highlight=entry in unsure,
                bad=isinstance(entry, str),  # flagged where it sits, as typed
                on_click=_picked(on_pick, i),
            )
            for i, entry in enumerate(typed)
        ],
        wrap=True,
        spacing=4,
    )


def _item_rows(items: tuple[ScoreItem, ...], lang: str, key: str) -> list[ft.Control]:
    """One line per scoring combination: its name, its points, its cards."""
    return [
        ft.Row(
            [
                ft.Text(
                    t("crib_item", lang, label=item_label(item, lang), points=item.points),
                    size=14,
                    width=230,
                ),
                _chips(item.cards, f"{key}-{i}-card"),
            ],
            wrap=True,
            spacing=6,
            key=f"{key}-{i}",
        )
        for i, item in enumerate(items)
    ]


def _show_result(show: Show, lang: str) -> ft.Control:
    rows = _item_rows(show.items, lang, "crib-item") or [
        ft.Text(t("crib_nineteen", lang), key="crib-nineteen")
    ]
    parts = t(
        "crib_parts",
        lang,
        fifteens=show.fifteens,
        pairs=show.pairs,
        runs=show.runs,
        flush=show.flush,
        nobs=show.nobs,
    )
    return ft.Column(
        [
            *rows,
            ft.Text(
                t("crib_total", lang, total=show.total),
                size=24,
                weight=ft.FontWeight.BOLD,
                key="crib-total",
                color=GREEN,
            ),
            ft.Text(parts, size=13, key="crib-parts"),
        ],
        spacing=4,
        key="crib-show",
    )


def _peg_buttons(
    state: H, key: str, action: Callable[[int], CribAction[H]], dispatch: Dispatch[H]
) -> ft.Control:
    """One button per player, pegging what was just counted for them."""
    return ft.Row(
        [
            ft.Button(
                key=f"{key}-{p}",
                content=t("crib_count_to", state.lang, name=name),
                on_click=lambda e, p=p: dispatch(action(p)),
            )
            for p, name in enumerate(state.cribbage.board.players)
        ],
        wrap=True,
    )


def _starter_asked(count: ShowCount, lang: str, dispatch: Dispatch[H]) -> ft.Control:
    """Five cards read in a row: one tap on the starter among them."""
    return ft.Column(
        [
            ft.Text(t("crib_starter_ask", lang), weight=ft.FontWeight.BOLD),
            _chips(
                count.hand,
                "crib-pick-starter",
                count.unsure,
                lambda i: dispatch(starter_at(i)),
            ),
        ],
        spacing=4,
        key="crib-starter-ask",
    )


def _count_section(
    state: H,
    dispatch: Dispatch[H],
    photo_button: ft.Control | None,
    webcam_button: ft.Control | None,
) -> ft.Control:
    lang, count, board = state.lang, state.cribbage.count, state.cribbage.board
    cards_in = photo_buttons(state, photo_button, webcam_button)

    def change(edit: Callable[[ShowCount], ShowCount]) -> None:
        dispatch(on_screen(lambda c: c.with_count(edit(c.count))))

    result: ft.Control | None = None
    try:
        show = count.show()
    except CompanionError as error:
        show = None
        result = ft.Text(error.message(lang), color=RED, key="crib-count-error")
    if show is not None:
        result = _show_result(show, lang)
    starter = () if count.starter is None else (count.starter,)
    return section(
        "crib-count",
        t("crib_count", lang),
        ft.Row(cards_in, wrap=True, key="cards-in"),
        ft.Row(
            [
                cards_field(
                    "crib-hand",
                    t("crib_hand", lang),
                    count.hand,
                    220,
                    lambda text: change(lambda c: c.with_hand_text(text)),
                ),
                cards_field(
                    "crib-starter",
                    t("crib_starter", lang),
                    starter,
                    140,
                    lambda text: change(lambda c: c.with_starter_text(text)),
                ),
                switch(
                    "crib-is-crib",
                    t("crib_is_crib", lang),
                    count.crib,
                    lambda on: change(lambda c: c.with_crib(on)),
                ),
            ],
            wrap=True,
        ),
        _starter_asked(count, lang, dispatch)
        if count.asking
        else ft.Row(
            [
                _chips(count.hand, "crib-hand-card", count.unsure),
                _chips(starter, "crib-starter-card", count.unsure),
            ],
            wrap=True,
            spacing=16,
        ),
        result,
        _peg_buttons(state, "count-to", count_to, dispatch)
        if show is not None and board.winner() is None
        else None,
    )


def _pegging_section(state: H, dispatch: Dispatch[H]) -> ft.Control:
    """The pegging count typed in play order: what its last card scores, to peg for a player."""
    lang, peg = state.lang, state.cribbage.peg

    def change(edit: Callable[[PegCount], PegCount]) -> None:
        dispatch(on_screen(lambda c: c.with_peg(edit(c.peg))))

    result: list[ft.Control] = []
    points = 0
    if peg.cards:
        try:
            items = peg.items()
        except CompanionError as error:
            result.append(ft.Text(error.message(lang), color=RED, key="crib-peg-error"))
        else:
            points = sum(item.points for item in items)
            key = "crib_peg_total" if points else "crib_peg_none"
            total = t(key, lang, points=points, card=peg.cards[-1], count=peg.total())
            result += [
                *_item_rows(items, lang, "crib-peg-item"),
                ft.Text(total, weight=ft.FontWeight.BOLD, key="crib-peg-total"),
            ]
    return section(
        "crib-pegging",
        t("crib_pegging", lang),
        ft.Row(
            [
                cards_field(
                    "crib-peg-cards",
                    t("crib_peg_cards", lang),
                    peg.cards,
                    300,
                    lambda text: change(lambda p: p.with_cards_text(text)),
                ),
                dropdown(
                    "crib-peg-end",
                    t("crib_peg_end", lang),
                    peg.end or "-",
                    [(end or "-", t(f"crib_end_{end or 'none'}", lang)) for end in PEG_ENDS],
                    lambda end: change(lambda p: p.with_end("" if end in ("None", "-") else end)),
                ),
            ],
            wrap=True,
        ),
        *result,
        _peg_buttons(state, "peg-to", peg_to, dispatch)
        if points and state.cribbage.board.winner() is None
        else None,
    )


def cribbage_view(
    state: H,
    dispatch: Dispatch[H],
    photo_button: ft.Control | None = None,
    webcam_button: ft.Control | None = None,
) -> ft.Control:
    return ft.Column(
        [
            _count_section(state, dispatch, photo_button, webcam_button),
            board_section(state, dispatch),
            _pegging_section(state, dispatch),
            advice_section(state, dispatch),
        ],
        spacing=16,
    )
