"""What the cribbage screen's buttons do with the outside world: the game log and photos.

Every change to the board is saved at once in the game log, so the game survives a restart
and another phone sees it; opening the screen reads the latest unfinished game again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.errors import CompanionError, PhotoLayoutError
from companion.ui.cribbage.board import CribBoard, points_typed
from companion.ui.cribbage.host import H
from companion.ui.cribbage.state import CribbageState, ShowCount
from companion.ui.kit.banner import Banner
from companion.ui.kit.services import Action, Services, decode_upload, pure

if TYPE_CHECKING:  # types only: the app starts without the vision package
    from companion.vision.base.detections import Detections
    from companion.vision.layouts.cribbage import ShowPhoto
    from companion.vision.layouts.places import SeenCard

__all__ = [
    "CribAction",
    "on_screen",
    "resume_game",
    "open_game",
    "score",
    "count_to",
    "peg_to",
    "undo",
    "new_game",
    "set_players",
    "cut_for_deal",
    "show_read",
    "starter_at",
    "prepare_show_photo",
    "load_show_photo",
]

CribAction = Action[H]


def on_screen(change: Callable[[CribbageState], CribbageState]) -> CribAction[H]:
    """An action changing only the cribbage screen's own state: a field typed, a switch."""
    return pure(lambda s: s.with_cribbage(change(s.cribbage)))


def _saved(state: H, services: Services, board: CribBoard) -> H:
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


def _kept_banner(state: H, cribbage: CribbageState) -> H:
    # Read again on opening the screen: what the banner said stays said.
    return state.with_cribbage(cribbage).with_banner(state.banner)


def _night_pair(state: H) -> tuple[str, ...] | None:
    """The first two players of the night under way, in seating order (the names field
    changes them); None without a night of two: the default names, in today's language."""
    night = state.night
    if night is None or night.finished or len(night.night.players) < 2:
        return None
    return night.night.players[:2]


def resume_game(state: H, services: Services) -> H:
    """The game on screen read again from the log, or the latest unfinished one."""
    game_id = state.cribbage.board.game_id
    games = services.log.cribbage_games()
    game = (
        next((g for g in games if g.id == game_id), None)
        if game_id is not None
        else next((g for g in games if not g.finished), None)
    )
    if game is None:
        if game_id is None and not state.cribbage.board.entries:
            fresh = CribBoard.new(state.lang, _night_pair(state))
            return _kept_banner(state, state.cribbage.with_board(fresh))
        return state
    return _kept_banner(state, state.cribbage.with_board(CribBoard.of_game(game)))


def open_game(game_id: int) -> CribAction[H]:
    """The cribbage screen on a saved game (a game of the night tapped on its screen)."""

    def action(state: H, services: Services) -> H:
        board = CribBoard.of_game(services.log.cribbage_game(game_id))
        return state.go("cribbage").with_cribbage(state.cribbage.with_board(board))

    return action


def score(player: int, kind: str, points: int | str) -> CribAction[H]:
    """Peg ``points`` (a number, or as typed) for ``player``; saved at once."""

    def action(state: H, services: Services) -> H:
        value = points if isinstance(points, int) else points_typed(points)
        return _saved(state, services, state.cribbage.board.add(player, kind, value))

    return action


def count_to(player: int) -> CribAction[H]:
    """Peg the show counted above for ``player``."""

    def action(state: H, services: Services) -> H:
        return _saved(state, services, state.cribbage.count_to(player).board)

    return action


def peg_to(player: int) -> CribAction[H]:
    """Peg what the last card of the pegging count scores, for ``player``."""

    def action(state: H, services: Services) -> H:
        return _saved(state, services, state.cribbage.peg_to(player).board)

    return action


def undo(state: H, services: Services) -> H:
    board = state.cribbage.board
    if not board.entries:
        if not board.cuts:
            return state.with_banner(Banner.of("crib_nothing_to_undo"))
        state = _saved(state, services, board.undo())
        return state.with_banner(Banner.of("crib_cut_undone", n=len(board.cuts)))
    last = board.entries[-1]
    state = _saved(state, services, board.undo())
    return state.with_banner(
        Banner.of("crib_undone", name=board.players[last.player], points=last.points)
    )


def cut_for_deal(text: str) -> CribAction[H]:
    """One cut for the first deal typed (the first player's card, then the second's); saved."""

    def action(state: H, services: Services) -> H:
        return _saved(state, services, state.cribbage.board.with_cut_text(text))

    return action


def new_game(state: H, services: Services) -> H:
    """A fresh board for the same players, saved now so that it is the one resumed."""
    fresh = CribBoard(players=state.cribbage.board.players)
    return _saved(state, services, fresh)


def set_players(text: str) -> CribAction[H]:
    def action(state: H, services: Services) -> H:
        board = state.cribbage.board
        renamed = board.with_players_text(text)
        return state if renamed == board else _saved(state, services, renamed)

    return action


def show_read(state: H, detections: Detections, where: str = "photo") -> H:
    """A photo's show on the counter: the hand in a row, the starter apart from it, or five
    cards in a row with the starter asked.

    A photo of another number of cards raises ``PhotoLayoutError`` naming what was read.
    """
    return _on_counter(state, _show_of(detections, where))


def _on_counter(state: H, photo: ShowPhoto | tuple[SeenCard, ...]) -> H:
    """The photo's cards in the count's fields: its hand and starter, or its five cards in a
    row with the starter asked."""
    from companion.vision.layouts.places import unsure  # loaded with the photo already

    crib = state.cribbage.count.crib
    if isinstance(photo, tuple):
        doubtful = tuple(s.card for s in unsure(photo))
        count = ShowCount.of_row([s.card for s in photo], doubtful, crib)
        key = "crib_row_unsure" if doubtful else "crib_row"
    else:
        doubtful = tuple(s.card for s in unsure(photo.seen))
        count = ShowCount.of_photo(photo, doubtful, crib)
        key = "crib_read_unsure" if doubtful else "crib_read"
    banner = Banner.of(key, cards=doubtful)
    return state.with_cribbage(state.cribbage.with_count(count)).with_banner(banner)


def _show_of(read: Detections, where: str) -> ShowPhoto | tuple[SeenCard, ...]:
    """A show photo's hand and starter, or its five cards in a row when none lies apart."""
    from companion.vision.layouts.cribbage import read_row, read_show  # loaded with the reader

    try:
        return read_show(read, where)
    except PhotoLayoutError as error:
        if error.code != "photo.show_starter":
            raise
        return read_row(read, where)


def starter_at(index: int) -> CribAction[H]:
    """The card tapped among a row of five is the starter."""

    def action(state: H, services: Services) -> H:
        count = state.cribbage.count.starter_at(index)
        return state.with_cribbage(state.cribbage.with_count(count))

    return action


def prepare_show_photo(data: bytes, name: str, services: Services) -> Action[H]:
    """Decode and read a show photo now (the slow part, for a worker thread); the returned
    action puts it on the counter. The photo is not kept: a show is no heist of the log."""
    try:
        image = decode_upload(data, name)
        read = services.detector.detect(image)
        if read is not None:
            photo = _show_of(read, name)
            return lambda state, _services: _on_counter(state, photo)
    except CompanionError as error:
        banner = Banner.of_error(error)
        return lambda state, _services: state.with_banner(banner)
    note = services.detector.unavailable
    return lambda state, _services: state.with_vision_off(note)


def load_show_photo(data: bytes, name: str = "photo") -> Action[H]:
    def action(state: H, services: Services) -> H:
        shown: Action[H] = prepare_show_photo(data, name, services)
        return shown(state, services)

    return action
