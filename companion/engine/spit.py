"""Spit, the two-player speed game: immutable state, legal moves, and moves that return new states.

Spit is simultaneous, so instead of OpenSpiel's ``current_player`` every move names its player
(or none, for joint and chance moves), and ``legal_moves(state, player)`` lists one player's moves.
Shuffles are chance moves (``Deal``, ``Recycle``) carrying the new card order, so ``apply_move``
stays pure; ``chance_move(state, rng)`` samples one with an injected ``random.Random``.
Players, piles and stock spaces count from 0 here; the referee's words and the CLI count from 1.

Where our group's rules are silent, this module decides as players at the table expect:

- A round starts with empty centre piles, so its first move is always the joint ``Spit``.
  Each player spits on their own pile: player 0 on pile 0, player 1 on pile 1.
- "Stuck" means neither player can play, turn a face-down top up, or uncover a card by moving
  a face-up top to an empty space. A card alone on its pile may not shift to another empty
  space: it uncovers nothing, and allowing it lets a stuck game go round in circles.
- A player without spit cards lets the other spit alone; the spitter picks the pile, and from
  then until the next layout that pile is the only live one for both (the other is closed).
- A round ends as soon as all of a player's stock spaces are empty, or when both are stuck and
  neither has spit cards. A player with no stock and no spit cards has won, at once.
- Taking piles: ``Take(player, pile)`` records the slap winner (the faster hand, or on a tie the
  lower hand) and the pile they won; they may only slap the smaller pile (either, when equal),
  and the other player takes the other pile. A missing pile counts as an empty one, so with a
  single pile the faster slap takes nothing. Under the chooser variant the player who emptied
  their stock picks either pile; when the round ended stuck, nobody emptied a stock and the
  slap decides as usual.
- Each player gathers their taken pile, stock and unspent spit cards, shuffles, and deals the
  stock row by row as at the table (one card on each of the five spaces, then on the last four,
  and so on), the last card of each space face up; the rest are spit cards. With fewer than a
  full layout (15 cards; 10 with four stocks) the rows stop short; with a full layout or less
  there are no spit cards, so the other player spits alone on a single pile.
- "Speed": each player holds five cards face up (the stock spaces are the hand) and a 15-card
  draw pile that refills the hand at once after each play; two side piles of six cards start
  the centre and are flipped together when both are stuck. When the side piles run out, the
  centre cards under the two tops are shuffled into new side piles. There are no new layouts:
  the first player with an empty hand and draw pile wins.
- Alternating colours applies to plays only, never to spits or side-pile flips.

>>> from companion.engine.cards import DECK
>>> rules = VARIANTS["classic"]
>>> state = start_state(rules, DECK)
>>> legal_moves(state)
(Spit(pile=None),)
>>> state = apply_move(state, Spit())
>>> [str(pile[-1]) for pile in state.piles]
['Ad', 'Ac']
"""

from __future__ import annotations

import random
from dataclasses import replace

from companion.engine.cards import Card
from companion.engine.spit_rules import (
    check_move,
    is_legal,
    is_stuck,
    legal_moves,
    spitters,
    under_tops,
)
from companion.engine.spit_state import (
    CLASSIC,
    HIDDEN,
    PLAYERS,
    VARIANTS,
    Deal,
    Move,
    Phase,
    PileChoice,
    Piles,
    Play,
    PlayerSide,
    Recycle,
    Shift,
    Spit,
    SpitRules,
    SpitState,
    Stock,
    Take,
    Turn,
    all_cards,
    can_stack,
    lay_out,
    new_game,
    start_state,
)
from companion.errors import IllegalMoveError

__all__ = [
    "PileChoice",
    "SpitRules",
    "CLASSIC",
    "VARIANTS",
    "Phase",
    "Stock",
    "PlayerSide",
    "SpitState",
    "Play",
    "Turn",
    "Shift",
    "Spit",
    "Take",
    "Deal",
    "Recycle",
    "Move",
    "HIDDEN",
    "lay_out",
    "start_state",
    "new_game",
    "can_stack",
    "legal_moves",
    "check_move",
    "is_legal",
    "apply_move",
    "is_stuck",
    "settle",
    "is_terminal",
    "returns",
    "chance_move",
    "all_cards",
]

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
    raise IllegalMoveError(
        "no_shuffle", "nothing is to be shuffled now", "rien n'est à mélanger maintenant"
    )
