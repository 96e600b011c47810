"""Game logs written by older releases of Companion, as they wrote them: the files in
``tests/fixtures/logs/`` were made by the storage code of an older commit of this repository,
run unchanged (``git archive`` of that commit, imported from there).

Regenerate them (a git checkout with its history is needed; the tests themselves only read the
files): ``python -m tests.storage.old_logs``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

__all__ = ["FIXTURES", "V5_COMMIT", "V5_LOG", "copy_of"]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
# The last commit whose log was at schema version 5 (migration 6 came with fed17cb).
V5_COMMIT = "3245644316ac2d4f66101ee56ea387349060b35f"
V5_LOG = FIXTURES / "v5-3245644.sqlite3"

# Run inside the old commit's tree: two nights, one heist whose deal gives each hand as one
# string (the table format allows ``"cards": "Ks 7s"``), one with lists, one in a split variant.
_V5_SCRIPT = """
import sys
from datetime import UTC, datetime, timedelta
from companion.storage import HeistDraft, SqliteGameLog, Verdict

start = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
ticks = iter(start + timedelta(minutes=k) for k in range(1000))
river = ("As", "Kd", "Qh", "7c", "2s")
with SqliteGameLog(sys.argv[1], clock=lambda: next(ticks)) as log:
    night = log.start_night(["Ana", "Bob", "Chloé"], "classic", rules={"decks": 1})
    as_text = {
        "variant": "classic", "board": "As Kd Qh 7c 2s",
        "players": [{"name": "Ana", "cards": "Ks 7s"}, {"name": "Bob", "cards": "Jh 3d"},
                    {"name": "Chloé", "cards": "9c 9d"}],
    }
    log.save_heist(night.id, HeistDraft(
        river=river, hands={"Ana": ("Ks",), "Bob": ("Jh",), "Chloé": ("9c", "9d")},
        owners={"Ana": "Ana", "Bob": "Bob", "Chloé": "Chloé"},
        tokens={"Ana": 3, "Bob": 1, "Chloé": 2}, verdict=Verdict(True), deal=as_text))
    as_lists = {
        "variant": "classic", "board": list(river),
        "players": [{"name": "Ana", "cards": ["Th", "5s"]}, {"name": "Bob", "cards": ["Jc", "3h"]},
                    {"name": "Chloé", "cards": ["8c", "8d"]}],
    }
    log.save_heist(night.id, HeistDraft(
        river=river, hands={"Ana": ("Th",), "Bob": ("Jc",), "Chloé": ("8c", "8d")},
        owners={"Ana": "Ana", "Bob": "Bob", "Chloé": "Chloé"},
        tokens={"Ana": 1, "Bob": 2, "Chloé": 3}, verdict=Verdict(False, ({"rule": "order"},)),
        deal=as_lists))
    split = log.start_night(["Ana", "Bob"], "four-two-hands")
    log.save_heist(split.id, HeistDraft(
        river=river, hands={"Ana/1": ("Ah", "Ad"), "Ana/2": ("9c", "9d")},
        owners={"Ana/1": "Ana", "Ana/2": "Ana"}, tokens={"Ana/1": 2, "Ana/2": 1},
        verdict=Verdict(True),
        deal={"variant": "four-two-hands", "board": list(river),
              "players": [{"name": "Ana", "cards": "Ah Ad 9c 9d"}]}))
    log.close_night(split.id)
"""


def _run_at(commit: str, script: str, out: Path) -> None:
    """``script`` run with ``companion`` imported from ``commit``'s tree, given ``out``."""
    root = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory() as tree:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", commit, "companion"],
            check=True,
            capture_output=True,
        ).stdout
        with tempfile.TemporaryFile() as file:
            file.write(archive)
            file.seek(0)
            with tarfile.open(fileobj=file) as tar:
                tar.extractall(tree, filter="data")
        out.unlink(missing_ok=True)
        subprocess.run(
            [sys.executable, "-c", script, str(out)],
            check=True,
            cwd=tree,
            env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin"},
        )
    for side in out.parent.glob(out.name + "-*"):
        side.unlink()
    photos = out.parent / "photos"
    if photos.is_dir() and not any(photos.iterdir()):
        photos.rmdir()


def copy_of(fixture: Path, folder: Path) -> Path:
    """The fixture copied into ``folder`` as the log's own name (tests never touch the original)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "companion.sqlite3"
    shutil.copyfile(fixture, target)
    return target


if __name__ == "__main__":
    FIXTURES.mkdir(parents=True, exist_ok=True)
    _run_at(V5_COMMIT, _V5_SCRIPT, V5_LOG)
    print(f"wrote {V5_LOG} ({V5_LOG.stat().st_size} bytes)")
