"""How many hostile tables ``companion showdown`` takes without a traceback (issue #17), and how
many damaged heists of an older log ``companion log`` reads (#53).

Run: ``python3 benchmarks/fuzz_tables.py [examples]`` (default 2000). Prints how many documents
were tried, how many gave a result and how many a one-line error, the time taken and the
process's peak memory; then, for a tenth as many damaged heists of a version-5 log, how many
were read whole, named and left out, or stopped the upgrade in one line. Any traceback, or an
error of more than one line, stops it with Hypothesis's smallest example.
"""

from __future__ import annotations

import resource
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from companion.bench.cpu import describe_cpu  # noqa: E402
from tests.formats.fuzzing import check_clean, documents  # noqa: E402
from tests.storage.fuzzing import check_log, row  # noqa: E402


def fuzzed(strategy: Any, check: Callable[[Any], str], examples: int) -> tuple[Counter[str], float]:
    """How many examples of ``strategy`` ``check`` put in each outcome, and the seconds taken."""
    outcomes: Counter[str] = Counter()

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def fuzz(example: Any) -> None:
        outcomes[check(example)] += 1

    start = time.perf_counter()
    fuzz()
    return outcomes, time.perf_counter() - start


def main(examples: int) -> None:
    print(f"CPU: {describe_cpu()}")
    outcomes, seconds = fuzzed(
        documents, lambda text: "result" if check_clean(text) else "error", examples
    )
    tried = sum(outcomes.values())
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"fuzzed {tried} documents in {seconds:.1f} s ({1000 * seconds / tried:.1f} ms each), "
        f"peak memory {peak_mb:.0f} MB: {outcomes['result']} results, "
        f"{outcomes['error']} one-line errors, 0 tracebacks"
    )
    # A heist of a version-5 log damaged every way (#53): named, or its upgrade refused.
    heists, seconds = fuzzed(row, lambda columns: check_log(*columns), max(examples // 10, 10))
    print(
        f"fuzzed {sum(heists.values())} damaged heists of a version-5 log in {seconds:.1f} s: "
        f"{heists['clean']} read whole, {heists['named']} named and left out, "
        f"{heists['refused']} upgrades refused in one line, 0 tracebacks"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
