"""The test suite's memory and time, test by test: a pytest plugin.

Run: ``PYTHONPATH=benchmarks SUITE_LOG=suite.tsv /usr/bin/time -v python3 -m pytest
-p no:cacheprovider -p suite_memory`` (``/usr/bin/time -v``: the run's peak resident memory and
CPU seconds).
Writes one line per test: its id, wall seconds, CPU seconds (the process and its finished
children), resident MB after it, the process's peak MB so far, and the 1-minute load average, so
that a shared machine's load can be read beside each figure. A test whose resident MB stays up
after it holds memory for the rest of the run; compare CPU seconds, not wall seconds, between
runs on a loaded machine. The first line names the CPU.
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path
from typing import TextIO

import pytest

from companion.bench.cpu import describe_cpu

_started: dict[str, tuple[float, float]] = {}
_log: list[TextIO] = []


def _resident_mb() -> int:
    for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return -1


def _cpu_s() -> float:
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_configure(config: pytest.Config) -> None:
    log = open(os.environ.get("SUITE_LOG", "suite.tsv"), "w", encoding="utf-8", buffering=1)
    log.write(f"# {describe_cpu()}\n# test\twall_s\tcpu_s\tresident_mb\tpeak_mb\tload\n")
    _log.append(log)


def pytest_runtest_setup(item: pytest.Item) -> None:
    _started[item.nodeid] = (time.perf_counter(), _cpu_s())


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    wall, cpu = _started.pop(nodeid, (time.perf_counter(), _cpu_s()))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    _log[0].write(
        f"{nodeid}\t{time.perf_counter() - wall:.2f}\t{_cpu_s() - cpu:.2f}\t{_resident_mb()}"
        f"\t{peak}\t{os.getloadavg()[0]:.2f}\n"
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    while _log:
        _log.pop().close()
