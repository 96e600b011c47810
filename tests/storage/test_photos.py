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
