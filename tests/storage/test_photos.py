from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from companion.storage import OutsideDataFolderError, PhotoStore, SqliteGameLog
from companion.storage.photos import image_type
from tests.storage.builders import heist

JPEG = b"\xff\xd8\xff\xe0 pretend table photo \xff\xd9"


@pytest.fixture
def store(tmp_path: Path) -> PhotoStore:
    return PhotoStore(tmp_path / "data")


def test_photo_is_named_by_its_hash_and_stored_once(store: PhotoStore) -> None:
    ref = store.put(JPEG)
    assert ref == hashlib.sha256(JPEG).hexdigest()
    assert store.put(JPEG) == ref
    assert store.path(ref) == store.folder / ref and store.read(ref) == JPEG
    assert sorted(p.name for p in store.folder.iterdir()) == [ref]
    other = store.put(b"another photo")
    assert store.refs() == {ref, other}


def test_a_half_written_photo_is_rewritten(store: PhotoStore) -> None:
    ref = hashlib.sha256(JPEG).hexdigest()
    (store.folder / ref).write_bytes(JPEG[:5])
    assert store.put(JPEG) == ref and store.read(ref) == JPEG


@pytest.mark.parametrize(
    "ref",
    ["../companion.sqlite3", "/etc/passwd", "", "A" * 64, "0" * 63, "0" * 64 + "/..", "g" * 64],
)
def test_only_plain_hashes_name_a_photo(store: PhotoStore, ref: str) -> None:
    with pytest.raises(OutsideDataFolderError):
        store.path(ref)


def test_a_link_out_of_the_data_folder_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", data / "photos")
    with pytest.raises(OutsideDataFolderError, match="elsewhere"):
        PhotoStore(data)


def test_log_keeps_photos_beside_the_database(tmp_path: Path) -> None:
    path = tmp_path / "data" / "companion.sqlite3"
    with SqliteGameLog(path) as log:
        night = log.start_night(("Ann", "Bob", "Cy"), "classic")
        kept, dropped = log.store_photo(b"kept"), log.store_photo(b"dropped")
        log.save_heist(night.id, heist(True, photo=kept))
        log.save_heist(night.id, heist(True, photo=dropped))
        log.undo_last_heist(night.id)
        assert log.photo_path(kept) == tmp_path / "data" / "photos" / kept
        assert log.photo_path(dropped).is_file()  # undoing a heist keeps its photo


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"\xff\xd8\xff\xe1....Exif", "jpg"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "png"),
        (b"RIFF\x10\x00\x00\x00WEBPVP8 ", "webp"),
        (b"\x00\x00\x00\x18ftypheic\x00", "heic"),
        (b"GIF89a", "gif"),
        (b"hello", None),
        (b"", None),
    ],
)
def test_image_type_from_leading_bytes(head: bytes, expected: str | None) -> None:
    assert image_type(head) == expected


def _age(path: Path, hours: float) -> None:
    """Make ``path`` look last stored ``hours`` ago."""
    when = path.stat().st_mtime - hours * 3600
    os.utime(path, (when, when))


def test_a_discarded_tables_photo_goes_unless_a_heist_keeps_it(tmp_path: Path) -> None:
    with SqliteGameLog(tmp_path / "data" / "companion.sqlite3") as log:
        night = log.start_night(("Ann", "Bob", "Cy"), "classic")
        kept, dropped = log.store_photo(b"kept photo"), log.store_photo(b"dropped photo")
        log.save_heist(night.id, heist(True, photo=kept))
        assert log.discard_photo(dropped) and not log.photos.exists(dropped)
        assert not log.discard_photo(kept) and log.photo_path(kept).is_file()
        assert not log.discard_photo(dropped)  # already gone: nothing to do


def test_photos_no_heist_keeps_are_removed_after_a_day(tmp_path: Path) -> None:
    with SqliteGameLog(tmp_path / "data" / "companion.sqlite3") as log:
        night = log.start_night(("Ann", "Bob", "Cy"), "classic")
        saved, old, recent = (log.store_photo(data) for data in (b"saved", b"old", b"recent"))
        log.save_heist(night.id, heist(True, photo=saved))
        partial = log.photos.folder / ".partial-crashed"
        partial.write_bytes(b"half a photo")
        for ref in (saved, old):
            _age(log.photos.path(ref), 25)
        _age(log.photos.path(recent), 23)
        _age(partial, 25)
        new = log.store_photo(b"new")  # each photo stored sweeps the day-old unsaved ones
        assert log.photos.refs() == {saved, recent, new}
        assert not partial.exists()
        _age(log.photos.path(recent), 2)
        assert log.forget_unsaved_photos() == {recent}
        assert log.photos.refs() == {saved, new}


def test_a_photo_stored_again_is_young_again(tmp_path: Path) -> None:
    with SqliteGameLog(tmp_path / "data" / "companion.sqlite3") as log:
        ref = log.store_photo(b"the same table")
        _age(log.photos.path(ref), 30)
        assert log.store_photo(b"the same table") == ref
        assert log.forget_unsaved_photos() == frozenset() and log.photos.exists(ref)
