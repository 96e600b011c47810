"""The cribbage screen: count a show (typed or photographed), the board to 121, discard advice."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import flet as ft
import flet.canvas as cv

from companion.engine.cards import Card
from companion.engine.cribbage.discard import DiscardAdvice, DiscardOption
from companion.engine.cribbage.score import ScoreItem, Show
from companion.engine.cribbage.words import item_label
from companion.errors import CompanionError
from companion.ui.cribbage.actions import (
    CribAction,
    count_to,
    new_game,
    peg_to,
    score,
    set_players,
    undo,
)
from companion.ui.cribbage.state import PEG_ENDS, CribbageState, CribBoard, PegCount, ShowCount
from companion.ui.services import pure
from companion.ui.state import AppState
from companion.ui.text import t
from companion.ui.widgets import GREEN, RED, Dispatch, card_chip, card_label, section

__all__ = ["cribbage_view", "hole_xy", "BOARD_SIZE"]

# The board's drawing: each player's 120 holes in 4 rows of 30, in groups of 5, the two
# tracks side by side; the start hole before them and the game hole (121) after.
ROWS, PER_ROW, GROUP = 4, 30, 5
STEP, GROUP_GAP, MARGIN = 9.0, 6.0, 20.0  # 340 px wide: a phone's width, less the padding
TRACK_GAP, ROW_HEIGHT = 12.0, 34.0
BOARD_SIZE = (
    MARGIN * 2 + (PER_ROW - 1) * STEP + (PER_ROW // GROUP - 1) * GROUP_GAP + 16,
    ROWS * ROW_HEIGHT + 8,
)
PEG_COLOURS = (ft.Colors.BLUE_700, ft.Colors.RED_700)


def _cribbage(change: Callable[[CribbageState], CribbageState]) -> CribAction:
    """An action changing only the cribbage screen's own state."""
    return pure(lambda s: s.with_cribbage(change(s.cribbage)))


def _count(change: Callable[[ShowCount], ShowCount]) -> CribAction:
    return _cribbage(lambda c: c.with_count(change(c.count)))


def hole_xy(hole: int, player: int) -> tuple[float, float]:
    """Where hole ``hole`` (0 the start, 121 the game hole) of ``player``'s track is drawn."""
    top = 10.0 + player * TRACK_GAP
    if hole <= 0:
        return MARGIN - 12, top
    if hole >= ROWS * PER_ROW + 1:
        x, _ = hole_xy(ROWS * PER_ROW, 0)
        return x + 14, 10.0 + (ROWS - 1) * ROW_HEIGHT + TRACK_GAP / 2
    row, col = divmod(hole - 1, PER_ROW)
    return MARGIN + col * STEP + (col // GROUP) * GROUP_GAP, top + row * ROW_HEIGHT


def _board_canvas(board: CribBoard) -> ft.Control:
    shapes: list[cv.Shape] = []
    hole = ft.Paint(color=ft.Colors.BROWN_300, style=ft.PaintingStyle.FILL)
    for player in (0, 1):
        shapes += [cv.Circle(*hole_xy(n, player), 2, paint=hole) for n in range(ROWS * PER_ROW + 1)]
    shapes.append(cv.Circle(*hole_xy(board.target, 0), 4, paint=hole))
    for player in (0, 1):
        front, back = board.pegs(player)
        colour = PEG_COLOURS[player]
        shapes.append(
            cv.Circle(
                *hole_xy(back, player),
                4,
                key=f"peg-back-{player}",
                paint=ft.Paint(color=colour, style=ft.PaintingStyle.STROKE, stroke_width=2),
            )
        )
        shapes.append(
            cv.Circle(
                *hole_xy(front, player),
                5,
                key=f"peg-front-{player}",
                paint=ft.Paint(color=colour, style=ft.PaintingStyle.FILL),
            )
        )
    width, height = BOARD_SIZE
    return ft.Container(
        cv.Canvas(shapes=shapes, width=width, height=height),
        key="crib-board",
        width=width,
        height=height,
        bgcolor=ft.Colors.AMBER_50,
        border_radius=8,
    )


def _chips(
    cards: tuple[str, ...] | tuple[Card, ...], key: str, unsure: tuple[str, ...] = ()
) -> ft.Control:
    return ft.Row(
        [
            card_chip(str(c), key=f"{key}-{i}", highlight=str(c) in unsure)
            for i, c in enumerate(cards)
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
            ft.Text(
                t(
                    "crib_parts",
                    lang,
                    fifteens=show.fifteens,
                    pairs=show.pairs,
                    runs=show.runs,
                    flush=show.flush,
                    nobs=show.nobs,
                ),
                size=13,
                key="crib-parts",
            ),
        ],
        spacing=4,
        key="crib-show",
    )


def _count_section(
    state: AppState,
    dispatch: Dispatch,
    photo_button: ft.Control | None,
    webcam_button: ft.Control | None,
) -> ft.Control:
    lang, count, board = state.lang, state.cribbage.count, state.cribbage.board
    cards_in = [c for c in (photo_button, webcam_button) if c is not None]
    if state.vision_note:
        cards_in.append(
            ft.Text(
                t("vision_off", lang, reason=state.vision_note.text(lang)),
                size=13,
                color=ft.Colors.ORANGE_900,
                key="vision-note",
            )
        )

    def hand_typed(e: ft.Event[ft.TextField]) -> None:
        text = e.control.value or ""
        dispatch(_count(lambda c: c.with_hand_text(text)))

    def starter_typed(e: ft.Event[ft.TextField]) -> None:
        text = e.control.value or ""
        dispatch(_count(lambda c: c.with_starter_text(text)))

    result: ft.Control | None = None
    try:
        show = count.show()
    except CompanionError as error:
        show = None
        result = ft.Text(error.message(lang), color=RED, key="crib-count-error")
    if show is not None:
        result = _show_result(show, lang)
    over = board.winner() is not None
    return section(
        "crib-count",
        t("crib_count", lang),
        ft.Row(cards_in, wrap=True, key="cards-in"),
        ft.Row(
            [
                ft.TextField(
                    key="crib-hand",
                    label=t("crib_hand", lang),
                    value=" ".join(count.hand),
                    dense=True,
                    width=220,
                    on_submit=hand_typed,
                    on_blur=hand_typed,
                ),
                ft.TextField(
                    key="crib-starter",
                    label=t("crib_starter", lang),
                    value=count.starter,
                    dense=True,
                    width=140,
                    on_submit=starter_typed,
                    on_blur=starter_typed,
                ),
                ft.Switch(
                    key="crib-is-crib",
                    label=t("crib_is_crib", lang),
                    value=count.crib,
                    on_change=lambda e: dispatch(
                        _count(lambda c: c.with_crib(bool(e.control.value)))
                    ),
                ),
            ],
            wrap=True,
        ),
        ft.Row(
            [
                _chips(count.hand, "crib-hand-card", count.unsure),
                _chips(
                    (count.starter,) if count.starter else (), "crib-starter-card", count.unsure
                ),
            ],
            wrap=True,
            spacing=16,
        ),
        result,
        ft.Row(
            [
                ft.Button(
                    key=f"count-to-{p}",
                    content=t("crib_count_to", lang, name=name),
                    on_click=lambda e, p=p: dispatch(count_to(p)),
                )
                for p, name in enumerate(board.players)
            ],
            wrap=True,
        )
        if show is not None and not over
        else None,
    )


def _pegging_section(state: AppState, dispatch: Dispatch) -> ft.Control:
    """The pegging count typed in play order: what its last card scores, to peg for a player."""
    lang, peg, board = state.lang, state.cribbage.peg, state.cribbage.board

    def change(edit: Callable[[PegCount], PegCount]) -> None:
        dispatch(_cribbage(lambda c: c.with_peg(edit(c.peg))))

    def typed(e: ft.Event[ft.TextField]) -> None:
        text = e.control.value or ""
        change(lambda p: p.with_cards_text(text))

    result: list[ft.Control] = []
    points = 0
    if peg.cards:
        try:
            items = peg.items()
        except CompanionError as error:
            result.append(ft.Text(error.message(lang), color=RED, key="crib-peg-error"))
        else:
            points = sum(item.points for item in items)
            last = card_label(peg.cards[-1])
            result += [
                *_item_rows(items, lang, "crib-peg-item"),
                ft.Text(
                    t(
                        "crib_peg_total" if points else "crib_peg_none",
                        lang,
                        points=points,
                        card=last,
                        count=peg.total(),
                    ),
                    weight=ft.FontWeight.BOLD,
                    key="crib-peg-total",
                ),
            ]
    buttons: list[ft.Control] = [
        ft.Button(
            key=f"peg-to-{p}",
            content=t("crib_count_to", lang, name=name),
            on_click=lambda e, p=p: dispatch(peg_to(p)),
        )
        for p, name in enumerate(board.players)
    ]
    return section(
        "crib-pegging",
        t("crib_pegging", lang),
        ft.Row(
            [
                ft.TextField(
                    key="crib-peg-cards",
                    label=t("crib_peg_cards", lang),
                    value=" ".join(peg.cards),
                    dense=True,
                    width=300,
                    on_submit=typed,
                    on_blur=typed,
                ),
                ft.Dropdown(
                    key="crib-peg-end",
                    label=t("crib_peg_end", lang),
                    value=peg.end or "-",
                    dense=True,
                    width=170,
                    options=[
                        ft.DropdownOption(key=end or "-", text=t(f"crib_end_{end or 'none'}", lang))
                        for end in PEG_ENDS
                    ],
                    on_select=lambda e: change(
                        lambda p: p.with_end(
                            "" if e.control.value in (None, "-") else str(e.control.value)
                        )
                    ),
                ),
            ],
            wrap=True,
        ),
        *result,
        ft.Row(buttons, wrap=True) if points and board.winner() is None else None,
    )


def _player_row(board: CribBoard, player: int, lang: str, dispatch: Dispatch) -> ft.Control:
    name = board.players[player]
    # Keyed by the number of scores: a score pegged makes new, empty fields, so that the
    # points just typed are not left there to be pegged twice.
    fresh = f"crib-fields-{player}-{len(board.entries)}"

    def typed(kind: str) -> Callable[[ft.Event[ft.TextField]], None]:
        def handler(e: ft.Event[ft.TextField]) -> None:
            text = e.control.value or ""
            if text.strip():
                dispatch(score(player, kind, text))

        return handler

    return ft.Column(
        [
            ft.Text(
                t("crib_score", lang, name=name, score=board.scores()[player]),
                size=18,
                weight=ft.FontWeight.BOLD,
                color=PEG_COLOURS[player],
                key=f"crib-score-{player}",
            ),
            ft.Row(
                [
                    ft.Text(t("crib_peg", lang)),
                    *[
                        ft.OutlinedButton(
                            key=f"peg-{player}-{n}",
                            content=f"+{n}",
                            on_click=lambda e, n=n: dispatch(score(player, "peg", n)),
                        )
                        for n in (1, 2, 3, 4, 5, 6, 12)
                    ],
                ],
                wrap=True,
                spacing=4,
            ),
            ft.Row(
                key=fresh,
                controls=[
                    ft.TextField(
                        key=f"show-{player}",
                        label=t("crib_show_points", lang),
                        width=90,
                        dense=True,
                        on_submit=typed("show"),
                    ),
                    ft.TextField(
                        key=f"crib-{player}",
                        label=t("crib_crib_points", lang),
                        width=90,
                        dense=True,
                        on_submit=typed("crib"),
                    ),
                    ft.TextButton(
                        key=f"heels-{player}",
                        content=t("crib_heels", lang),
                        on_click=lambda e: dispatch(score(player, "heels", 2)),
                    ),
                ],
                wrap=True,
            ),
        ],
        spacing=4,
        key=f"crib-player-{player}",
    )


def _board_section(state: AppState, dispatch: Dispatch) -> ft.Control:
    lang, board = state.lang, state.cribbage.board
    winner = board.winner()
    players_field = ft.TextField(
        key="crib-players",
        label=t("crib_players", lang),
        value=", ".join(board.players),
        dense=True,
        on_submit=lambda e: dispatch(set_players(e.control.value or "")),
    )
    totals = [0, 0]
    log: list[ft.Control] = []
    for entry in board.entries:
        totals[entry.player] += entry.points
        log.append(
            ft.Text(
                t(
                    "crib_entry",
                    lang,
                    name=board.players[entry.player],
                    points=entry.points,
                    kind=t(f"crib_kind_{entry.kind}", lang),
                    total=totals[entry.player],
                ),
                size=13,
            )
        )
    return section(
        "crib-board-section",
        t("crib_board", lang),
        players_field,
        _board_canvas(board),
        ft.Text(
            t("crib_wins", lang, name=board.players[winner], score=board.scores()[winner]),
            size=26,
            weight=ft.FontWeight.BOLD,
            color=GREEN,
            key="crib-winner",
        )
        if winner is not None
        else None,
        *([] if winner is not None else [_player_row(board, p, lang, dispatch) for p in (0, 1)]),
        ft.Row(
            [
                ft.Button(
                    key="crib-undo",
                    content=t("crib_undo", lang),
                    on_click=lambda e: dispatch(undo),
                ),
                ft.TextButton(
                    key="crib-new",
                    content=t("crib_new_game", lang),
                    on_click=lambda e: dispatch(new_game),
                ),
            ],
            wrap=True,
        ),
        section("crib-log", t("crib_log", lang), *reversed(log[-12:])) if log else None,
    )


def _decimal(value: Fraction, lang: str) -> str:
    text = f"{float(value):.2f}"
    return text.replace(".", ",") if lang == "fr" else text


def _option(option: DiscardOption, dealer: bool, lang: str, key: str) -> ft.Control:
    def listed(cards: tuple[Card, ...]) -> str:
        return " ".join(card_label(str(c)) for c in cards)

    return ft.Text(
        t(
            "crib_option",
            lang,
            discard=listed(option.discard),
            keep=listed(option.keep),
            hand=_decimal(option.hand, lang),
            op="+" if dealer else "-",
            crib=_decimal(option.crib, lang),
            net=_decimal(option.net, lang),
        ),
        size=13,
        key=key,
    )


def _advice_lines(advice: DiscardAdvice, lang: str) -> list[ft.Control]:
    sign = t("crib_plus" if advice.dealer else "crib_minus", lang)
    return [
        ft.Text(t("crib_by_net", lang, sign=sign), weight=ft.FontWeight.BOLD),
        *[
            _option(o, advice.dealer, lang, f"advice-net-{i}")
            for i, o in enumerate(advice.by_net[:5])
        ],
        ft.Text(t("crib_by_hand", lang), weight=ft.FontWeight.BOLD),
        *[
            _option(o, advice.dealer, lang, f"advice-hand-{i}")
            for i, o in enumerate(advice.by_hand[:3])
        ],
    ]


def _advice_section(state: AppState, dispatch: Dispatch) -> ft.Control:
    lang, crib = state.lang, state.cribbage

    def typed(e: ft.Event[ft.TextField]) -> None:
        text = e.control.value or ""
        dispatch(_cribbage(lambda c: c.with_deal_text(text)))

    lines: list[Any] = []
    if crib.advice_error is not None:
        lines.append(ft.Text(crib.advice_error.text(lang), color=RED, key="advice-error"))
    elif crib.advice is not None:
        lines += _advice_lines(crib.advice, lang)
    return section(
        "crib-advice",
        t("crib_advice", lang),
        ft.Row(
            [
                ft.TextField(
                    key="crib-deal",
                    label=t("crib_deal", lang),
                    value=" ".join(crib.deal),
                    dense=True,
                    width=260,
                    on_submit=typed,
                    on_blur=typed,
                ),
                ft.Switch(
                    key="crib-dealer",
                    label=t("crib_dealer", lang),
                    value=crib.dealer,
                    on_change=lambda e: dispatch(
                        _cribbage(lambda c: c.with_dealer(bool(e.control.value)))
                    ),
                ),
            ],
            wrap=True,
        ),
        *lines,
    )


def cribbage_view(
    state: AppState,
    dispatch: Dispatch,
    photo_button: ft.Control | None = None,
    webcam_button: ft.Control | None = None,
) -> ft.Control:
    return ft.Column(
        [
            _count_section(state, dispatch, photo_button, webcam_button),
            _board_section(state, dispatch),
            _pegging_section(state, dispatch),
            _advice_section(state, dispatch),
        ],
        spacing=16,
    )
