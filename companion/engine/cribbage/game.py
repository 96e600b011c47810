"""A two-player six-card cribbage game to 121, as immutable states and checked moves.

The cards come from the table (typed or read from a photo), so dealing and cutting are moves
like any other. ``apply_move`` returns a new state, or raises ``IllegalMoveError`` naming the
rule; keeping the list of states gives the app its undo.

>>> from companion.engine.cards import parse_cards
>>> state = new_game(first_dealer=0)
>>> dealt = (parse_cards("5c 5d 5h Jd 2c 3c"), parse_cards("4h 6h 7s 8s 9d Ts"))
>>> state = apply_move(state, Deal(dealt))
>>> state = apply_move(state, Discard(0, parse_cards("2c 3c")))
>>> state = apply_move(state, Discard(1, parse_cards("9d Ts")))
>>> state = apply_move(state, Cut(parse_cards("5s")[0]))
>>> state.phase.value, state.current_player
('pegging', 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import combinations

from companion.engine.cards import DECK, Card, check_duplicates
from companion.engine.cribbage.score import (
    PEG_LIMIT,
    Rule,
    ScoreItem,
    card_value,
    check_natural,
    peg_count,
    score_heels,
    score_peg,
    score_show,
)
from companion.errors import IllegalMoveError
from companion.messages import phrase

__all__ = [
    "Phase",
    "Deal",
    "Discard",
    "Cut",
    "Play",
    "Go",
    "Count",
    "Move",
    "ScoreEvent",
    "GameState",
    "WINNING_SCORE",
    "new_game",
    "legal_moves",
    "check_move",
    "apply_move",
    "remaining",
]

WINNING_SCORE = 121
DEALT = 6
KEPT = 4


class Phase(StrEnum):
    DEAL = "deal"
    DISCARD = "discard"
    CUT = "cut"
    PEGGING = "pegging"
    SHOW = "show"
    OVER = "over"


@dataclass(frozen=True)
class Deal:
    """Six cards to each player (players 0 and 1), as dealt at the table."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True)
class Discard:
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Cut:
    starter: Card


@dataclass(frozen=True)
class Play:
    player: int
    card: Card


@dataclass(frozen=True)
class Go:
    player: int


@dataclass(frozen=True)
class Count:
    """Count the next show: the non-dealer's hand, then the dealer's, then the crib."""


Move = Deal | Discard | Cut | Play | Go | Count


@dataclass(frozen=True)
class ScoreEvent:
    player: int
    phase: Phase
    items: tuple[ScoreItem, ...]

    @property
    def points(self) -> int:
        return sum(item.points for item in self.items)


@dataclass(frozen=True)
class GameState:
    """Everything about a game between players 0 and 1.

    ``hands`` holds the six dealt cards until each discard, then the four kept for the show;
    ``played`` what each has pegged, ``count`` the cards since the last reset, ``passed`` who
    has said go in this count, and ``events`` every score with its reasons.
    """

    dealer: int
    phase: Phase = Phase.DEAL
    scores: tuple[int, int] = (0, 0)
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    crib: tuple[Card, ...] = ()
    discarded: tuple[bool, bool] = (False, False)
    starter: Card | None = None
    played: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    count: tuple[Card, ...] = ()
    last_player: int | None = None
    to_play: int = 0
    passed: tuple[bool, bool] = (False, False)
    shows_counted: int = 0
    events: tuple[ScoreEvent, ...] = ()
    winner: int | None = None
    target: int = WINNING_SCORE
    deals: int = 0

    @property
    def pone(self) -> int:
        """The non-dealer, who leads the pegging and counts first."""
        return 1 - self.dealer

    @property
    def current_player(self) -> int | None:
        """Whose turn it is while pegging; None when the table acts (deal, cut, show)."""
        return self.to_play if self.phase == Phase.PEGGING else None

    @property
    def is_terminal(self) -> bool:
        return self.phase == Phase.OVER


def new_game(first_dealer: int = 0, target: int = WINNING_SCORE) -> GameState:
    """A game waiting for its first deal."""
    _check_player(first_dealer)
    return GameState(dealer=first_dealer, target=target)


def remaining(state: GameState, player: int) -> tuple[Card, ...]:
    """The cards ``player`` has not pegged yet."""
    return tuple(card for card in state.hands[player] if card not in state.played[player])


def _playable(state: GameState, player: int) -> tuple[Card, ...]:
    room = PEG_LIMIT - peg_count(state.count)
    return tuple(card for card in remaining(state, player) if card_value(card) <= room)


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move; empty at the deal, whose cards come from the table, and at the end."""
    if state.phase == Phase.DISCARD:
        return tuple(
            Discard(player, pair)
            for player in (state.pone, state.dealer)
            if not state.discarded[player]
            for pair in combinations(state.hands[player], 2)
        )
    if state.phase == Phase.CUT:
        seen = {*state.hands[0], *state.hands[1], *state.crib}
        return tuple(Cut(card) for card in DECK if card not in seen)
    if state.phase == Phase.PEGGING:
        plays = _playable(state, state.to_play)
        if plays:
            return tuple(Play(state.to_play, card) for card in plays)
        return (Go(state.to_play),)
    if state.phase == Phase.SHOW:
        return (Count(),)
    return ()


def _check_player(player: int) -> None:
    if player not in (0, 1):
        raise IllegalMoveError("cribbage", "no_such_player", player=player)


_MOVE_PHASE = {
    Deal: Phase.DEAL,
    Discard: Phase.DISCARD,
    Cut: Phase.CUT,
    Play: Phase.PEGGING,
    Go: Phase.PEGGING,
    Count: Phase.SHOW,
}


def check_move(state: GameState, move: Move) -> None:
    """Raise ``IllegalMoveError`` naming the broken rule, or return when ``move`` is legal."""
    if state.phase == Phase.OVER:
        raise IllegalMoveError(
            "cribbage", "game_over", player=_name(state.winner), target=state.target
        )
    if _MOVE_PHASE[type(move)] != state.phase:
        raise IllegalMoveError(
            "cribbage",
            "wrong_phase",
            move=phrase(f"cribbage.move_{_move_name(move)}"),
            phase=phrase(f"cribbage.phase_{state.phase.value}"),
        )
    if isinstance(move, Deal):
        _check_deal(move)
    elif isinstance(move, Discard):
        _check_discard(state, move)
    elif isinstance(move, Cut):
        _check_cut(state, move)
    elif isinstance(move, Play | Go):
        _check_turn(state, move.player)
        if isinstance(move, Play):
            _check_play(state, move)
        else:
            _check_go(state, move)


def _move_name(move: Move) -> str:
    return type(move).__name__.lower()


def _name(player: int | None) -> str:
    return "?" if player is None else str(player + 1)


def _check_deal(move: Deal) -> None:
    if len(move.hands) != 2 or any(len(hand) != DEALT for hand in move.hands):
        sizes = ", ".join(str(len(hand)) for hand in move.hands)
        raise IllegalMoveError("cribbage", "deal_six_each", sizes=sizes)
    for player, hand in enumerate(move.hands):
        check_natural(hand, phrase("place.player_hand", n=player + 1))
    check_duplicates(
        {phrase("place.player_hand", n=player + 1): hand for player, hand in enumerate(move.hands)}
    )


def _check_discard(state: GameState, move: Discard) -> None:
    _check_player(move.player)
    who = _name(move.player)
    if state.discarded[move.player]:
        raise IllegalMoveError("cribbage", "already_discarded", who=who)
    if len(move.cards) != 2 or move.cards[0] == move.cards[1]:
        raise IllegalMoveError("cribbage", "discard_two", who=who)
    _check_held(state.hands[move.player], move.cards, move.player)


def _check_held(held: Sequence[Card], cards: Sequence[Card], player: int) -> None:
    for card in cards:
        if card not in held:
            raise IllegalMoveError("cribbage", "not_in_hand", card=card, player=_name(player))


def _check_cut(state: GameState, move: Cut) -> None:
    check_natural((move.starter,), phrase("place.starter"))
    if move.starter in {*state.hands[0], *state.hands[1], *state.crib}:
        raise IllegalMoveError("cribbage", "starter_seen", starter=move.starter)


def _check_turn(state: GameState, player: int) -> None:
    _check_player(player)
    if player != state.to_play:
        raise IllegalMoveError(
            "cribbage", "not_your_turn", player=_name(state.to_play), player2=_name(player)
        )


def _check_play(state: GameState, move: Play) -> None:
    _check_held(remaining(state, move.player), (move.card,), move.player)
    total = peg_count(state.count) + card_value(move.card)
    if total > PEG_LIMIT:
        raise IllegalMoveError("cribbage", "count_over_31", card=move.card, total=total)


def _check_go(state: GameState, move: Go) -> None:
    fits = _playable(state, move.player)
    if fits:
        raise IllegalMoveError("cribbage", "must_play", player=_name(move.player), fit=fits[0])


def apply_move(state: GameState, move: Move) -> GameState:
    """The state after ``move``; raises ``IllegalMoveError`` if the move breaks a rule."""
    check_move(state, move)
    if isinstance(move, Deal):
        return _deal(state, move)
    if isinstance(move, Discard):
        return _discard(state, move)
    if isinstance(move, Cut):
        after = _score(
            replace(state, starter=move.starter), state.dealer, score_heels(move.starter)
        )
        if after.phase == Phase.OVER:
            return after
        return replace(after, phase=Phase.PEGGING, to_play=state.pone)
    if isinstance(move, Play):
        return _play(state, move)
    if isinstance(move, Go):
        passed = tuple(p == move.player or state.passed[p] for p in (0, 1))
        return _advance(replace(state, passed=(passed[0], passed[1])))
    return _count_show(state)


def _deal(state: GameState, move: Deal) -> GameState:
    # Each later deal passes the box to the other player; the first keeps ``first_dealer``.
    dealer = state.dealer if state.deals == 0 else 1 - state.dealer
    fresh = GameState(
        dealer=dealer,
        scores=state.scores,
        events=state.events,
        target=state.target,
        deals=state.deals + 1,
    )
    hands = (tuple(move.hands[0]), tuple(move.hands[1]))
    return replace(fresh, phase=Phase.DISCARD, hands=hands)


def _discard(state: GameState, move: Discard) -> GameState:
    kept = tuple(card for card in state.hands[move.player] if card not in move.cards)
    hands = (kept, state.hands[1]) if move.player == 0 else (state.hands[0], kept)
    discarded = (state.discarded[0] or move.player == 0, state.discarded[1] or move.player == 1)
    phase = Phase.CUT if all(discarded) else Phase.DISCARD
    return replace(
        state, hands=hands, crib=state.crib + tuple(move.cards), discarded=discarded, phase=phase
    )


def _score(state: GameState, player: int, items: tuple[ScoreItem, ...]) -> GameState:
    if not items:
        return state
    event = ScoreEvent(player, state.phase, items)
    total = state.scores[player] + event.points
    scores = (total, state.scores[1]) if player == 0 else (state.scores[0], total)
    after = replace(state, scores=scores, events=state.events + (event,))
    # The first to reach the target wins at once, even in the middle of the pegging.
    if total >= state.target:
        return replace(after, phase=Phase.OVER, winner=player)
    return after


def _play(state: GameState, move: Play) -> GameState:
    played = tuple(state.played[p] + ((move.card,) if p == move.player else ()) for p in (0, 1))
    count = state.count + (move.card,)
    after = replace(state, played=(played[0], played[1]), count=count, last_player=move.player)
    after = _score(after, move.player, score_peg(count))
    if after.phase == Phase.OVER:
        return after
    if peg_count(count) == PEG_LIMIT:
        return _reset(after, move.player)
    return _advance(after)


def _advance(state: GameState) -> GameState:
    """Give the turn to whoever can act, or close the count with a go or last card."""
    # Only called with a card on the count (a go needs one), so ``last_player`` is set.
    last = state.last_player if state.last_player is not None else state.pone
    other = 1 - last
    if _playable(state, other) or (remaining(state, other) and not state.passed[other]):
        return replace(state, to_play=other)
    if _playable(state, last):
        return replace(state, to_play=last)
    out = not remaining(state, 0) and not remaining(state, 1)
    rule = Rule.LAST_CARD if out else Rule.GO
    after = _score(state, last, (ScoreItem(rule, 1, state.count[-1:]),))
    if after.phase == Phase.OVER:
        return after
    return _reset(after, last)


def _reset(state: GameState, last: int) -> GameState:
    """Start a new count after 31 or a go; the opponent of the last player leads."""
    if not remaining(state, 0) and not remaining(state, 1):
        return replace(state, count=(), passed=(False, False), phase=Phase.SHOW)
    leader = 1 - last if remaining(state, 1 - last) else last
    return replace(state, count=(), passed=(False, False), last_player=None, to_play=leader)


def _count_show(state: GameState) -> GameState:
    if state.starter is None:
        raise RuntimeError("the show phase began without a starter")  # a bug: the cut sets it
    step = state.shows_counted
    after = replace(state, shows_counted=step + 1)
    if step < 2:
        player = state.pone if step == 0 else state.dealer
        show = score_show(state.hands[player], state.starter)
        after = _score(after, player, show.items)
    else:
        show = score_show(state.crib, state.starter, crib=True)
        after = _score(after, state.dealer, show.items)
        if after.phase != Phase.OVER:
            after = replace(after, phase=Phase.DEAL)
    return after
