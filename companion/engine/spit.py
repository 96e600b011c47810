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
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum

from companion.engine.cards import DECK, Card, Suit
from companion.errors import IllegalMoveError

__all__ = [
    "PileChoice",
    "SpitRules",
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

PLAYERS = (0, 1)
Piles = tuple[tuple[Card, ...], tuple[Card, ...]]


class PileChoice(Enum):
    """Who decides which centre pile each player takes at a new layout."""

    SLAP = "slap"  # the faster slap takes the smaller pile
    CHOOSER = "chooser"  # the player who emptied their stock picks


@dataclass(frozen=True, slots=True)
class SpitRules:
    """A Spit variant: each house rule is a switch."""

    name: str
    stock_piles: int = 5
    alternate_colours: bool = False
    pile_choice: PileChoice = PileChoice.SLAP
    speed: bool = False

    @property
    def full_layout(self) -> int:
        """Cards in a full stock layout: 1 + 2 + ... + ``stock_piles``."""
        return self.stock_piles * (self.stock_piles + 1) // 2


CLASSIC = SpitRules("classic")
VARIANTS: dict[str, SpitRules] = {
    rules.name: rules
    for rules in (
        CLASSIC,
        SpitRules("four-stocks", stock_piles=4),
        SpitRules("alternate", alternate_colours=True),
        SpitRules("chooser", pile_choice=PileChoice.CHOOSER),
        SpitRules("speed", speed=True),
    )
}

# Speed's deal: 5 in hand + 15 to draw per player, and two side piles of 6 (52 cards).
SPEED_HAND = 5
SPEED_DRAW = 15
SPEED_SIDE = 6

# An unknown face-down card, for positions typed by hand (the referee); never in a dealt game.
HIDDEN = Card(None, None)


class Phase(Enum):
    PLAY = "play"
    TAKE = "take"  # the round is over: piles are slapped for (or chosen)
    DEAL = "deal"  # chance: each player shuffles their cards and lays out
    RECYCLE = "recycle"  # chance (Speed): the centre is shuffled into new side piles
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Stock:
    """One stock space: cards bottom to top; only the top card can be face up."""

    cards: tuple[Card, ...] = ()
    face_up: bool = False

    @property
    def top(self) -> Card | None:
        """The face-up top card, or None when the space is empty or its top is face down."""
        return self.cards[-1] if self.cards and self.face_up else None


@dataclass(frozen=True, slots=True)
class PlayerSide:
    """One player's cards: stock spaces (Speed: the hand) and spit cards (Speed: the draw pile)."""

    stocks: tuple[Stock, ...]
    spit: tuple[Card, ...] = ()  # face down; the next one is the last

    @property
    def stock_count(self) -> int:
        return sum(len(stock.cards) for stock in self.stocks)


@dataclass(frozen=True, slots=True)
class SpitState:
    """A whole Spit position. ``live`` is the only live pile once a player spits alone."""

    rules: SpitRules
    players: tuple[PlayerSide, PlayerSide]
    piles: Piles = ((), ())
    phase: Phase = Phase.PLAY
    live: int | None = None
    side_piles: Piles = ((), ())
    emptied: int | None = None  # who emptied their stock, ending the round
    gathered: Piles = ((), ())  # DEAL: cards to lay out
    winner: int | None = None
    round: int = 1


@dataclass(frozen=True, slots=True)
class Play:
    """Play the face-up top of stock space ``stock`` onto centre pile ``pile``."""

    player: int
    stock: int
    pile: int


@dataclass(frozen=True, slots=True)
class Turn:
    """Turn up the face-down top card of a stock space."""

    player: int
    stock: int


@dataclass(frozen=True, slots=True)
class Shift:
    """Move a face-up top card to an empty stock space, uncovering the card below."""

    player: int
    source: int
    target: int


@dataclass(frozen=True, slots=True)
class Spit:
    """Both stuck: each player flips a spit card; ``pile`` is where a lone spitter spits."""

    pile: int | None = None


@dataclass(frozen=True, slots=True)
class Take:
    """Round over: ``player`` won the slap for (or chose) ``pile``; the other takes the other."""

    player: int
    pile: int


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: each player's gathered cards in their shuffled order, dealt into a new layout."""

    orders: Piles


@dataclass(frozen=True, slots=True)
class Recycle:
    """Chance (Speed): the centre cards under the tops, shuffled, become the two side piles."""

    order: tuple[Card, ...]


Move = Play | Turn | Shift | Spit | Take | Deal | Recycle


# ---------------------------------------------------------------------------------------------
# Dealing


def lay_out(cards: tuple[Card, ...], rules: SpitRules) -> PlayerSide:
    """Deal one player's cards: stock row by row, the rest as spit cards (Speed: hand + draw)."""
    n = rules.stock_piles
    if rules.speed:
        hand = tuple(Stock((card,), True) for card in cards[:n])
        return PlayerSide(hand + (Stock(),) * (n - len(hand)), cards[n:])
    spaces: list[list[Card]] = [[] for _ in range(n)]
    dealt = 0
    for row in range(n):
        for space in range(row, n):
            if dealt < len(cards):
                spaces[space].append(cards[dealt])
                dealt += 1
    stocks = tuple(Stock(tuple(space), bool(space)) for space in spaces)
    return PlayerSide(stocks, cards[dealt:])


def start_state(rules: SpitRules, deck: Iterable[Card]) -> SpitState:
    """The first position from a shuffled deck: dealt alternately, as at the table.

    >>> state = start_state(VARIANTS["classic"], DECK)
    >>> [len(side.spit) for side in state.players], state.players[0].stocks[0].top
    ([11, 11], Card(rank=<Rank.TWO: 0>, suit=<Suit.SPADES: 0>))
    """
    order = tuple(deck)
    if len(order) != 52 or frozenset(order) != frozenset(DECK):
        raise IllegalMoveError(
            "deal_cards",
            "a Spit deal needs the 52 cards of one deck, each once",
            "une donne de Spit demande les 52 cartes d'un jeu, chacune une fois",
        )
    if not rules.speed:
        players = (lay_out(order[0::2], rules), lay_out(order[1::2], rules))
        return SpitState(rules, players)
    per_player = SPEED_HAND + SPEED_DRAW
    players = (
        lay_out(order[:per_player], rules),
        lay_out(order[per_player : 2 * per_player], rules),
    )
    rest = order[2 * per_player :]
    return SpitState(rules, players, side_piles=(rest[:SPEED_SIDE], rest[SPEED_SIDE:]))


def new_game(rules: SpitRules, rng: random.Random) -> SpitState:
    """A freshly shuffled game."""
    deck = list(DECK)
    rng.shuffle(deck)
    return start_state(rules, deck)


# ---------------------------------------------------------------------------------------------
# Rules


def _is_red(card: Card) -> bool:
    return card.suit in (Suit.HEARTS, Suit.DIAMONDS)


def can_stack(card: Card, on: Card, rules: SpitRules) -> bool:
    """Whether ``card`` may go on ``on``: one rank apart, turning the corner (A on K or 2).

    >>> from companion.engine.cards import parse_card as c
    >>> can_stack(c("Ks"), c("Ah"), CLASSIC), can_stack(c("2s"), c("Ah"), CLASSIC)
    (True, True)
    >>> can_stack(c("Ks"), c("Kh"), CLASSIC), can_stack(c("5s"), c("4c"), VARIANTS["alternate"])
    (False, False)
    """
    if card.rank is None or on.rank is None:
        return False
    if (card.rank - on.rank) % 13 not in (1, 12):
        return False
    return not rules.alternate_colours or _is_red(card) != _is_red(on)


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


def _spitters(state: SpitState) -> tuple[int, ...]:
    return tuple(p for p in PLAYERS if state.players[p].spit)


def legal_moves(state: SpitState, player: int | None = None) -> tuple[Move, ...]:
    """The legal moves; with ``player``, only that player's own (joint moves have no player)."""
    if state.phase is Phase.PLAY:
        if player is not None:
            return tuple(_player_moves(state, player))
        moves = _player_moves(state, 0) + _player_moves(state, 1)
        if moves:
            return tuple(moves)
        spitters = _spitters(state)
        if state.rules.speed:
            return (Spit(),) if any(state.side_piles) else ()
        if not spitters:
            return ()  # only in a hand-built position: ``settle`` ends such a round
        if len(spitters) == 2:
            return (Spit(),)
        return (Spit(0), Spit(1)) if state.live is None else (Spit(state.live),)
    if state.phase is Phase.TAKE:
        chooser = _chooser(state)
        takers = PLAYERS if chooser is None else (chooser,)
        sizes = [len(pile) for pile in state.piles]
        piles = [i for i in (0, 1) if chooser is not None or sizes[i] <= sizes[1 - i]]
        return tuple(
            Take(p, pile) for p in takers for pile in piles if player is None or p == player
        )
    return ()


def _chooser(state: SpitState) -> int | None:
    if state.rules.pile_choice is PileChoice.CHOOSER:
        return state.emptied
    return None


def _names(player: int) -> tuple[str, str]:
    return f"player {player + 1}", f"joueur {player + 1}"


def _fail(rule: str, detail: str, detail_fr: str) -> IllegalMoveError:
    return IllegalMoveError(rule, detail, detail_fr)


def _check_index(value: int, count: int, what: str, what_fr: str) -> None:
    if not 0 <= value < count:
        raise _fail(
            f"no_such_{what.replace(' ', '_')}",
            f"there is no {what} {value + 1} (1 to {count})",
            f"il n'y a pas de {what_fr} {value + 1} (1 à {count})",
        )


def _check_phase(state: SpitState, wanted: Phase) -> None:
    if state.phase is wanted:
        return
    if state.phase is Phase.OVER:
        raise _fail("game_over", "the game is over", "la partie est terminée")
    if state.phase is Phase.TAKE:
        raise _fail(
            "round_over",
            "the round is over: take the spit piles first",
            "la manche est finie : prenez d'abord les tas centraux",
        )
    if state.phase in (Phase.DEAL, Phase.RECYCLE):
        raise _fail(
            "shuffle_first",
            "the cards must be shuffled and laid out first",
            "il faut d'abord mélanger et étaler les cartes",
        )
    raise _fail(
        "still_playing",
        "the round is still being played",
        "la manche est toujours en cours",
    )


def _check_player(player: int) -> None:
    if player not in PLAYERS:
        raise _fail(
            "no_such_player",
            f"there is no player {player + 1}",
            f"il n'y a pas de joueur {player + 1}",
        )


def _check_stock_top(state: SpitState, player: int, index: int) -> Stock:
    _check_player(player)
    stocks = state.players[player].stocks
    _check_index(index, len(stocks), "stock", "pile de réserve")
    stock = stocks[index]
    if not stock.cards:
        raise _fail(
            "stock_empty",
            f"{_names(player)[0]}'s stock {index + 1} is empty",
            f"la pile de réserve {index + 1} du {_names(player)[1]} est vide",
        )
    if not stock.face_up:
        raise _fail(
            "card_face_down",
            f"the top of {_names(player)[0]}'s stock {index + 1} is face down: turn it up first",
            f"le dessus de la pile de réserve {index + 1} du {_names(player)[1]} est face cachée : "
            "retournez-le d'abord",
        )
    return stock


def _check_play(state: SpitState, move: Play) -> None:
    _check_phase(state, Phase.PLAY)
    stock = _check_stock_top(state, move.player, move.stock)
    _check_index(move.pile, 2, "pile", "tas central")
    card = stock.cards[-1]
    if state.live is not None and move.pile != state.live:
        raise _fail(
            "pile_closed",
            f"pile {move.pile + 1} is closed: since a lone spit, pile {state.live + 1} "
            "is the only pile",
            f"le tas {move.pile + 1} est fermé : depuis un crachat seul, le tas {state.live + 1} "
            "est le seul tas",
        )
    pile = state.piles[move.pile]
    if not pile:
        raise _fail(
            "pile_empty",
            f"pile {move.pile + 1} is empty: nothing goes on it until someone spits",
            f"le tas {move.pile + 1} est vide : rien ne s'y pose avant un crachat",
        )
    on = pile[-1]
    if card.rank is not None and on.rank is not None and (card.rank - on.rank) % 13 not in (1, 12):
        raise _fail(
            "rank_not_adjacent",
            f"{card.pretty()} is not one rank above or below {on.pretty()}",
            f"{card.pretty()} n'est pas d'un rang au-dessus ou au-dessous de {on.pretty()}",
        )
    if not can_stack(card, on, state.rules):
        raise _fail(
            "same_colour",
            f"{card.pretty()} has the same colour as {on.pretty()}; colours must alternate",
            f"{card.pretty()} est de la même couleur que {on.pretty()} ; "
            "les couleurs doivent alterner",
        )


def _check_turn(state: SpitState, move: Turn) -> None:
    _check_phase(state, Phase.PLAY)
    _check_player(move.player)
    stocks = state.players[move.player].stocks
    _check_index(move.stock, len(stocks), "stock", "pile de réserve")
    stock = stocks[move.stock]
    if not stock.cards:
        raise _fail(
            "stock_empty",
            f"{_names(move.player)[0]}'s stock {move.stock + 1} is empty",
            f"la pile de réserve {move.stock + 1} du {_names(move.player)[1]} est vide",
        )
    if stock.face_up:
        raise _fail(
            "already_face_up",
            f"the top of stock {move.stock + 1} is already face up",
            f"le dessus de la pile de réserve {move.stock + 1} est déjà face visible",
        )


def _check_shift(state: SpitState, move: Shift) -> None:
    _check_phase(state, Phase.PLAY)
    stock = _check_stock_top(state, move.player, move.source)
    stocks = state.players[move.player].stocks
    _check_index(move.target, len(stocks), "stock", "pile de réserve")
    if stocks[move.target].cards:
        raise _fail(
            "space_taken",
            f"stock {move.target + 1} is not an empty space (at most {len(stocks)} stock piles)",
            f"la pile de réserve {move.target + 1} n'est pas un emplacement vide "
            f"(au plus {len(stocks)} piles de réserve)",
        )
    if len(stock.cards) == 1:
        raise _fail(
            "shift_uncovers_nothing",
            f"{stock.cards[-1].pretty()} is alone on its pile: moving it uncovers nothing",
            f"{stock.cards[-1].pretty()} est seule sur sa pile : la déplacer ne découvre rien",
        )


def _check_spit(state: SpitState, move: Spit) -> None:
    _check_phase(state, Phase.PLAY)
    if not is_stuck(state):
        raise _fail(
            "not_stuck",
            "nobody may spit while a player can still play, turn a card up or uncover one",
            "personne ne crache tant qu'un joueur peut encore jouer, "
            "retourner ou découvrir une carte",
        )
    if not (any(state.side_piles) if state.rules.speed else _spitters(state)):
        raise _fail(
            "nothing_to_spit",
            "nobody has a card left to spit: the round is over",
            "personne n'a plus de carte à cracher : la manche est finie",
        )
    if state.rules.speed or len(_spitters(state)) == 2:
        if move.pile is not None:
            raise _fail(
                "spit_own_pile",
                "both spit, each on their own pile: no pile to choose",
                "les deux crachent, chacun sur son tas : pas de tas à choisir",
            )
        return
    if move.pile is None:
        raise _fail(
            "spit_alone_pile",
            "one player spits alone and must name the pile",
            "un joueur crache seul et doit nommer le tas",
        )
    _check_index(move.pile, 2, "pile", "tas central")
    if state.live is not None and move.pile != state.live:
        raise _fail(
            "pile_closed",
            f"pile {move.pile + 1} is closed: pile {state.live + 1} is the only pile now",
            f"le tas {move.pile + 1} est fermé : le tas {state.live + 1} est désormais le seul tas",
        )


def _check_take(state: SpitState, move: Take) -> None:
    _check_phase(state, Phase.TAKE)
    _check_player(move.player)
    _check_index(move.pile, 2, "pile", "tas central")
    chooser = _chooser(state)
    if chooser is not None:
        if move.player != chooser:
            raise _fail(
                "chooser",
                f"{_names(chooser)[0]} emptied their stock and chooses the pile",
                f"le {_names(chooser)[1]} a vidé sa réserve et choisit le tas",
            )
        return
    mine, other = len(state.piles[move.pile]), len(state.piles[1 - move.pile])
    if mine > other:
        raise _fail(
            "slap_smaller",
            f"the faster slap takes the smaller pile: pile {move.pile + 1} has {mine} cards, "
            f"pile {2 - move.pile} has {other}",
            f"la main la plus rapide prend le plus petit tas : le tas {move.pile + 1} a {mine} "
            f"cartes, le tas {2 - move.pile} en a {other}",
        )


def _check_shuffle(
    state: SpitState, phase: Phase, given: Iterable[Card], wanted: Iterable[Card]
) -> None:
    _check_phase(state, phase)
    if Counter(given) != Counter(wanted):
        raise _fail(
            "deal_cards",
            "the shuffled cards are not exactly the cards to shuffle",
            "les cartes mélangées ne sont pas exactement celles à mélanger",
        )


def check_move(state: SpitState, move: Move) -> None:
    """Raise ``IllegalMoveError`` naming the rule ``move`` breaks; return quietly when legal.

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
        _check_shuffle(state, Phase.RECYCLE, move.order, _under_tops(state))
    else:
        raise TypeError(f"not a Spit move: {move!r}")


def is_legal(state: SpitState, move: Move) -> bool:
    try:
        check_move(state, move)
    except IllegalMoveError:
        return False
    return True


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


def _under_tops(state: SpitState) -> tuple[Card, ...]:
    return state.piles[0][:-1] + state.piles[1][:-1]


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
    spitters = _spitters(state)
    live = state.live
    if len(spitters) == 1:
        live = move.pile
    for player in spitters:
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
        if not state.rules.speed and not _spitters(state):
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
        order = list(_under_tops(state))
        rng.shuffle(order)
        return Recycle(tuple(order))
    raise _fail("no_shuffle", "nothing is to be shuffled now", "rien n'est à mélanger maintenant")


def all_cards(state: SpitState) -> tuple[Card, ...]:
    """Every card in the position, wherever it lies (the simulator checks there are 52)."""
    cards: list[Card] = []
    for side in state.players:
        for stock in side.stocks:
            cards.extend(stock.cards)
        cards.extend(side.spit)
    for group in (state.piles, state.side_piles, state.gathered):
        for pile in group:
            cards.extend(pile)
    return tuple(cards)
