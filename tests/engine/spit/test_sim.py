from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.engine.spit import (
    VARIANTS,
    Deal,
    Move,
    Phase,
    Recycle,
    SpitState,
    apply_move,
    chance_move,
    check_move,
    is_terminal,
    legal_moves,
    new_game,
)
from companion.engine.spit.sim import (
    _probe_moves,
    check_cards,
    play_out,
    play_random_game,
    simulate,
)
from companion.errors import IllegalMoveError

NAMES = list(VARIANTS)


@pytest.mark.parametrize("name", NAMES)
def test_simulator_quick(name: str) -> None:
    report = simulate(VARIANTS[name], games=30, rng=random.Random(11))
    assert report.failures == ()
    assert report.games == 30 and sum(report.wins) == 30
    assert report.moves >= 30 * 20  # nobody wins without playing at least their 20+ cards


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_simulator_thousand_games_per_variant(name: str) -> None:
    report = simulate(VARIANTS[name], games=1000, rng=random.Random(2026))
    assert report.failures == (), report.failures[:3]
    assert sum(report.wins) == 1000
    # Both seats win often: a seat bias would point at an asymmetric rule.
    assert min(report.wins) > 400


def test_move_cap_is_a_failure_not_a_quiet_stop() -> None:
    record = play_random_game(VARIANTS["classic"], random.Random(1), max_moves=10)
    assert record.moves == 10 and record.winner is None
    assert [f.what for f in record.failures] == ["the game did not end within 10 moves"]


def test_check_cards_catches_a_lost_and_a_doubled_card() -> None:
    state = new_game(VARIANTS["classic"], random.Random(4))
    assert check_cards(state) is None
    p1 = state.players[0]
    lost = replace(p1, spit=p1.spit[1:])
    assert "51 cards" in str(check_cards(replace(state, players=(lost, state.players[1]))))
    doubled = replace(p1, spit=p1.spit[1:] + p1.spit[1:2])
    problem = check_cards(replace(state, players=(doubled, state.players[1])))
    assert problem is not None and "52 cards in play, 51 distinct" in problem


def test_play_out_from_a_position_reaches_the_end() -> None:
    state = new_game(VARIANTS["speed"], random.Random(9))
    final, record = play_out(state, random.Random(9))
    assert is_terminal(final) and record.failures == ()
    assert final.winner == record.winner


class SpitMachine(RuleBasedStateMachine):
    """Random legal moves, random probes and shuffles drawn by Hypothesis."""

    state: SpitState

    @initialize(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32 - 1))
    def deal(self, name: str, seed: int) -> None:
        self.state = new_game(VARIANTS[name], random.Random(seed))
        self.probes = _probe_moves(self.state.rules)

    @precondition(lambda self: self.state.phase in (Phase.PLAY, Phase.TAKE))
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        moves = legal_moves(self.state)
        self.state = apply_move(self.state, data.draw(st.sampled_from(moves)))

    @rule(steps=st.integers(1, 150), seed=st.integers(0, 2**16))
    def play_on(self, steps: int, seed: int) -> None:
        # Bursts of random play reach new layouts, Speed's recycling and the end of games.
        rng = random.Random(seed)
        for _ in range(steps):
            if self.state.phase is Phase.OVER:
                return
            if self.state.phase in (Phase.DEAL, Phase.RECYCLE):
                move = chance_move(self.state, rng)
            else:
                move = rng.choice(legal_moves(self.state))
            self.state = apply_move(self.state, move)

    @precondition(lambda self: self.state.phase is Phase.DEAL)
    @rule(data=st.data())
    def shuffle_and_deal(self, data: st.DataObject) -> None:
        orders = tuple(data.draw(st.permutations(cards)) for cards in self.state.gathered)
        self.state = apply_move(self.state, Deal((tuple(orders[0]), tuple(orders[1]))))

    @precondition(lambda self: self.state.phase is Phase.RECYCLE)
    @rule(data=st.data())
    def recycle(self, data: st.DataObject) -> None:
        under = self.state.piles[0][:-1] + self.state.piles[1][:-1]
        self.state = apply_move(self.state, Recycle(tuple(data.draw(st.permutations(under)))))

    @rule(data=st.data())
    def illegal_move_is_refused(self, data: st.DataObject) -> None:
        move: Move = data.draw(st.sampled_from(self.probes))
        if move in legal_moves(self.state):
            check_move(self.state, move)
            return
        before = self.state
        try:
            apply_move(self.state, move)
        except IllegalMoveError:
            assert self.state == before
        else:
            raise AssertionError(f"{move} was applied though it is not legal")

    @invariant()
    def cards_are_conserved(self) -> None:
        event(f"phase {self.state.phase.value}")
        assert check_cards(self.state) is None

    @invariant()
    def never_a_dead_end(self) -> None:
        if self.state.phase in (Phase.PLAY, Phase.TAKE):
            assert legal_moves(self.state)
        assert (self.state.phase is Phase.OVER) == (self.state.winner is not None)

    def teardown(self) -> None:
        # Every game ends: from wherever the steps stopped, random play reaches a winner.
        if hasattr(self, "state"):
            final, record = play_out(self.state, random.Random(0), probe=False)
            assert record.failures == () and is_terminal(final)


SpitMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=60, deadline=None)
test_spit_machine = SpitMachine.TestCase
