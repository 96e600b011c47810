"""Heist replay speed: pre-flop for 6 players of the classic game, every one of the 658,008 boards.

    python3 benchmarks/replay_preflop.py [--repeat N] [--pkrbot-share F]

Prints, in one run and on the same table:
- the replay (``everyone_odds`` at pre-flop): its first call (which builds the lookup tables) and
  its best warm call, against the issue's 0.5 s target, with its peak traced memory;
- the same enumeration through ``evaluate_many`` per hand, without sharing the board's work;
- the same enumeration driven by a per-call loop of pkrbot (``pkrbot.evaluate`` on 7 cards, then
  the positions tallied in Python), on all boards or on a share of them scaled up, and the ratio;
- the flop and turn answers against the 50 ms target, and each street's whole ``street_odds``
  (both views and the best tokens).
The three pre-flop tallies are checked to agree exactly before any number is printed.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.bench.cpu import describe_cpu
from companion.engine.cards import parse_cards  # noqa: E402
from companion.engine.gang.batch_values import evaluate_many  # noqa: E402
from companion.engine.gang.replay.board_values import combinations_array, position_counts  # noqa: E402
from companion.engine.gang.replay.odds import Street, everyone_odds, street_odds  # noqa: E402
from companion.engine.gang.table import Player, Table  # noqa: E402

HOLES = ("As Kd", "2c 2d", "7h 8h", "Qc Jc", "3s 4s", "9d 9c")
BOARD = "Th Js 5c 6d Ah"
TARGET_PREFLOP_S = 0.5
TARGET_STREET_S = 0.05


def _table() -> Table:
    names = ("Ana", "Bob", "Cleo", "Dan", "Eve", "Fred")
    return Table(
        tuple(Player(n, parse_cards(h)) for n, h in zip(names, HOLES, strict=True)),
        parse_cards(BOARD),
    )


def _unseen(table: Table) -> np.ndarray:
    held = {c.id for p in table.players for c in p.cards}
    return np.array([i for i in range(52) if i not in held])


def _tally(odds: tuple) -> np.ndarray:  # type: ignore[type-arg]
    return np.array([h.positions for h in odds])


def _probabilities(counts: np.ndarray, total: int) -> np.ndarray:
    """P(position) per hand from counts of (weaker L, equal E) codes, ties split evenly."""
    n = counts.shape[0]
    result = np.zeros((n, n))
    for code in range(n * n):
        weaker, equal = divmod(code, n)
        result[:, weaker : weaker + equal + 1] += counts[:, code, None] / (equal + 1)
    return result / total


def _best(func, repeat: int) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def _per_hand_evaluate_many(table: Table) -> np.ndarray:
    """Positions from ``evaluate_many`` on (board + hole) rows, one call per hand."""
    boards = _unseen(table)[combinations_array(len(_unseen(table)), 5)]
    values = np.stack(
        [
            evaluate_many(
                np.column_stack([boards, np.tile([c.id for c in p.cards], (len(boards), 1))])
            )
            for p in table.players
        ],
        axis=1,
    )
    return position_counts(values)


def _pkrbot_loop(table: Table, share: float) -> tuple[float, np.ndarray, int]:
    """The enumeration driven by one ``pkrbot.evaluate`` call per hand and board."""
    import pkrbot

    ranks, suits = "23456789TJQKA", "shdc"
    card = [pkrbot.Card(ranks[i // 4] + suits[i % 4]) for i in range(52)]
    holes = [[card[c.id] for c in p.cards] for p in table.players]
    boards = combinations_array(len(_unseen(table)), 5)
    unseen = _unseen(table).tolist()
    step = max(1, round(1 / share))
    n = len(holes)
    counts = np.zeros((n, n * n))
    done = 0
    start = time.perf_counter()
    for row in boards[::step].tolist():
        board = [card[unseen[i]] for i in row]
        values = [pkrbot.evaluate(board + hole) for hole in holes]
        for h, v in enumerate(values):
            weaker = sum(w < v for w in values)
            equal = sum(w == v for w in values)
            counts[h, weaker * n + equal - 1] += 1
        done += 1
    return time.perf_counter() - start, counts, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="warm runs (the best counts)")
    parser.add_argument(
        "--pkrbot-share",
        type=float,
        default=1.0,
        help="share of the boards the pkrbot loop runs, scaled up (default all)",
    )
    args = parser.parse_args()
    print(f"CPU: {describe_cpu()}")
    table = _table()
    boards = len(combinations_array(len(_unseen(table)), 5))

    start = time.perf_counter()
    odds = everyone_odds(table, Street.PREFLOP)
    cold = time.perf_counter() - start
    warm, odds = _best(lambda: everyone_odds(table, Street.PREFLOP), args.repeat)
    tracemalloc.start()
    everyone_odds(table, Street.PREFLOP)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    many_s, counts = _best(lambda: _per_hand_evaluate_many(table), max(1, args.repeat // 2))
    pkrbot_s, pkrbot_counts, done = _pkrbot_loop(table, args.pkrbot_share)
    pkrbot_full_s = pkrbot_s * boards / done

    if not np.allclose(_tally(odds), _probabilities(counts, boards), atol=1e-12):  # type: ignore[arg-type]
        raise SystemExit("the replay and the evaluate_many loop disagree")
    if args.pkrbot_share >= 1 and not np.array_equal(pkrbot_counts, counts):
        raise SystemExit("the replay and the pkrbot loop disagree")

    print(f"pre-flop, 6 players, {boards:,} boards x 6 hands = {6 * boards:,} hands")
    print(
        f"  replay (shared board work)  first call {cold:.3f} s, best warm {warm:.3f} s "
        f"(target {TARGET_PREFLOP_S} s: {'met' if warm < TARGET_PREFLOP_S else 'MISSED'}), "
        f"peak traced memory {peak / 2**20:.0f} MiB"
    )
    print(f"  evaluate_many per hand      best {many_s:.3f} s")
    scaled = "" if done == boards else f" (ran {done:,} boards, scaled up)"
    print(
        f"  pkrbot per-call loop        {pkrbot_full_s:.3f} s{scaled}, "
        f"{6 * boards / pkrbot_full_s / 1e6:.2f} M hands/s"
    )
    print(f"  ratio pkrbot / replay       {pkrbot_full_s / warm:.1f}x (target at least 5x)")
    for street in (Street.FLOP, Street.TURN):
        everyone_odds(table, street)
        best, _ = _best(lambda street=street: everyone_odds(table, street), args.repeat)
        print(
            f"  {street.value:<5} answer                best {1000 * best:.1f} ms "
            f"(target {1000 * TARGET_STREET_S:.0f} ms: "
            f"{'met' if best < TARGET_STREET_S else 'MISSED'})"
        )
    for street in Street:
        best, odds = _best(
            lambda street=street: street_odds(table, street), max(1, args.repeat // 2)
        )
        own = odds.own[0].method
        print(
            f"  {street.value:<7} street_odds: both views (own: 6 x {own.count:,} samples), "
            f"best tokens {1000 * best:.0f} ms"
        )


if __name__ == "__main__":
    main()
