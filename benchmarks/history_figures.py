"""How long History's pictures take to compute on a long log, against the stats it had before.

Run: ``python3 benchmarks/history_figures.py [nights]`` (default 200 nights, about 800 heists,
from ``tests/e2e/history_log.py``: classic and four-two-hands deals, every hand judged).
Prints CPU milliseconds for ``stats()`` (the reference, read in the same process), then
``figures()`` without a judge, with the engine's judge the first time (every deal judged) and
again (each deal's fits kept: a saved heist never changes), and a night's JSON export with its
judging; each as a ratio to ``stats()``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.bench.cpu import describe_cpu  # noqa: E402
from companion.formats.judging import judge_deal  # noqa: E402
from companion.storage import SqliteGameLog  # noqa: E402
from tests.e2e.history_log import seed_nights  # noqa: E402


def _cpu_ms(call: Callable[[], object]) -> float:
    start = time.process_time()
    call()
    return 1000 * (time.process_time() - start)


def main(nights: int) -> None:
    print(f"CPU: {describe_cpu()}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        seed_nights(folder, nights)
        with SqliteGameLog.in_folder(folder) as log:
            heists = sum(len(log.heists(s.night.id)) for s in log.list_nights())
            reference = _cpu_ms(log.stats)
            timings = {
                "figures, no judge": _cpu_ms(lambda: log.figures(None)),
                "figures, judged (first)": _cpu_ms(lambda: log.figures(judge_deal)),
                "figures, judged (again)": _cpu_ms(lambda: log.figures(judge_deal)),
                "a night's JSON with judging": _cpu_ms(lambda: log.export_json(1, judge_deal)),
            }
    print(f"{nights} nights, {heists} heists; stats(): {reference:.0f} ms CPU (reference)")
    for label, ms in timings.items():
        print(f"  {label}: {ms:.0f} ms CPU ({ms / reference:.1f}x stats)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
