"""Saves heists into a game log until killed; prints each heist once it is committed.

Run by ``test_crash.py`` as ``python -m tests.storage.crash_writer DB SEED``. A printed line
``id night number photo`` is a promise: that heist is saved.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.storage import SqliteGameLog
from tests.storage.builders import heist


def main(path: str, seed: str) -> None:
    log = SqliteGameLog(Path(path))
    count = 0
    while True:
        status = log.resume_night()
        night_id = (
            status.night.id if status else log.start_night(("Ann", "Bob", "Cy"), "classic").id
        )
        # Photos big enough that a kill can land in the middle of writing one.
        photo = log.store_photo(f"photo {seed} {count} ".encode() * 4000)
        saved = log.save_heist(night_id, heist(count % 3 != 0, photo=photo))
        print(saved.id, saved.night_id, saved.number, photo, flush=True)
        count += 1


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
