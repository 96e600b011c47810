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
  lower hand) and the pile they won; either pile may be slapped (strategic players slap the
  smaller one), and the other player takes the other pile. Under the chooser variant the
  player who emptied their stock picks either pile instead.
- A single spit pile (one pile holds cards, the other none): when a player emptied their stock,
  there is neither slap nor choice, under every variation: the other player takes the pile
  (the rules' "FIN"), ``Take(other, pile)`` the only legal move. When nobody emptied a stock
  (the round ended stuck), the slap decides: it lands on the empty place and takes nothing,
  and the other player takes the pile.
- Each player gathers their taken pile, stock and unspent spit cards, shuffles, and deals the
  stock row by row as at the table (one card on each of the five spaces, then on the last four,
  and so on), the last card of each space face up; the rest are spit cards. With fewer than a
  full layout (15 cards; 10 with four stocks) the rows stop short; with a full layout or less
  there are no spit cards, so the other player spits alone on a single pile.
- "Speed": each player gets 15 cards, five held face up (the stock spaces are the hand) and a
  10-card draw pile that refills the hand at once after each play; the other 22 make two side
  piles of ten, each topped by a centre card, flipped together when both are stuck ("speed-20":
  20 cards each, 5 and 15, side piles of five and a centre card). When the side piles run out,
  the centre cards under the two tops are shuffled into new side piles. There are no new
  layouts: the first player with an empty hand and draw pile wins.
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

from companion.engine.spit.moves import (
    apply_move,
    chance_move,
    is_terminal,
    returns,
    settle,
    speed_points,
)
from companion.engine.spit.rules import (
    check_move,
    is_legal,
    is_stuck,
    legal_moves,
)
from companion.engine.spit.state import (
    CLASSIC,
    HIDDEN,
    VARIANTS,
    Deal,
    Move,
    Phase,
    PileChoice,
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
    combined,
    lay_out,
    new_game,
    rules_title,
    start_state,
)

__all__ = [
    "PileChoice",
    "SpitRules",
    "CLASSIC",
    "VARIANTS",
    "combined",
    "rules_title",
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
    "speed_points",
    "chance_move",
    "all_cards",
]
