"""The Spit referee: from what the players can see, the legal plays, a stalemate, or a broken rule.

A typed position gives only what lies face up on the table: the two spit pile tops, each
player's stock tops (or a face-down top, or an empty space) and how many spit cards each has
left. Cards nobody can see are stood in for by ``HIDDEN``; a pile's size matters only for the
slap (which pile is the better one) and for uncovering a card, so it defaults to one card.

>>> from companion.engine.cards import parse_card as c
>>> state = typed_position(
...     VARIANTS["classic"],
...     piles=(PileView(c("7h")), PileView(c("Kc"))),
...     stocks=((PileView(c("8d")), PileView(c("2s"))), (PileView(c("5c")),)),
...     spit_left=(3, 3),
... )
>>> ruling = referee(state, CardPlay(1, c("5c"), 0))
>>> ruling.verdict.error.rule
'rank_not_adjacent'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from companion.engine.cards import Card, check_duplicates
from companion.engine.spit import (
    HIDDEN,
    VARIANTS,
    Move,
    Phase,
    Play,
    PlayerSide,
    Shift,
    Spit,
    SpitRules,
    SpitState,
    Stock,
    Take,
    check_move,
    is_stuck,
    legal_moves,
    rules_title,
    settle,
)
from companion.errors import IllegalMoveError, TableError
from companion.messages import Phrase, phrase

__all__ = [
    "PileView",
    "CardPlay",
    "CardShift",
    "Situation",
    "Verdict",
    "Ruling",
    "typed_position",
    "resolve",
    "referee",
    "VARIANTS",
]


@dataclass(frozen=True, slots=True)
class PileView:
    """A pile as seen on the table: its face-up top (None: face down, or empty when size is 0)."""

    top: Card | None
    size: int = 1


EMPTY = PileView(None, 0)


@dataclass(frozen=True, slots=True)
class CardPlay:
    """A disputed play named by its card, as players say it: "player 1 plays 8♦ on pile 1"."""

    player: int
    card: Card
    pile: int


@dataclass(frozen=True, slots=True)
class CardShift:
    """A disputed move of a face-up card to an empty stock space."""

    player: int
    card: Card
    target: int


class Situation(Enum):
    PLAY = "play"
    BOTH_SPIT = "both_spit"
    SPIT_ALONE = "spit_alone"
    FLIP_SIDE = "flip_side"  # Speed: flip the side piles
    RECYCLE = "recycle"  # Speed: shuffle the centre into new side piles
    NO_SPIT = "stuck_no_spit"  # stuck with no spit cards: take the piles, lay out again
    ROUND_OVER = "round_over"  # a stock was emptied: take the piles, lay out again
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The ruling on a disputed move: legal, or the rule it breaks."""

    move: Move | CardPlay | CardShift
    error: IllegalMoveError | None

    @property
    def legal(self) -> bool:
        return self.error is None


@dataclass(frozen=True, slots=True)
class Ruling:
    state: SpitState
    situation: Situation
    plays: tuple[tuple[Move, ...], tuple[Move, ...]]  # each player's own moves
    joint: tuple[Move, ...]  # spits and pile takings
    verdict: Verdict | None = None


def _stock(view: PileView, where: Phrase) -> Stock:
    if view.size < 0 or (view.top is not None and view.size < 1):
        raise TableError("spit.pile_size", where=where, size=view.size)
    if view.size == 0:
        return Stock()
    if view.top is None:
        return Stock((HIDDEN,) * view.size, False)
    return Stock((HIDDEN,) * (view.size - 1) + (view.top,), True)


DEAL_SIZE = 52  # every Spit variant deals one whole deck, no more


def _check_card_count(
    piles: tuple[PileView, PileView],
    stocks: tuple[Sequence[PileView], Sequence[PileView]],
    spit_left: tuple[int, int],
    side_left: tuple[int, int],
) -> None:
    """Refuse a position holding more cards than a deal has (a typo such as ``7h/300``)."""
    views = [*piles, *stocks[0], *stocks[1]]
    total = sum(max(view.size, 0) for view in views) + sum(spit_left) + sum(side_left)
    if total > DEAL_SIZE:
        raise TableError("spit.too_many_cards", n=total, deal=DEAL_SIZE)


def typed_position(
    rules: SpitRules,
    piles: tuple[PileView, PileView],
    stocks: tuple[Sequence[PileView], Sequence[PileView]],
    spit_left: tuple[int, int],
    live: int | None = None,
    side_left: tuple[int, int] = (0, 0),
) -> SpitState:
    """A position typed by hand (Speed: ``stocks`` are the hands, ``spit_left`` the draw piles)."""
    seen: dict[Phrase, list[Card]] = {}
    for i, view in enumerate(piles):
        seen[phrase("spit.place_pile", n=i + 1)] = [] if view.top is None else [view.top]
    for player, views in enumerate(stocks):
        if len(views) > rules.stock_piles:
            raise TableError(
                "spit.stock_count",
                player=player + 1,
                n=len(views),
                rules=rules_title(rules),
                allowed=rules.stock_piles,
            )
        seen[phrase("spit.place_player", n=player + 1)] = [
            view.top for view in views if view.top is not None
        ]
    for place, cards in seen.items():
        for card in cards:
            if card.is_wild:
                raise TableError("spit.wild_card", place=place, card=card)
    check_duplicates(seen)
    if min(spit_left + side_left) < 0:
        raise TableError("spit.negative_count")
    _check_card_count(piles, stocks, spit_left, side_left)
    if live is not None and live not in (0, 1):
        raise TableError("spit.live_pile", n=live + 1)
    sides = []
    for player in (0, 1):
        views = list(stocks[player]) + [EMPTY] * (rules.stock_piles - len(stocks[player]))
        where = phrase("spit.place_player", n=player + 1)
        stock = tuple(_stock(view, where) for view in views)
        sides.append(PlayerSide(stock, (HIDDEN,) * spit_left[player]))
    centre = tuple(
        _stock(view, phrase("spit.place_pile", n=i + 1)).cards for i, view in enumerate(piles)
    )
    side_piles = ((HIDDEN,) * side_left[0], (HIDDEN,) * side_left[1])
    state = SpitState(
        rules, (sides[0], sides[1]), (centre[0], centre[1]), live=live, side_piles=side_piles
    )
    return settle(state)


def resolve(state: SpitState, move: Move | CardPlay | CardShift) -> Move:
    """Turn a move named by its card into the engine's move; raise when the card is not there."""
    if not isinstance(move, CardPlay | CardShift):
        return move
    if move.player not in (0, 1):
        raise IllegalMoveError("spit", "no_such_player", n=move.player + 1)
    for index, stock in enumerate(state.players[move.player].stocks):
        if stock.top == move.card:
            if isinstance(move, CardPlay):
                return Play(move.player, index, move.pile)
            return Shift(move.player, index, move.target)
    card, n = move.card.pretty(), move.player + 1
    if state.rules.speed:
        raise IllegalMoveError("spit", "not_in_hand", card=card, n=n)
    raise IllegalMoveError("spit", "not_a_stock_top", card=card, n=n)


def _situation(state: SpitState) -> Situation:
    if state.phase is Phase.OVER:
        return Situation.GAME_OVER
    if state.phase in (Phase.TAKE, Phase.DEAL):
        return Situation.NO_SPIT if state.emptied is None else Situation.ROUND_OVER
    if state.phase is Phase.RECYCLE:
        return Situation.RECYCLE
    if not is_stuck(state):
        return Situation.PLAY
    if state.rules.speed:
        return Situation.FLIP_SIDE
    spitters = sum(1 for side in state.players if side.spit)
    return Situation.BOTH_SPIT if spitters == 2 else Situation.SPIT_ALONE


def referee(state: SpitState, disputed: Move | CardPlay | CardShift | None = None) -> Ruling:
    """Rule on a position: who may do what, whether both must spit, and the disputed move."""
    plays = (legal_moves(state, 0), legal_moves(state, 1))
    joint = tuple(move for move in legal_moves(state) if isinstance(move, Spit | Take))
    verdict = None
    if disputed is not None:
        try:
            check_move(state, resolve(state, disputed))
            verdict = Verdict(disputed, None)
        except IllegalMoveError as error:
            verdict = Verdict(disputed, error)
    return Ruling(state, _situation(state), plays, joint, verdict)
