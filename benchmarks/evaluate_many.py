"""Throughput of ``companion.engine.evaluate_many`` against a per-call loop of pkrbot.

pkrbot (a compiled evaluator, eval7's API) is the fastest Python hand evaluator we found on PyPI.
Both evaluate the same random 7-card hands in the same process; the best of several repeats is
kept for each, since the machine is shared. Prints both throughputs and the ratio; also checks
that both order the hands identically.

    python3 benchmarks/evaluate_many.py [--hands N] [--size 5|6|7]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import pkrbot

from companion.engine import evaluate_many

NAMES = [rank + suit for rank in "23456789TJQKA" for suit in "shdc"]


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--size", type=int, default=7, choices=(5, 6, 7))
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    rng = np.random.default_rng(2026)
    # A compact (N, size) array, as callers hold hands; pkrbot gets its Card lists ready-made too.
    hands = np.ascontiguousarray(np.argsort(rng.random((args.hands, 52)), axis=1)[:, : args.size])
    start = time.perf_counter()
    evaluate_many(hands[:1])
    print(f"table build (first call): {time.perf_counter() - start:.3f} s")

    deck = [pkrbot.Card(name) for name in NAMES]
    card_lists = [[deck[i] for i in row] for row in hands.tolist()]
    evaluate = pkrbot.evaluate

    def loop() -> None:
        for cards in card_lists:
            evaluate(cards)

    # Interleaved repeats, best of each: both sides see the same moments of a noisy machine.
    ours_s = theirs_s = float("inf")
    for _ in range(args.repeats):
        ours_s = min(ours_s, timed(lambda: evaluate_many(hands)))
        theirs_s = min(theirs_s, timed(loop))
    ours_rate, theirs_rate = args.hands / ours_s, args.hands / theirs_s
    print(f"{args.hands:,} random {args.size}-card hands")
    for name, rate in (("evaluate_many", ours_rate), ("pkrbot per-call loop", theirs_rate)):
        print(f"{name:20}: {rate / 1e6:8.2f} M hands/s ({1e9 / rate:.0f} ns/hand)")
    print(f"ratio               : {ours_rate / theirs_rate:8.2f}x")

    ours = evaluate_many(hands)
    theirs = np.array([evaluate(cards) for cards in card_lists])
    order = np.lexsort((theirs, ours))
    same = bool(np.all(np.diff(theirs[order]) >= 0)) and bool(
        np.array_equal(np.diff(ours[order]) == 0, np.diff(theirs[order]) == 0)
    )
    print(f"same order and ties as pkrbot: {same}")


if __name__ == "__main__":
    main()
