"""Photos decoded once for the CLI and the app (``image``): refusals name the file."""

import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import ImageDecodeError
from companion.vision.base.image import (
    MIN_IMAGE_SIDE,
    declared_size,
    decode_image,
    load_image,
    refuse_too_large,
    refuse_too_small,
)
from tests.helpers import FIXTURES

SCENE = FIXTURES / "scene_0001.jpg"


def test_a_photo_file_is_bgr_pixels() -> None:
    image = load_image(SCENE)
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8
    assert np.array_equal(image, cv2.imread(str(SCENE)))


def test_an_upload_decodes_as_its_file_does() -> None:
    assert np.array_equal(decode_image(SCENE.read_bytes(), "scene.jpg"), load_image(SCENE))


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "No such file or directory"),
        (b"", "empty file"),
        (b"not an image at all", "not an image format this app can read"),
    ],
    ids=["missing", "empty", "text"],
)
def test_files_that_are_no_photo_are_refused_by_name(
    tmp_path: Path, content: bytes | None, reason: str
) -> None:
    path = tmp_path / "table.jpg"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ImageDecodeError, match=f"table.jpg.*{reason}"):
        load_image(path)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "empty file"),
        (b"not an image at all", "not an image"),
        (b"\x89PNG\r\n\x1a\n" + b"0" * 50, "not an image"),  # a PNG header, then nothing
    ],
    ids=["empty", "text", "truncated png"],
)
def test_uploads_that_are_no_photo_are_refused_by_name(data: bytes, reason: str) -> None:
    with pytest.raises(ImageDecodeError, match=f"notes.jpg: cannot be read as an image.*{reason}"):
        decode_image(data, "notes.jpg")


@pytest.mark.parametrize("kind", [".jpg", ".png"])
def test_a_photo_cut_short_is_refused_as_incomplete_not_as_another_kind(kind: str) -> None:
    ok, encoded = cv2.imencode(kind, load_image(SCENE))
    assert ok
    cut = encoded.tobytes()[: len(encoded) * 9 // 10]  # an upload broken off at 90 %
    with pytest.raises(ImageDecodeError) as caught:
        decode_image(cut, "table" + kind)
    assert caught.value.message("en") == (
        f"table{kind}: cannot be read as an image (a damaged or incomplete photo, perhaps cut "
        "short while it was sent; take it or send it again)"
    )
    assert "incompl" in caught.value.message("fr")


def test_an_iphone_heic_photo_is_named_with_how_to_send_it_instead() -> None:
    heic = FIXTURES / "table.heic"  # a real HEIC file (libheif's heif-enc), not a header alone
    with pytest.raises(ImageDecodeError) as caught:
        load_image(heic)
    said = caught.value.message("en")
    assert said.startswith(f"{heic}: cannot be read as an image (an HEIC photo")
    assert "send it as a JPEG" in said and "Most Compatible" in said
    assert "JPEG" in caught.value.message("fr")


@pytest.mark.parametrize(("width", "height"), [(1, 1), (4000, 3), (MIN_IMAGE_SIDE - 1, 500)])
def test_pictures_too_small_to_show_a_card_are_refused_by_name(width: int, height: int) -> None:
    ok, png = cv2.imencode(".png", np.zeros((height, width, 3), np.uint8))
    assert ok
    with pytest.raises(ImageDecodeError) as caught:
        decode_image(png.tobytes(), "dot.png")
    assert caught.value.message("en") == (
        f"dot.png: cannot be read as an image ({width}x{height} px, too small to show a card)"
    )


def test_a_picture_of_the_least_size_is_kept_as_it_is() -> None:
    image = np.zeros((MIN_IMAGE_SIDE, MIN_IMAGE_SIDE, 3), np.uint8)
    assert refuse_too_small(image, "x") is image


def _encoded(extension: str, width: int = 40, height: int = 30) -> bytes:
    image = np.full((height, width, 3), 200, np.uint8)
    ok, data = cv2.imencode(extension, image)
    assert ok
    return data.tobytes()


@pytest.mark.parametrize("extension", [".png", ".jpg", ".webp", ".bmp"])
def test_the_declared_size_is_the_decoded_size(extension: str) -> None:
    data = _encoded(extension, 41, 29)
    image = decode_image(data, f"photo{extension}")
    assert declared_size(data) == (image.shape[1], image.shape[0]) == (41, 29)


def _claiming(extension: str, width: int, height: int) -> bytes:
    """A small real image whose header is edited to claim ``width`` x ``height`` pixels."""
    data = bytearray(_encoded(extension))
    if extension == ".png":
        data[16:24] = width.to_bytes(4, "big") + height.to_bytes(4, "big")
    else:
        at = next(i for i in range(2, len(data) - 1) if data[i] == 0xFF and data[i + 1] == 0xC0)
        data[at + 5 : at + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


@pytest.mark.parametrize("extension", [".png", ".jpg"])
def test_a_decompression_bomb_is_refused_by_its_header_fast(tmp_path: Path, extension: str) -> None:
    bomb = _claiming(extension, 30000 if extension == ".jpg" else 60000, 30000)
    assert len(bomb) < 1000
    path = tmp_path / f"bomb{extension}"
    path.write_bytes(bomb)
    start = time.perf_counter()
    with pytest.raises(ImageDecodeError, match=f"bomb\\{extension}.*30000 pixels.*100 megapixels"):
        load_image(path)
    with pytest.raises(ImageDecodeError, match="upload.jpg.*megapixels"):
        decode_image(bomb, "upload.jpg")
    assert time.perf_counter() - start < 0.5


def test_an_image_just_under_the_limit_is_not_refused_by_size() -> None:
    refuse_too_large((10_000, 10_000), "ok.jpg")
    with pytest.raises(ImageDecodeError, match="big.jpg"):
        refuse_too_large((10_000, 10_001), "big.jpg")


def test_the_jpeg_frame_header_is_found_after_large_metadata() -> None:
    """Phones write EXIF (and a thumbnail) before the frame header: the walk skips segments."""
    data = _encoded(".jpg", 41, 29)
    exif = b"\xff\xe1" + (60_002).to_bytes(2, "big") + b"Exif\x00\x00" + b"\x00" * 59_994
    padded = data[:2] + exif + exif + data[2:]
    assert declared_size(padded) == (41, 29)
    assert decode_image(padded, "phone.jpg").shape[:2] == (29, 41)
