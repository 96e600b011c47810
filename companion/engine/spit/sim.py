"""Random Spit self-play that checks the engine's invariants as it goes.

Each step picks a legal move uniformly among both players' moves (the chance moves shuffle with
the injected ``random.Random``) and checks that:

- the 52 cards of the deck are all there, each once;
- the chosen move passes ``check_move`` and is applied, and a probe move drawn from every
  possible move is refused by ``check_move`` exactly when ``legal_moves`` leaves it out (so an
  illegal move can never be applied);
- a position that is not over always has a legal move;
- the game ends within ``max_moves`` moves: reaching the cap is a failure, not a quiet stop.

>>> from companion.engine.spit import VARIANTS
>>> report = simulate(VARIANTS["classic"], games=3, rng=random.Random(1))
>>> report.games, report.failures
(3, ())
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from companion.engine.cards import DECK
from companion.engine.spit import (
    Move,
    Phase,
    Play,
    Shift,
    Spit,
    SpitRules,
    SpitState,
    Take,
    Turn,
    all_cards,
    apply_move,
    chance_move,
    check_move,
    legal_moves,
    new_game,
    speed_points,
)
from companion.errors import IllegalMoveError

__all__ = [
    "check_cards",
    "play_out",
    "Failure",
    "GameRecord",
    "SimulationReport",
    "play_random_game",
    "simulate",
    "DEFAULT_MAX_MOVES",
]

# Far above the longest games seen (see benchmarks/spit_selfplay.py), so hitting it means a loop.
DEFAULT_MAX_MOVES = 50_000

_DECK_SET = frozenset(DECK)
_DECK_IDS = {id(card) for card in DECK}


@dataclass(frozen=True, slots=True)
class Failure:
    """A broken invariant: which game, after how many moves, and what."""

    game: int
    move: int
    what: str


@dataclass(frozen=True, slots=True)
class GameRecord:
    moves: int
    rounds: int
    winner: int | None
    failures: tuple[Failure, ...]


@dataclass(frozen=True, slots=True)
class SimulationReport:
    rules: SpitRules
    games: int
    moves: int
    rounds: int
    wins: tuple[int, int]
    longest: int
    failures: tuple[Failure, ...]
    points: tuple[int, int] = (0, 0)  # Speed: each player's points over the games


def _probe_moves(rules: SpitRules) -> tuple[Move, ...]:
    """Every player move and joint move, plus a few out of range, to test the checker with."""
    n = rules.stock_piles
    moves: list[Move] = [Spit(), Spit(0), Spit(1), Spit(2)]
    for p in (0, 1):
        moves += [Play(p, s, pile) for s in range(n + 1) for pile in range(3)]
        moves += [Turn(p, s) for s in range(n + 1)]
        moves += [Shift(p, a, b) for a in range(n) for b in range(n + 1)]
        moves += [Take(p, pile) for pile in range(3)]
    return tuple(moves)


def check_cards(state: SpitState) -> str | None:
    """None when the position holds the 52 cards of the deck, each once; else what is wrong."""
    cards = all_cards(state)
    # Fast path: the engine only moves the deck's own card objects, so 52 distinct DECK objects
    # prove the deck is whole; anything else gets the full check by value.
    if len(cards) == 52 and {id(card) for card in cards} == _DECK_IDS:
        return None
    if len(cards) != 52 or frozenset(cards) != _DECK_SET:
        distinct = len(set(cards))
        return f"{len(cards)} cards in play, {distinct} distinct; expected the 52 of the deck"
    return None


def play_out(
    state: SpitState,
    rng: random.Random,
    max_moves: int = DEFAULT_MAX_MOVES,
    game: int = 0,
    probe: bool = True,
) -> tuple[SpitState, GameRecord]:
    """Play on from ``state`` with uniformly random legal moves, checking the invariants."""
    probes = _probe_moves(state.rules)
    failures: list[Failure] = []
    count = 0

    def fail(what: str) -> tuple[SpitState, GameRecord]:
        failures.append(Failure(game, count, what))
        return state, GameRecord(count, state.round, state.winner, tuple(failures))

    while state.phase is not Phase.OVER:
        if count >= max_moves:
            return fail(f"the game did not end within {max_moves} moves")
        if state.phase in (Phase.DEAL, Phase.RECYCLE):
            move = chance_move(state, rng)
        else:
            moves = legal_moves(state)
            if not moves:
                return fail(f"no legal move in phase {state.phase.value}")
            move = moves[rng.randrange(len(moves))]
            if probe:
                candidate = probes[rng.randrange(len(probes))]
                problem = _disagreement(state, candidate, candidate in moves)
                if problem is not None:
                    return fail(problem)
        try:
            state = apply_move(state, move)
        except IllegalMoveError as error:
            return fail(f"legal move {move} refused: {error.rule}")
        count += 1
        problem = check_cards(state)
        if problem is not None:
            return fail(f"after {move}: {problem}")
    return state, GameRecord(count, state.round, state.winner, tuple(failures))


def _disagreement(state: SpitState, candidate: Move, listed: bool) -> str | None:
    try:
        check_move(state, candidate)
    except IllegalMoveError as error:
        return (
            f"{candidate} is listed as legal but check_move says {error.rule}" if listed else None
        )
    return None if listed else f"{candidate} is not listed as legal but check_move accepts it"


def play_random_game(
    rules: SpitRules,
    rng: random.Random,
    max_moves: int = DEFAULT_MAX_MOVES,
    game: int = 0,
    probe: bool = True,
) -> GameRecord:
    """Deal a game and play it out at random, checking the invariants at every step."""
    return play_out(new_game(rules, rng), rng, max_moves, game, probe)[1]


def simulate(
    rules: SpitRules,
    games: int,
    rng: random.Random,
    max_moves: int = DEFAULT_MAX_MOVES,
    probe: bool = True,
    played: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play ``games`` random games and gather their failures and sizes; ``played`` is told
    how many games are done after each one."""
    moves = rounds = longest = 0
    wins = [0, 0]
    points = [0, 0]
    failures: list[Failure] = []
    for game in range(games):
        end, record = play_out(new_game(rules, rng), rng, max_moves, game, probe)
        points = [total + won for total, won in zip(points, speed_points(end), strict=True)]
        moves += record.moves
        rounds += record.rounds
        longest = max(longest, record.moves)
        if record.winner is not None:
            wins[record.winner] += 1
        failures.extend(record.failures)
        if played is not None:
            played(game + 1)
    return SimulationReport(
        rules,
        games,
        moves,
        rounds,
        (wins[0], wins[1]),
        longest,
        tuple(failures),
        (points[0], points[1]),
    )
