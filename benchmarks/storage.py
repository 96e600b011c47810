"""How fast the game log saves, opens, and answers the history screen.

Run: ``python3 benchmarks/storage.py [nights]`` (default 200 nights of 5 heists). Prints
milliseconds per operation and the ratio of a saved heist to a bare SQLite insert+commit
under the same durability settings (WAL, synchronous=FULL).
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.bench.cpu import describe_cpu  # noqa: E402
from companion.storage import SqliteGameLog  # noqa: E402
from tests.storage.builders import heist  # noqa: E402


def _ms(seconds: float, count: int) -> float:
    return 1000 * seconds / count


def bare_insert_ms(folder: Path, count: int) -> float:
    conn = sqlite3.connect(folder / "bare.sqlite3", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
    body = "x" * 400  # about the size of a heist row
    start = time.perf_counter()
    for _ in range(count):
        with conn:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t (body) VALUES (?)", (body,))
    elapsed = time.perf_counter() - start
    conn.close()
    return _ms(elapsed, count)


def main(nights: int) -> None:
    print(f"CPU: {describe_cpu()}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "companion.sqlite3"
        log = SqliteGameLog(path)
        start = time.perf_counter()
        for index in range(nights):
            night = log.start_night(("Ann", "Bob", "Cy"), ("classic", "low")[index % 2])
            for result in "VAVAV":
                log.save_heist(night.id, heist(result == "V"))
        saved = time.perf_counter() - start
        count = nights * 5
        photo_start = time.perf_counter()
        for index in range(50):
            log.store_photo(bytes([index % 256]) * 2_000_000)  # a 2 MB phone photo
        photo = _ms(time.perf_counter() - photo_start, 50)
        log.close()

        start = time.perf_counter()
        log = SqliteGameLog(path)
        opened = time.perf_counter() - start
        timings = {}
        for label, call in (
            ("list_nights", log.list_nights),
            ("stats", log.stats),
            ("export_json", log.export_json),
            ("export_csv", log.export_csv),
        ):
            start = time.perf_counter()
            call()
            timings[label] = time.perf_counter() - start
        log.close()
        bare = bare_insert_ms(folder, 200)

    per_heist = _ms(saved, count)
    print(f"{nights} nights, {count} heists (WAL, synchronous=FULL)")
    print(f"save_heist          {per_heist:8.2f} ms/heist (nights started included)")
    print(f"bare insert+commit  {bare:8.2f} ms/row")
    print(f"ratio save/bare     {per_heist / bare:8.2f}")
    print(f"store_photo 2 MB    {photo:8.2f} ms/photo")
    print(f"open (checks)       {1000 * opened:8.2f} ms")
    for label, seconds in timings.items():
        print(f"{label:<19} {1000 * seconds:8.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
