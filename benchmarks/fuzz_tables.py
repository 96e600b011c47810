"""How many hostile tables ``companion showdown`` takes without a traceback (issue #17).

Run: ``python3 benchmarks/fuzz_tables.py [examples]`` (default 2000). Prints how many documents
were tried, how many gave a result and how many a one-line error, the time taken and the
process's peak memory. Any
traceback, or an error of more than one line, stops it with Hypothesis's smallest example.
"""

from __future__ import annotations

import resource
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from companion.bench.cpu import describe_cpu  # noqa: E402
from tests.formats.fuzzing import check_clean, documents  # noqa: E402


def main(examples: int) -> None:
    print(f"CPU: {describe_cpu()}")
    outcomes: Counter[str] = Counter()

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(documents)
    def fuzz(text: str) -> None:
        outcomes["result" if check_clean(text) else "error"] += 1

    start = time.perf_counter()
    fuzz()
    seconds = time.perf_counter() - start
    tried = sum(outcomes.values())
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"fuzzed {tried} documents in {seconds:.1f} s ({1000 * seconds / tried:.1f} ms each), "
        f"peak memory {peak_mb:.0f} MB: {outcomes['result']} results, "
        f"{outcomes['error']} one-line errors, 0 tracebacks"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
