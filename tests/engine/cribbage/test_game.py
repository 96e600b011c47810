from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import DECK, Card
from companion.engine.cribbage.game import (
    Count,
    Cut,
    Deal,
    Discard,
    GameState,
    Go,
    Move,
    Phase,
    Play,
    apply_move,
    check_move,
    legal_moves,
    new_game,
    remaining,
)
from companion.engine.cribbage.score import PEG_LIMIT, Rule, peg_count
from companion.errors import DuplicateCardError, IllegalMoveError, TableError
from tests.helpers import cards


def one(text: str) -> Card:
    return cards(text)[0]


def cut_game(
    dealer_cards: str, pone_cards: str, dealer_throw: str, pone_throw: str, starter: str
) -> GameState:
    """A game with player 0 dealing, discards made and the starter cut."""
    state = new_game(first_dealer=0)
    state = apply_move(state, Deal((cards(dealer_cards), cards(pone_cards))))
    state = apply_move(state, Discard(1, cards(pone_throw)))
    state = apply_move(state, Discard(0, cards(dealer_throw)))
    return apply_move(state, Cut(one(starter)))


def play(state: GameState, *moves: str) -> GameState:
    """Moves written "1 5s" (player 1 plays 5s) or "1 go"."""
    for text in moves:
        who, what = text.split()
        move: Move = Go(int(who)) if what == "go" else Play(int(who), one(what))
        state = apply_move(state, move)
    return state


def last_event(state: GameState) -> tuple[int, list[tuple[Rule, int]]]:
    event = state.events[-1]
    return event.player, [(item.rule, item.points) for item in event.items]


@pytest.fixture
def go_game() -> GameState:
    return cut_game("Kc Qc Jc Tc 2h 3h", "5s 5d 9s 8d 4c 6c", "2h 3h", "4c 6c", "7h")


def test_pone_leads_and_fifteen_scores(go_game: GameState) -> None:
    assert go_game.phase == Phase.PEGGING and go_game.current_player == 1
    state = play(go_game, "1 5s", "0 Kc")
    assert state.scores == (2, 0)
    assert last_event(state) == (0, [(Rule.FIFTEEN, 2)])


def test_go_last_card_reset_and_show(go_game: GameState) -> None:
    state = play(go_game, "1 5s", "0 Kc", "1 5d", "0 Qc")
    # Count 30: player 1's 9 and 8 do not fit, so go is their only move.
    assert legal_moves(state) == (Go(1),)
    state = play(state, "1 go")
    # Player 0 cannot follow with a ten either: 1 for the go, and player 1 leads the new count.
    assert last_event(state) == (0, [(Rule.GO, 1)])
    assert state.count == () and state.current_player == 1 and state.scores == (3, 0)
    state = play(state, "1 9s", "0 Jc", "1 8d")
    assert legal_moves(state) == (Go(0),)
    state = play(state, "0 go")
    # Player 1 has no card left: the go is theirs, and player 0 leads with the last card.
    assert last_event(state) == (1, [(Rule.GO, 1)])
    assert state.current_player == 0
    state = play(state, "0 Tc")
    assert last_event(state) == (0, [(Rule.LAST_CARD, 1)])
    assert state.phase == Phase.SHOW and state.scores == (4, 1)
    # Show order: non-dealer's hand (7), dealer's hand (8), then the crib (7) for the dealer.
    state = apply_move(state, Count())
    assert state.scores == (4, 8) and state.events[-1].player == 1
    state = apply_move(state, Count())
    assert state.scores == (12, 8)
    state = apply_move(state, Count())
    assert state.scores == (19, 8) and state.phase == Phase.DEAL
    # The next deal passes the box to player 1.
    state = apply_move(state, Deal((cards("2s 3s 4s 5h 6h 7h"), cards("8s 9h Tc Jd Qs Kd"))))
    assert state.dealer == 1 and state.pone == 0 and state.scores == (19, 8)


def test_thirty_one_resets_without_a_go_point() -> None:
    state = cut_game("Kh Qh 6d 4s As 3s", "Kd 5c 9h 2c 7c 8c", "As 3s", "7c 8c", "Ad")
    state = play(state, "1 Kd", "0 Qh", "1 5c", "0 6d")
    assert last_event(state) == (0, [(Rule.THIRTY_ONE, 2)])
    assert peg_count(state.count) == 0 and state.current_player == 1
    state = play(state, "1 9h", "0 4s", "1 2c")
    assert last_event(state) == (1, [(Rule.FIFTEEN, 2)])
    # Player 1 is out of cards, so player 0 plays on and takes the last card.
    assert state.current_player == 0
    state = play(state, "0 Kh")
    assert last_event(state) == (0, [(Rule.LAST_CARD, 1)])
    assert state.scores == (3, 2) and state.phase == Phase.SHOW


def test_player_who_said_go_waits_while_the_other_plays_on() -> None:
    state = cut_game("Kh As 2d 7c 3s 4s", "Kd 7s 9h Qd 5c 6c", "3s 4s", "5c 6c", "8h")
    state = play(state, "1 Kd", "0 Kh")
    assert last_event(state) == (0, [(Rule.PAIR, 2)])
    state = play(state, "1 7s", "0 As", "1 go")
    # Count 28: player 0 plays on alone with the 2, then takes the go.
    assert state.current_player == 0 and legal_moves(state) == (Play(0, one("2d")),)
    state = play(state, "0 2d")
    assert last_event(state) == (0, [(Rule.GO, 1)])
    assert state.scores == (3, 0) and state.count == () and state.current_player == 1


def test_reaching_121_mid_pegging_ends_the_game_at_once(go_game: GameState) -> None:
    state = replace(go_game, scores=(119, 120))
    state = play(state, "1 5s", "0 Kc")
    assert state.phase == Phase.OVER and state.winner == 0 and state.is_terminal
    assert state.scores == (121, 120)
    assert legal_moves(state) == ()
    with pytest.raises(IllegalMoveError) as info:
        apply_move(state, Play(1, one("5d")))
    assert info.value.rule == "game_over"


def test_non_dealer_counts_first_and_wins_before_the_dealer(go_game: GameState) -> None:
    state = play(go_game, "1 5s", "0 Kc", "1 5d", "0 Qc", "1 go", "1 9s", "0 Jc", "1 8d")
    state = play(state, "0 go", "0 Tc")
    state = replace(state, scores=(120, 114))
    state = apply_move(state, Count())
    assert state.winner == 1 and state.scores == (120, 121)


def test_his_heels_can_win() -> None:
    state = new_game(first_dealer=0)
    state = apply_move(state, Deal((cards("Kc Qc Jc Tc 2h 3h"), cards("5s 5d 9s 8d 4c 6c"))))
    state = apply_move(state, Discard(0, cards("2h 3h")))
    state = apply_move(state, Discard(1, cards("4c 6c")))
    near = replace(state, scores=(119, 0))
    after = apply_move(near, Cut(one("Jd")))
    assert after.winner == 0 and after.events[-1].items[0].rule == Rule.HEELS
    assert apply_move(state, Cut(one("Jd"))).scores == (2, 0)


def _deal() -> GameState:
    return apply_move(new_game(0), Deal((cards("Kc Qc Jc Tc 2h 3h"), cards("5s 5d 9s 8d 4c 6c"))))


DISCARDED = (Discard(0, cards("2h 3h")), Discard(1, cards("4c 6c")))
CUT = (*DISCARDED, Cut(one("7h")))
COUNT_27 = (*CUT, Play(1, one("9s")), Play(0, one("Kc")), Play(1, one("8d")))


@pytest.mark.parametrize(
    ("moves", "move", "rule", "named"),
    [
        ((), Play(1, one("5s")), "wrong_phase", "play"),
        ((), Discard(0, cards("5s 5d")), "not_in_hand", "5♠"),
        ((), Discard(0, cards("Kc")), "discard_two", "2"),
        ((), Discard(0, cards("Kc Kc")), "discard_two", "2"),
        (DISCARDED[:1], Discard(0, cards("Kc Qc")), "already_discarded", "player 1"),
        (DISCARDED, Cut(one("2h")), "starter_seen", "2♥"),
        (CUT, Play(0, one("Kc")), "not_your_turn", "player 2"),
        (CUT, Play(1, one("4c")), "not_in_hand", "4♣"),
        (CUT, Go(1), "must_play", "can be played"),
        (COUNT_27, Play(0, one("Qc")), "count_over_31", "37"),
        (COUNT_27, Count(), "wrong_phase", "pegging"),
    ],
)
def test_illegal_moves_name_the_rule(
    moves: tuple[Move, ...], move: Move, rule: str, named: str
) -> None:
    state = _deal()
    for earlier in moves:
        state = apply_move(state, earlier)
    with pytest.raises(IllegalMoveError) as info:
        apply_move(state, move)
    assert info.value.rule == rule
    assert named in str(info.value)
    assert info.value.message("fr").startswith("coup interdit")


@pytest.mark.parametrize(
    ("hands", "error"),
    [
        ((cards("Kc Qc Jc Tc 2h"), cards("5s 5d 9s 8d 4c 6c")), IllegalMoveError),
        ((cards("Kc Qc Jc Tc 2h 3h"), cards("5s 5d 9s 8d 4c Kc")), DuplicateCardError),
        ((cards("Kc Qc Jc Tc 2h *"), cards("5s 5d 9s 8d 4c 6c")), TableError),
    ],
)
def test_bad_deals_are_refused(
    hands: tuple[tuple[Card, ...], tuple[Card, ...]], error: type[Exception]
) -> None:
    with pytest.raises(error):
        apply_move(new_game(0), Deal(hands))


def test_legal_moves_by_phase() -> None:
    state = _deal()
    assert len(legal_moves(state)) == 2 * 15
    state = apply_move(state, Discard(0, cards("2h 3h")))
    assert {move.player for move in legal_moves(state) if isinstance(move, Discard)} == {1}
    state = apply_move(state, Discard(1, cards("4c 6c")))
    assert len(legal_moves(state)) == 52 - 12
    assert legal_moves(new_game(0)) == ()


def _random_game(rng: random.Random, first_dealer: int) -> tuple[GameState, int]:
    state = new_game(first_dealer)
    moves = 0
    while not state.is_terminal and moves < 2000:
        if state.phase == Phase.DEAL:
            dealt = rng.sample(DECK, 12)
            move: Move = Deal((tuple(dealt[:6]), tuple(dealt[6:])))
        else:
            options = legal_moves(state)
            move = rng.choice(options)
            check_move(state, move)
        before = state
        state = apply_move(state, move)
        moves += 1
        assert peg_count(state.count) <= PEG_LIMIT
        if state.phase == Phase.PEGGING and before.phase == Phase.PEGGING:
            assert len(remaining(state, 0)) + len(remaining(state, 1)) <= 8
    return state, moves


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([0, 1]))
def test_random_games_end_with_one_winner(rng: random.Random, first_dealer: int) -> None:
    state, moves = _random_game(rng, first_dealer)
    assert state.is_terminal and moves < 2000
    winner = state.winner
    assert winner is not None
    assert state.scores[winner] >= 121 > state.scores[1 - winner]
    for player in (0, 1):
        assert state.scores[player] == sum(e.points for e in state.events if e.player == player)


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False))
def test_referee_accepts_exactly_the_legal_plays(rng: random.Random) -> None:
    # Through one game, every play or go by either player is accepted iff legal_moves lists it.
    state = new_game(rng.choice([0, 1]))
    while not state.is_terminal:
        if state.phase == Phase.DEAL:
            dealt = rng.sample(DECK, 12)
            state = apply_move(state, Deal((tuple(dealt[:6]), tuple(dealt[6:]))))
            continue
        legal = set(legal_moves(state))
        if state.phase == Phase.PEGGING:
            candidates: list[Move] = [Go(0), Go(1)]
            candidates += [Play(p, card) for p in (0, 1) for card in state.hands[p] + state.crib]
            for move in candidates:
                try:
                    check_move(state, move)
                    accepted = True
                except IllegalMoveError:
                    accepted = False
                assert accepted == (move in legal), move
        state = apply_move(state, rng.choice(sorted(legal, key=repr)))
