from __future__ import annotations

import hashlib
import os
from datetime import timedelta
from pathlib import Path

import pytest

from companion.storage import NotFoundError, OutsideDataFolderError, PhotoStore, SqliteGameLog
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


def test_files_outside_the_data_folder_are_refused(store: PhotoStore, tmp_path: Path) -> None:
    outside = tmp_path / "secret.jpg"
    outside.write_bytes(JPEG)
    with pytest.raises(OutsideDataFolderError, match="secret.jpg"):
        store.put_file(outside)
    with pytest.raises(OutsideDataFolderError):
        store.put_file(store.data_folder / ".." / "secret.jpg")
    upload = store.data_folder / "uploads" / "table.jpg"
    upload.parent.mkdir()
    upload.write_bytes(JPEG)
    assert store.read(store.put_file(upload)) == JPEG


def test_a_link_out_of_the_data_folder_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", data / "photos")
    with pytest.raises(OutsideDataFolderError, match="elsewhere"):
        PhotoStore(data)
    link = data / "link.jpg"
    os.symlink(tmp_path / "elsewhere", link)
    (data / "photos").unlink()
    with pytest.raises(OutsideDataFolderError):
        PhotoStore(data).put_file(link)


def test_prune_keeps_used_photos_and_clears_leftovers(store: PhotoStore) -> None:
    used, unused = store.put(b"used"), store.put(b"unused")
    (store.folder / ".partial-abc").write_bytes(b"half")
    assert store.prune([used], older_than=60) == 0  # all too recent: maybe still in use
    assert store.prune([used]) == 2
    assert sorted(p.name for p in store.folder.iterdir()) == [used]
    with pytest.raises(NotFoundError):
        store.read(unused)


def test_log_keeps_photos_beside_the_database(tmp_path: Path) -> None:
    path = tmp_path / "data" / "companion.sqlite3"
    with SqliteGameLog(path) as log:
        night = log.start_night(("Ann", "Bob", "Cy"), "classic")
        kept, dropped = log.store_photo(b"kept"), log.store_photo(b"dropped")
        log.save_heist(night.id, heist(True, photo=kept))
        log.save_heist(night.id, heist(True, photo=dropped))
        log.undo_last_heist(night.id)
        assert log.photo_path(kept) == tmp_path / "data" / "photos" / kept
        assert log.prune_photos() == 0  # just stored: spared for an hour
        assert log.prune_photos(older_than=timedelta(0)) == 1
        with pytest.raises(NotFoundError):
            log.photo_path(dropped)


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
