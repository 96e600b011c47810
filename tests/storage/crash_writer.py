"""Saves heists into a game log until killed (or ``limit`` heists); prints each saved heist.

Run by the storage tests as ``python -m tests.storage.crash_writer DB SEED [LIMIT]``. A printed
line ``id night number photo`` is a promise: that heist is saved.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.storage import NightFinishedError, SqliteGameLog
from tests.storage.builders import heist


def main(path: str, seed: str, limit: int) -> None:
    log = SqliteGameLog(Path(path))
    count = 0
    while not limit or count < limit:
        status = log.resume_night()
        night_id = (
            status.night.id if status else log.start_night(("Ann", "Bob", "Cy"), "classic").id
        )
        # Photos big enough that a kill can land in the middle of writing one.
        photo = log.store_photo(f"photo {seed} {count} ".encode() * 4000)
        try:
            saved = log.save_heist(night_id, heist(count % 3 != 0, photo=photo))
        except NightFinishedError:
            continue  # another writer ended this night meanwhile: pick up the next one
        print(saved.id, saved.night_id, saved.number, photo, flush=True)
        count += 1
    log.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
