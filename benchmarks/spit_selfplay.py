"""Spit random self-play: every variant's invariants over many games, and games per second.

Run (after `pip install -e .`, or with PYTHONPATH=.):
    python3 benchmarks/spit_selfplay.py [--games-per-variant N] [--seed S] [--no-probe-ratio]

Plays ``N`` games per variant (default 2,000, so 10,000 games over the five variants), each step
checked by ``companion.engine.spit.sim``: 52 cards conserved, no illegal move applied (a random
probe move per step must be refused exactly when it is not listed), and every game ending within
the move cap. Prints per-variant games/s and moves/s, and the cost of the probe checks as a ratio
against a run without them. Exits 1 when any invariant broke.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from companion.bench.cpu import describe_cpu
from companion.engine.spit import VARIANTS
from companion.engine.spit.sim import simulate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-variant", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--no-probe-ratio", action="store_true", help="skip the run without probe checks"
    )
    args = parser.parse_args()
    print(f"CPU: {describe_cpu()}")

    total_games = total_failures = 0
    total_seconds = 0.0
    print(
        f"{'variant':12} {'games':>6} {'moves/game':>10} {'longest':>8} {'rounds/game':>11} "
        f"{'games/s':>8} {'moves/s':>8} {'failures':>8}"
    )
    for name, rules in VARIANTS.items():
        start = time.perf_counter()
        report = simulate(rules, args.games_per_variant, random.Random(args.seed))
        seconds = time.perf_counter() - start
        total_games += report.games
        total_failures += len(report.failures)
        total_seconds += seconds
        print(
            f"{name:12} {report.games:6d} {report.moves / report.games:10.0f} "
            f"{report.longest:8d} {report.rounds / report.games:11.1f} "
            f"{report.games / seconds:8.1f} {report.moves / seconds:8.0f} "
            f"{len(report.failures):8d}"
        )
        for failure in report.failures[:3]:
            print(f"    game {failure.game} move {failure.move}: {failure.what}")
    print(
        f"{'all':12} {total_games:6d} games in {total_seconds:.1f} s: "
        f"{total_games / total_seconds:.1f} games/s, {total_failures} failures"
    )
    if not args.no_probe_ratio:
        # The same classic games with and without the per-step probe: what the checks cost.
        games = max(1, args.games_per_variant // 10)
        timings = []
        for probe in (True, False):
            start = time.perf_counter()
            simulate(VARIANTS["classic"], games, random.Random(args.seed), probe=probe)
            timings.append(time.perf_counter() - start)
        print(
            f"probe checks: {games} classic games {timings[0]:.2f} s with, {timings[1]:.2f} s "
            f"without; ratio {timings[0] / timings[1]:.2f}x"
        )
    return 1 if total_failures else 0


if __name__ == "__main__":
    sys.exit(main())
