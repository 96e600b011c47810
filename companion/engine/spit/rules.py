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
        chooser = pile_chooser(state)
        takers = PLAYERS if chooser is None else (chooser,)
        sizes = [len(pile) for pile in state.piles]
        piles = [i for i in (0, 1) if chooser is not None or sizes[i] <= sizes[1 - i]]
        return tuple(
            Take(p, pile) for p in takers for pile in piles if player is None or p == player
        )
    return ()


def pile_chooser(state: SpitState) -> int | None:
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


def _check_stock(state: SpitState, player: int, index: int) -> Stock:
    """The player's stock space ``index``, which must hold cards."""
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
    return stock


def _check_stock_top(state: SpitState, player: int, index: int) -> Stock:
    """As ``_check_stock``, with its top card face up."""
    stock = _check_stock(state, player, index)
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
    if _check_stock(state, move.player, move.stock).face_up:
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
    if not (any(state.side_piles) if state.rules.speed else spitters(state)):
        raise _fail(
            "nothing_to_spit",
            "nobody has a card left to spit: the round is over",
            "personne n'a plus de carte à cracher : la manche est finie",
        )
    if state.rules.speed or len(spitters(state)) == 2:
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
    chooser = pile_chooser(state)
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
