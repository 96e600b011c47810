"""Photos decoded once for the CLI and the app (``image``): refusals name the file."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import ImageDecodeError
from companion.vision.image import MIN_IMAGE_SIDE, decode_image, load_image, refuse_too_small
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
