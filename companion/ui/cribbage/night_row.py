"""A cribbage game as the Game night screen lists it (the app passes this to that screen)."""

from __future__ import annotations

import flet as ft

from companion.storage import CribbageGame
from companion.ui.cribbage.actions import open_game
from companion.ui.cribbage.host import H
from companion.ui.cribbage.state import CribBoard
from companion.ui.kit.text import t
from companion.ui.kit.widgets import GREEN, Dispatch

__all__ = ["night_game_row"]


def night_game_row(game: CribbageGame, lang: str, dispatch: Dispatch[H]) -> ft.Control:
    """One cribbage game of the night, as the Game night screen lists it: the score, who won,
    or a button to go on playing it here."""
    if len(game.players) != 2:  # not a game the cribbage screen saved: names only
        return ft.Text(", ".join(game.players), key=f"crib-game-{game.id}")
    board = CribBoard.of_game(game)
    (a, b), (sa, sb), winner = board.players, board.scores(), board.winner()
    status = (
        ft.Text(t("night_crib_won", lang, name=board.players[winner]), color=GREEN)
        if winner is not None
        else ft.Text(t("night_crib_playing", lang))
    )
    resume = (
        None
        if winner is not None
        else ft.TextButton(
            key=f"crib-resume-{game.id}",
            content=t("night_crib_resume", lang),
            icon=ft.Icons.PLAY_ARROW,
            on_click=lambda e: dispatch(open_game(game.id)),
        )
    )
    return ft.Row(
        [
            ft.Text(t("night_crib_score", lang, a=a, sa=sa, b=b, sb=sb), weight=ft.FontWeight.BOLD),
            *[c for c in (status, resume) if c is not None],
        ],
        key=f"crib-game-{game.id}",
        wrap=True,
        spacing=8,
    )
