"""Applying Spit moves: each returns a new state; ``settle`` ends rounds and games."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.engine.cards import Card
from companion.engine.spit.rules import (
    check_move,
    is_stuck,
    spitters,
    under_tops,
)
from companion.engine.spit.state import (
    PLAYERS,
    Deal,
    Move,
    Phase,
    Piles,
    Play,
    PlayerSide,
    Recycle,
    Shift,
    Spit,
    SpitState,
    Stock,
    Take,
    Turn,
    lay_out,
)
from companion.errors import IllegalMoveError

__all__ = ["apply_move", "settle", "is_terminal", "returns", "chance_move"]

# ---------------------------------------------------------------------------------------------
# Applying moves


def _set_stock(side: PlayerSide, index: int, stock: Stock) -> PlayerSide:
    return PlayerSide(side.stocks[:index] + (stock,) + side.stocks[index + 1 :], side.spit)


def _set_player(
    state: SpitState, player: int, side: PlayerSide, piles: Piles | None = None
) -> SpitState:
    # Built directly rather than with dataclasses.replace: this is the self-play's hot path.
    players = (side, state.players[1]) if player == 0 else (state.players[0], side)
    s = state
    return SpitState(
        s.rules,
        players,
        s.piles if piles is None else piles,
        s.phase,
        s.live,
        s.side_piles,
        s.emptied,
        s.gathered,
        s.winner,
        s.round,
    )


def _push(piles: Piles, pile: int, card: Card) -> Piles:
    return (piles[0] + (card,), piles[1]) if pile == 0 else (piles[0], piles[1] + (card,))


def _stock_cards(side: PlayerSide) -> tuple[Card, ...]:
    return tuple(card for stock in side.stocks for card in stock.cards)


def apply_move(state: SpitState, move: Move) -> SpitState:
    """The position after ``move``; raises ``IllegalMoveError`` (naming the rule) when illegal."""
    check_move(state, move)
    return settle(_apply(state, move))


def _apply(state: SpitState, move: Move) -> SpitState:
    if isinstance(move, Play):
        side = state.players[move.player]
        stock = side.stocks[move.stock]
        card = stock.cards[-1]
        rest = stock.cards[:-1]
        if state.rules.speed and side.spit:
            # Speed: the player draws back up to five at once.
            stock = Stock(side.spit[-1:], True)
            side = PlayerSide(side.stocks, side.spit[:-1])
        else:
            stock = Stock(rest, False)
        piles = _push(state.piles, move.pile, card)
        return _set_player(state, move.player, _set_stock(side, move.stock, stock), piles)
    if isinstance(move, Turn):
        side = state.players[move.player]
        stock = Stock(side.stocks[move.stock].cards, True)
        return _set_player(state, move.player, _set_stock(side, move.stock, stock))
    if isinstance(move, Shift):
        side = state.players[move.player]
        source = side.stocks[move.source]
        side = _set_stock(side, move.source, Stock(source.cards[:-1], False))
        side = _set_stock(side, move.target, Stock(source.cards[-1:], True))
        return _set_player(state, move.player, side)
    if isinstance(move, Spit):
        return _apply_spit(state, move)
    if isinstance(move, Take):
        return _apply_take(state, move)
    if isinstance(move, Deal):
        players = (lay_out(move.orders[0], state.rules), lay_out(move.orders[1], state.rules))
        return SpitState(state.rules, players, round=state.round + 1)
    if isinstance(move, Recycle):
        half = (len(move.order) + 1) // 2
        return replace(
            state,
            piles=(state.piles[0][-1:], state.piles[1][-1:]),
            side_piles=(move.order[:half], move.order[half:]),
            phase=Phase.PLAY,
        )
    raise TypeError(f"not a Spit move: {move!r}")


def _apply_spit(state: SpitState, move: Spit) -> SpitState:
    piles = state.piles
    if state.rules.speed:
        sides = state.side_piles
        for i in (0, 1):
            if sides[i]:
                piles = _push(piles, i, sides[i][-1])
        return replace(state, piles=piles, side_piles=(sides[0][:-1], sides[1][:-1]))
    players = spitters(state)
    live = state.live
    if len(players) == 1:
        live = move.pile
    for player in players:
        side = state.players[player]
        piles = _push(piles, player if live is None else live, side.spit[-1])
        state = _set_player(state, player, PlayerSide(side.stocks, side.spit[:-1]))
    return replace(state, piles=piles, live=live)


def _apply_take(state: SpitState, move: Take) -> SpitState:
    piles = {move.player: state.piles[move.pile], 1 - move.player: state.piles[1 - move.pile]}
    gathered = tuple(
        piles[p] + _stock_cards(state.players[p]) + state.players[p].spit for p in PLAYERS
    )
    empty = PlayerSide((Stock(),) * state.rules.stock_piles)
    # Nobody can be empty-handed here: a player out of stock and spit cards has already won.
    return SpitState(
        state.rules,
        (empty, empty),
        phase=Phase.DEAL,
        gathered=(gathered[0], gathered[1]),
        round=state.round,
    )


def settle(state: SpitState) -> SpitState:
    """Apply the automatic consequences of a move: round end, win, Speed's recycling."""
    if state.phase is not Phase.PLAY:
        return state
    for player in PLAYERS:
        side = state.players[player]
        if side.stock_count == 0:
            if not side.spit:
                return replace(state, phase=Phase.OVER, winner=player)
            if not state.rules.speed:
                return replace(state, phase=Phase.TAKE, emptied=player)
    if is_stuck(state):
        if state.rules.speed and not any(state.side_piles):
            return replace(state, phase=Phase.RECYCLE)
        if not state.rules.speed and not spitters(state):
            return replace(state, phase=Phase.TAKE)
    return state


def is_terminal(state: SpitState) -> bool:
    return state.phase is Phase.OVER


def speed_points(state: SpitState) -> tuple[int, int]:
    """Speed's score of a finished game: the winner gets a point for each card the other player
    still holds, in hand and to draw (Spit, "Vitesse"); (0, 0) before the end or outside Speed."""
    if not state.rules.speed or state.winner is None:
        return (0, 0)
    loser = state.players[1 - state.winner]
    left = sum(len(stock.cards) for stock in loser.stocks) + len(loser.spit)
    return (left, 0) if state.winner == 0 else (0, left)


def returns(state: SpitState) -> tuple[float, float]:
    """+1 for the winner, -1 for the loser; zeros while the game goes on."""
    if state.winner is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if state.winner == 0 else (-1.0, 1.0)


def chance_move(state: SpitState, rng: random.Random) -> Move:
    """Sample the shuffle of a DEAL or RECYCLE phase."""
    if state.phase is Phase.DEAL:
        orders = []
        for cards in state.gathered:
            order = list(cards)
            rng.shuffle(order)
            orders.append(tuple(order))
        return Deal((orders[0], orders[1]))
    if state.phase is Phase.RECYCLE:
        order = list(under_tops(state))
        rng.shuffle(order)
        return Recycle(tuple(order))
    raise IllegalMoveError("spit", "no_shuffle")
