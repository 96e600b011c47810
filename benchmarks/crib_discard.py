"""Discard advisor speed: the issue asks for under 1 s per deal (15 discards, exact crib).

    python3 benchmarks/crib_discard.py [--deals N] [--seed S]

Prints the first call (which builds the lookup tables), then warm calls over random deals, and
how long the itemized scorer would take for the same 15 x 45,540 cribs, as a ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.bench.cpu import describe_cpu
from companion.engine.cards import DECK  # noqa: E402
from companion.engine.cribbage.discard import advise_discard  # noqa: E402
from companion.engine.cribbage.score import score_show  # noqa: E402

BUDGET_S = 1.0
CRIBS_PER_DEAL = 15 * 1035 * 44


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    print(f"CPU: {describe_cpu()}")
    rng = random.Random(args.seed)
    deals = [tuple(rng.sample(DECK, 6)) for _ in range(args.deals)]

    start = time.perf_counter()
    advise_discard(deals[0], dealer=True)
    cold = time.perf_counter() - start

    warm = []
    for index, dealt in enumerate(deals):
        start = time.perf_counter()
        advise_discard(dealt, dealer=index % 2 == 0)
        warm.append(time.perf_counter() - start)

    sample = [tuple(rng.sample(DECK, 5)) for _ in range(3000)]
    start = time.perf_counter()
    for five in sample:
        score_show(five[:4], five[4], crib=True)
    itemized = (time.perf_counter() - start) / len(sample) * CRIBS_PER_DEAL

    print(f"cribs scored per deal: {CRIBS_PER_DEAL:,} (+ {15 * 46} hands)")
    print(f"first call (builds tables): {cold:.3f} s  ({cold / BUDGET_S:.2f} of the 1 s budget)")
    print(
        f"warm, {len(warm)} deals: mean {statistics.mean(warm):.3f} s, "
        f"max {max(warm):.3f} s  ({max(warm) / BUDGET_S:.2f} of the budget)"
    )
    print(
        f"itemized scorer for the same cribs (estimated from {len(sample)}): {itemized:.1f} s, "
        f"{itemized / statistics.mean(warm):.0f}x slower than the warm advisor"
    )


if __name__ == "__main__":
    main()
