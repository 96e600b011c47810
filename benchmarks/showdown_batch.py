"""How long ``companion showdown`` takes on a large batch, and its peak memory (issue #17).

Run: ``python3 benchmarks/showdown_batch.py [tables]`` (default 10,000 random classic tables of
2-6 players, one in ten with a wild card). Prints seconds and peak resident memory of the
command, run as players run it (a separate process reading the batch from a file).
Reference before #17 (2 shared cores): 22-33 s and 265-315 MB for 10,000 tables.
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.bench.cpu import describe_cpu

ROOT = Path(__file__).resolve().parents[1]
CODES = [r + s for r in "23456789TJQKA" for s in "shdc"]


def tables(count: int, seed: int = 17) -> list[dict[str, object]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(2, 6)
        cards = rng.sample(CODES, 5 + 2 * n)
        if rng.random() < 0.1:
            cards[rng.randrange(len(cards))] = "*"
        players = [{"name": f"P{i}", "cards": cards[5 + 2 * i : 7 + 2 * i]} for i in range(n)]
        order = list(range(1, n + 1))
        rng.shuffle(order)
        out.append(
            {
                "board": cards[:5],
                "players": players,
                "tokens": {f"P{i}": t for i, t in enumerate(order)},
            }
        )
    return out


def main(count: int) -> None:
    print(f"CPU: {describe_cpu()}")
    with tempfile.TemporaryDirectory() as folder:
        batch = Path(folder) / "batch.json"
        batch.write_text(json.dumps(tables(count)))
        # The checkout measured: this one, or the one PYTHONPATH names (to compare two).
        checkout = os.environ.get("PYTHONPATH", str(ROOT))
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "companion", "showdown", str(batch), "--json"],
            check=True,
            stdout=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": checkout},
            cwd=checkout,
        )
        seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"showdown on {count} tables: {seconds:.1f} s, peak {peak_mb:.0f} MB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
