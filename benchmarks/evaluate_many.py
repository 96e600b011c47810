"""Throughput of ``companion.engine.gang.batch_values.evaluate_many`` against a per-call loop of
pkrbot, and of ``evaluate_many(hands, rules)`` (``evaluate_rules``) under the lowball rankings
against a per-call loop of pokerkit.

pkrbot (a compiled evaluator, eval7's API) is the fastest Python hand evaluator we found on PyPI;
it has no lowball. For ``--ranking low-a5`` / ``low-27`` the reference is pokerkit
(``RegularLowHand``: ace-to-five, ``StandardLowHand``: deuce-to-seven), the only lowball
evaluator we found there (pure Python; ``pip install -e ".[bench]"``). Both sides evaluate the same
random hands in the same process; the best of several repeats is kept for each, since the machine
is shared. Prints both throughputs and the ratio; also checks that both order the hands
identically, ties included.

    python3 benchmarks/evaluate_many.py [--hands N] [--size 5|6|7] [--ranking high|low-a5|low-27]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import pkrbot

from companion.bench.cpu import describe_cpu
from companion.engine.gang.batch_values import evaluate_many, evaluate_rules
from companion.engine.gang.ranking import Ranking, TableRules

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
    parser.add_argument("--ranking", choices=[r.value for r in Ranking], default="high")
    args = parser.parse_args()
    print(f"CPU: {describe_cpu()}")
    if args.ranking != "high":
        _low(args.hands, args.size, Ranking(args.ranking), args.repeats)
        return

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


def _low(n: int, size: int, ranking: Ranking, repeats: int) -> None:
    """``evaluate_rules`` against pokerkit's lowball hands (its ``from_game`` for 6-7 cards)."""
    import pokerkit

    hand_class = pokerkit.RegularLowHand if ranking is Ranking.LOW_A5 else pokerkit.StandardLowHand
    rules = TableRules(ranking=ranking)
    rng = np.random.default_rng(2026)
    hands = np.ascontiguousarray(np.argsort(rng.random((n, 52)), axis=1)[:, :size])
    start = time.perf_counter()
    evaluate_many(hands[:1], rules)
    print(f"table build (first call): {time.perf_counter() - start:.3f} s")
    texts = ["".join(NAMES[i] for i in row) for row in hands.tolist()]
    make = hand_class if size == 5 else hand_class.from_game
    theirs: list[object] = []

    def loop() -> None:
        theirs.clear()
        theirs.extend(make(text) for text in texts)

    ours_s = theirs_s = float("inf")
    for k in range(repeats):
        ours_s = min(ours_s, timed(lambda: evaluate_many(hands, rules)))
        if k < 2:  # pure Python: two runs are enough for its best
            theirs_s = min(theirs_s, timed(loop))
    ours_rate, theirs_rate = n / ours_s, n / theirs_s
    print(f"{n:,} random {size}-card hands, {ranking.value}")
    for name, rate in (("evaluate_many", ours_rate), ("pokerkit per-call loop", theirs_rate)):
        print(f"{name:22}: {rate / 1e6:8.3f} M hands/s ({1e9 / rate:.0f} ns/hand)")
    print(f"ratio                 : {ours_rate / theirs_rate:8.1f}x")
    ours = evaluate_many(hands, rules)
    assert np.array_equal(ours, evaluate_rules(hands, rules))
    order = np.argsort(ours, kind="stable")
    same = all(
        (theirs[a] < theirs[b]) == (ours[a] < ours[b])  # type: ignore[operator]
        and (theirs[a] == theirs[b]) == (ours[a] == ours[b])
        for a, b in zip(order[:-1].tolist(), order[1:].tolist(), strict=True)
    )
    print(f"same order and ties as pokerkit: {same}")


if __name__ == "__main__":
    main()
