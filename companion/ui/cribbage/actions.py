"""What the cribbage screen's buttons do with the outside world: the game log and photos.

Every change to the board is saved at once in the game log, so the game survives a restart
and another phone sees it; opening the screen reads the latest unfinished game again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.errors import IllegalMoveError
from companion.ui.banner import Banner
from companion.ui.cribbage.state import CribbageState, CribBoard, ShowCount
from companion.ui.state import AppState

if TYPE_CHECKING:  # actions imports this module for the photo path
    from companion.ui.services import Services
    from companion.vision.detections import Detections

__all__ = [
    "resume_game",
    "open_game",
    "score",
    "count_to",
    "peg_to",
    "undo",
    "new_game",
    "set_players",
    "show_read",
]

CribAction = Callable[[AppState, "Services"], AppState]


def _saved(state: AppState, services: Services, board: CribBoard) -> AppState:
    # A new game joins the game night under way, if any, so the night's log holds it.
    night = state.night.night.id if state.night is not None else None
    game = services.log.save_cribbage_game(
        board.players,
        board.to_json(),
        game_id=board.game_id,
        finished=board.winner() is not None,
        night_id=night,
    )
    return state.with_cribbage(state.cribbage.with_board(replace(board, game_id=game.id)))


def resume_game(state: AppState, services: Services) -> AppState:
    """The game on screen read again from the log, or the latest unfinished one."""
    game_id = state.cribbage.board.game_id
    games = services.log.cribbage_games()
    game = (
        next((g for g in games if g.id == game_id), None)
        if game_id is not None
        else next((g for g in games if not g.finished), None)
    )
    if game is None:
        if game_id is None and not state.cribbage.board.entries:  # names in today's language
            fresh = CribBoard.new(state.lang)
            return replace(state, cribbage=state.cribbage.with_board(fresh))
        return state
    return replace(state, cribbage=state.cribbage.with_board(CribBoard.of_game(game)))


def open_game(game_id: int) -> CribAction:
    """The cribbage screen on a saved game (a game of the night tapped on its screen)."""

    def action(state: AppState, services: Services) -> AppState:
        board = CribBoard.of_game(services.log.cribbage_game(game_id))
        return replace(state.go("cribbage"), cribbage=state.cribbage.with_board(board))

    return action


def _points(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise IllegalMoveError(
            "points_number",
            f"“{text}” is not a number of points",
            f"« {text} » n'est pas un nombre de points",
        ) from None


def score(player: int, kind: str, points: int | str) -> CribAction:
    """Peg ``points`` (a number, or as typed) for ``player``; saved at once."""

    def action(state: AppState, services: Services) -> AppState:
        value = points if isinstance(points, int) else _points(points)
        return _saved(state, services, state.cribbage.board.add(player, kind, value))

    return action


def count_to(player: int) -> CribAction:
    """Peg the show counted above for ``player``."""

    def action(state: AppState, services: Services) -> AppState:
        return _saved(state, services, state.cribbage.count_to(player).board)

    return action


def peg_to(player: int) -> CribAction:
    """Peg what the last card of the pegging count scores, for ``player``."""

    def action(state: AppState, services: Services) -> AppState:
        return _saved(state, services, state.cribbage.peg_to(player).board)

    return action


def undo(state: AppState, services: Services) -> AppState:
    board = state.cribbage.board
    if not board.entries:
        return state.with_banner(Banner.of("crib_nothing_to_undo"))
    last = board.entries[-1]
    state = _saved(state, services, board.undo())
    return state.with_banner(
        Banner.of("crib_undone", name=board.players[last.player], points=last.points)
    )


def new_game(state: AppState, services: Services) -> AppState:
    """A fresh board for the same players, saved now so that it is the one resumed."""
    fresh = CribBoard(players=state.cribbage.board.players)
    return _saved(state, services, fresh)


def set_players(text: str) -> CribAction:
    def action(state: AppState, services: Services) -> AppState:
        board = state.cribbage.board
        renamed = board.with_players_text(text)
        return state if renamed == board else _saved(state, services, renamed)

    return action


def show_read(state: AppState, detections: Detections) -> AppState:
    """A photo's show on the counter: the hand in a row, the starter apart from it.

    A photo that does not show one raises ``TableError`` naming what was read.
    """
    # Imported here, as the showdown's reader is: the app starts without the vision package.
    from companion.vision.layouts.cribbage import read_show
    from companion.vision.layouts.places import unsure

    photo = read_show(detections, "photo")
    doubtful = tuple(str(seen.card) for seen in unsure(photo.seen))
    count = ShowCount(
        tuple(str(card) for card in photo.cards),
        str(photo.starter.card),
        state.cribbage.count.crib,
        doubtful,
    )
    cribbage: CribbageState = state.cribbage.with_count(count)
    key = "crib_read_unsure" if doubtful else "crib_read"
    return replace(state, cribbage=cribbage, banner=Banner.of(key, cards=" ".join(doubtful)))
