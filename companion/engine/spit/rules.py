"""Spit's legality: each player's legal moves, stalemates, and ``check_move`` naming the rule.

Import from ``companion.engine.spit``, which re-exports this module's public names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from companion.engine.cards import Card
from companion.engine.spit.state import (
    PLAYERS,
    Deal,
    Move,
    Phase,
    PileChoice,
    Play,
    Recycle,
    Shift,
    Spit,
    SpitState,
    Stock,
    Take,
    Turn,
    can_stack,
)
from companion.errors import IllegalMoveError

__all__ = [
    "legal_moves",
    "check_move",
    "is_legal",
    "is_stuck",
    "spitters",
    "lone_pile",
    "lone_taker",
    "pile_chooser",
    "under_tops",
]


def _open_piles(state: SpitState) -> tuple[int, ...]:
    return (0, 1) if state.live is None else (state.live,)


def _player_moves(state: SpitState, player: int) -> list[Move]:
    """Plays, turns and shifts of one player in the PLAY phase."""
    moves: list[Move] = []
    stocks = state.players[player].stocks
    tops = [state.piles[pile][-1] for pile in _open_piles(state) if state.piles[pile]]
    targets = [pile for pile in _open_piles(state) if state.piles[pile]]
    empty = [i for i, stock in enumerate(stocks) if not stock.cards]
    for i, stock in enumerate(stocks):
        if not stock.cards:
            continue
        if not stock.face_up:
            moves.append(Turn(player, i))
            continue
        top = stock.cards[-1]
        for pile, on in zip(targets, tops, strict=True):
            if can_stack(top, on, state.rules):
                moves.append(Play(player, i, pile))
        if len(stock.cards) > 1:
            moves.extend(Shift(player, i, target) for target in empty)
    return moves


def _can_move(state: SpitState, player: int) -> bool:
    """Whether ``_player_moves`` would list anything (the fast path behind ``is_stuck``)."""
    stocks = state.players[player].stocks
    tops = [state.piles[pile][-1] for pile in _open_piles(state) if state.piles[pile]]
    space = any(not stock.cards for stock in stocks)
    for stock in stocks:
        if not stock.cards:
            continue
        if not stock.face_up or (space and len(stock.cards) > 1):
            return True
        if any(can_stack(stock.cards[-1], on, state.rules) for on in tops):
            return True
    return False


def is_stuck(state: SpitState) -> bool:
    """Neither player can play, turn a card up or uncover one: time to spit."""
    return state.phase is Phase.PLAY and not (_can_move(state, 0) or _can_move(state, 1))


def spitters(state: SpitState) -> tuple[int, ...]:
    return tuple(p for p in PLAYERS if state.players[p].spit)


def legal_moves(state: SpitState, player: int | None = None) -> tuple[Move, ...]:
    """The legal moves; with ``player``, only that player's own (joint moves have no player)."""
    if state.phase is Phase.PLAY:
        if player is not None:
            return tuple(_player_moves(state, player))
        moves = _player_moves(state, 0) + _player_moves(state, 1)
        if moves:
            return tuple(moves)
        players = spitters(state)
        if state.rules.speed:
            return (Spit(),) if any(state.side_piles) else ()
        if not players:
            return ()  # only in a hand-built position: ``settle`` ends such a round
        if len(players) == 2:
            return (Spit(),)
        return (Spit(0), Spit(1)) if state.live is None else (Spit(state.live),)
    if state.phase is Phase.TAKE:
        return tuple(move for move in _takes(state) if player is None or move.player == player)
    return ()


def _takes(state: SpitState) -> list[Take]:
    """The legal ways to take the piles at the end of a round."""
    lone, taker = lone_pile(state), lone_taker(state)
    if taker is not None and lone is not None:
        return [Take(taker, lone)]  # no slap: the rules give the pile
    chooser = pile_chooser(state)
    if chooser is not None:
        return [Take(chooser, pile) for pile in (0, 1)]
    # The slap: either pile; on a lone pile the slap lands on the empty place and takes nothing.
    piles = (0, 1) if lone is None else (1 - lone,)
    return [Take(p, pile) for p in PLAYERS for pile in piles]


def lone_pile(state: SpitState) -> int | None:
    """The only spit pile holding cards, when the other is empty (a lone spitter's)."""
    holding = [pile for pile in (0, 1) if state.piles[pile]]
    return holding[0] if len(holding) == 1 else None


def lone_taker(state: SpitState) -> int | None:
    """Who takes a lone pile without a slap: the player who did not empty their stock (Spit,
    "FIN": the first out "ne reçoit pas de cartes du centre"); None when nobody emptied one."""
    if lone_pile(state) is None or state.emptied is None:
        return None
    return 1 - state.emptied


def pile_chooser(state: SpitState) -> int | None:
    """Who picks the piles under the chooser variation: the emptier, except with a lone pile."""
    if state.rules.pile_choice is PileChoice.CHOOSER and lone_pile(state) is None:
        return state.emptied
    return None


def _check_index(value: int, count: int, what: str) -> None:
    """``what``: ``stock`` or ``pile``; the rule broken is ``no_such_stock`` / ``no_such_pile``."""
    if not 0 <= value < count:
        raise IllegalMoveError("spit", f"no_such_{what}", n=value + 1, count=count)


def _check_phase(state: SpitState, wanted: Phase) -> None:
    if state.phase is wanted:
        return
    if state.phase is Phase.OVER:
        raise IllegalMoveError("spit", "game_over")
    if state.phase is Phase.TAKE:
        raise IllegalMoveError("spit", "round_over")
    if state.phase in (Phase.DEAL, Phase.RECYCLE):
        raise IllegalMoveError("spit", "shuffle_first")
    raise IllegalMoveError("spit", "still_playing")


def _check_player(player: int) -> None:
    if player not in PLAYERS:
        raise IllegalMoveError("spit", "no_such_player", n=player + 1)


def _check_stock(state: SpitState, player: int, index: int) -> Stock:
    """The player's stock space ``index``, which must hold cards."""
    _check_player(player)
    stocks = state.players[player].stocks
    _check_index(index, len(stocks), "stock")
    stock = stocks[index]
    if not stock.cards:
        raise IllegalMoveError("spit", "stock_empty", player=player + 1, n=index + 1)
    return stock


def _check_stock_top(state: SpitState, player: int, index: int) -> Stock:
    """As ``_check_stock``, with its top card face up."""
    stock = _check_stock(state, player, index)
    if not stock.face_up:
        raise IllegalMoveError("spit", "card_face_down", player=player + 1, n=index + 1)
    return stock


def _check_play(state: SpitState, move: Play) -> None:
    _check_phase(state, Phase.PLAY)
    stock = _check_stock_top(state, move.player, move.stock)
    _check_index(move.pile, 2, "pile")
    card = stock.cards[-1]
    if state.live is not None and move.pile != state.live:
        raise IllegalMoveError("spit", "pile_closed", n=move.pile + 1, n2=state.live + 1)
    pile = state.piles[move.pile]
    if not pile:
        raise IllegalMoveError("spit", "pile_empty", n=move.pile + 1)
    on = pile[-1]
    if card.rank is not None and on.rank is not None and (card.rank - on.rank) % 13 not in (1, 12):
        raise IllegalMoveError("spit", "rank_not_adjacent", card=card, on=on)
    if not can_stack(card, on, state.rules):
        raise IllegalMoveError("spit", "same_colour", card=card, on=on)


def _check_turn(state: SpitState, move: Turn) -> None:
    _check_phase(state, Phase.PLAY)
    if _check_stock(state, move.player, move.stock).face_up:
        raise IllegalMoveError("spit", "already_face_up", n=move.stock + 1)


def _check_shift(state: SpitState, move: Shift) -> None:
    _check_phase(state, Phase.PLAY)
    stock = _check_stock_top(state, move.player, move.source)
    stocks = state.players[move.player].stocks
    _check_index(move.target, len(stocks), "stock")
    if stocks[move.target].cards:
        raise IllegalMoveError("spit", "space_taken", n=move.target + 1, n2=len(stocks))
    if len(stock.cards) == 1:
        raise IllegalMoveError("spit", "shift_uncovers_nothing", card=stock.cards[-1])


def _check_spit(state: SpitState, move: Spit) -> None:
    _check_phase(state, Phase.PLAY)
    if not is_stuck(state):
        raise IllegalMoveError("spit", "not_stuck")
    if not (any(state.side_piles) if state.rules.speed else spitters(state)):
        raise IllegalMoveError("spit", "nothing_to_spit")
    if state.rules.speed or len(spitters(state)) == 2:
        if move.pile is not None:
            raise IllegalMoveError("spit", "spit_own_pile")
        return
    if move.pile is None:
        raise IllegalMoveError("spit", "spit_alone_pile")
    _check_index(move.pile, 2, "pile")
    if state.live is not None and move.pile != state.live:
        raise IllegalMoveError(
            "spit", "pile_closed", words="spit.pile_closed_now", n=move.pile + 1, n2=state.live + 1
        )


def _check_take(state: SpitState, move: Take) -> None:
    _check_phase(state, Phase.TAKE)
    _check_player(move.player)
    _check_index(move.pile, 2, "pile")
    lone, taker = lone_pile(state), lone_taker(state)
    if taker is not None and lone is not None:
        if move != Take(taker, lone):
            raise IllegalMoveError(
                "spit", "lone_pile", emptier=2 - taker, player=taker + 1, n=lone + 1
            )
        return
    chooser = pile_chooser(state)
    if chooser is not None:
        if move.player != chooser:
            raise IllegalMoveError("spit", "chooser", player=chooser + 1)
        return
    # Either pile may be slapped: the smaller is only the better slap. On a lone pile, with
    # nobody out of stock, the slap takes the empty place and the other player takes the pile.
    if move.pile == lone:
        raise IllegalMoveError("spit", "single_pile", n=move.pile + 1, n2=2 - move.pile)


def _check_shuffle(
    state: SpitState, phase: Phase, given: Iterable[Card], wanted: Iterable[Card]
) -> None:
    _check_phase(state, phase)
    if Counter(given) != Counter(wanted):
        raise IllegalMoveError("spit", "deal_cards")


def check_move(state: SpitState, move: Move) -> None:
    """Raise ``IllegalMoveError`` naming the rule ``move`` breaks; return quietly when legal.

    >>> from companion.engine.cards import DECK
    >>> from companion.engine.spit import VARIANTS, apply_move, start_state
    >>> state = apply_move(start_state(VARIANTS["classic"], DECK), Spit())
    >>> try:
    ...     check_move(state, Play(0, 1, 0))
    ... except IllegalMoveError as error:
    ...     print(error.rule)
    rank_not_adjacent
    """
    if isinstance(move, Play):
        _check_play(state, move)
    elif isinstance(move, Turn):
        _check_turn(state, move)
    elif isinstance(move, Shift):
        _check_shift(state, move)
    elif isinstance(move, Spit):
        _check_spit(state, move)
    elif isinstance(move, Take):
        _check_take(state, move)
    elif isinstance(move, Deal):
        for player in PLAYERS:
            _check_shuffle(state, Phase.DEAL, move.orders[player], state.gathered[player])
    elif isinstance(move, Recycle):
        _check_shuffle(state, Phase.RECYCLE, move.order, under_tops(state))
    else:
        raise TypeError(f"not a Spit move: {move!r}")


def is_legal(state: SpitState, move: Move) -> bool:
    try:
        check_move(state, move)
    except IllegalMoveError:
        return False
    return True


def under_tops(state: SpitState) -> tuple[Card, ...]:
    """The centre cards under the two tops: what Speed shuffles into new side piles."""
    return state.piles[0][:-1] + state.piles[1][:-1]
