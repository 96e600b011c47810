"""The cribbage screen's board to 121: both players' pegs drawn, their scores, the log."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft
import flet.canvas as cv

from companion.engine.cribbage.words import describe_cut
from companion.ui.cribbage.actions import cut_for_deal, new_game, score, set_players, undo
from companion.ui.cribbage.board import CribBoard
from companion.ui.cribbage.host import H
from companion.ui.kit.text import t
from companion.ui.kit.widgets import GREEN, Dispatch, section

__all__ = ["board_section", "hole_xy", "BOARD_SIZE", "PEG_COLOURS"]

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


def _player_row(board: CribBoard, player: int, lang: str, dispatch: Dispatch[H]) -> ft.Control:
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
                    *[
                        ft.TextField(
                            key=f"{kind}-{player}",
                            label=t(f"crib_{kind}_points", lang),
                            width=90,
                            dense=True,
                            on_submit=typed(kind),
                        )
                        for kind in ("show", "crib")
                    ],
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


def _cut_rows(board: CribBoard, lang: str, dispatch: Dispatch[H]) -> list[ft.Control]:
    """The cut for the first deal: each cut said, and a field while it has not decided."""
    said = describe_cut(board.cuts, lang, board.players)
    rows: list[ft.Control] = [
        ft.Text(line, size=14, key=f"crib-cut-{i}") for i, line in enumerate(said)
    ]
    if board.dealer is None and not board.entries and board.winner() is None:
        a, b = board.players
        field = ft.TextField(
            key="crib-cut",
            label=t("crib_cut", lang, a=a, b=b),
            dense=True,
            on_submit=lambda e: dispatch(cut_for_deal(e.control.value or "")),
        )
        # Keyed by the cuts so far: after a tie the next cut is typed in an empty field.
        rows.append(
            ft.Row([ft.Container(field, expand=True)], key=f"crib-cut-{len(board.cuts)}-field")
        )
    return rows


def board_section(state: H, dispatch: Dispatch[H]) -> ft.Control:
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
        *_cut_rows(board, lang, dispatch),
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
