"""A photo seen otherwise (``training.views``), and the evaluation that reads a set so."""

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.training import evaluate
from companion.vision.training.views import (
    in_light,
    motion_argument,
    parse_light,
    smeared,
    tilted,
    webcam,
    webcam_argument,
)
from tests.helpers import FIXTURES


@pytest.mark.parametrize(
    ("text", "light"),
    [("0.45,0.55,1", (0.45, 0.55, 1.0)), ("1,1", None), ("a,b,c", None), ("1,1,5", None)],
)
def test_a_light_is_three_gains(text: str, light: tuple[float, float, float] | None) -> None:
    assert parse_light(text) == light


def test_a_light_scales_each_channel() -> None:
    grey = np.full((4, 4, 3), 200, np.uint8)
    assert in_light(grey, (0.5, 1.0, 2.0))[0, 0].tolist() == [100, 200, 255]


def test_a_tilted_photo_recedes_at_the_top() -> None:
    # A white sheet filling the photo: its far (top) edge comes out narrower than its near one.
    sheet = np.full((300, 400, 3), 255, np.uint8)
    seen = tilted(sheet, 30.0)
    assert seen.shape == sheet.shape
    white = (seen[:, :, 0] > 128).sum(axis=1)
    rows = np.flatnonzero(white)
    assert white[rows[0] + 2] < 0.9 * white[rows[-1] - 2]


@pytest.mark.parametrize("degrees", [0.0, 30.0, 90.0])
def test_a_smear_spreads_a_point_along_its_direction(degrees: float) -> None:
    dot = np.zeros((201, 201, 3), np.float32)
    dot[100, 100] = 255.0
    seen = smeared(dot, 0.1, degrees)[:, :, 0]  # 20 pixels: a tenth of the long side
    assert seen.sum() == pytest.approx(255.0, rel=1e-4)
    ys, xs = np.nonzero(seen > 0.01)
    t = np.radians(degrees)
    along = (xs - 100) * np.cos(t) + (ys - 100) * np.sin(t)
    across = -(xs - 100) * np.sin(t) + (ys - 100) * np.cos(t)
    assert 18 <= along.max() - along.min() <= 22
    assert np.abs(across).max() <= 1.5


def test_no_smear_under_a_pixel_leaves_the_photo_alone() -> None:
    photo = np.random.default_rng(0).integers(0, 255, (50, 80, 3), dtype=np.uint8)
    assert smeared(photo, 0.01, 45.0) is photo


@pytest.mark.parametrize("text", ["-0.01", "0.2", "half"])
def test_a_motion_is_a_small_share_of_the_long_side(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="--motion takes a share"):
        motion_argument(text)
    assert motion_argument("0.005") == 0.005


def test_a_webcam_frame_is_shrunk_soft_and_grainy() -> None:
    # A sharp black-and-white edge: shrunk to the long side asked, its step spread over more
    # than a pixel, and the flat paper no longer flat.
    photo = np.full((400, 600, 3), 230, np.uint8)
    photo[:, 300:] = 20
    frame = webcam(photo, 300)
    assert frame.shape == (200, 300, 3)
    row = frame[100, :, 1].astype(float)
    assert 20 < row[150] < 230 or 20 < row[149] < 230
    assert frame[20:80, 20:120].std() > 0.5
    np.testing.assert_array_equal(webcam(photo, 300), frame)  # the same grain every time
    assert webcam(photo, 2000).shape == photo.shape  # never enlarged


@pytest.mark.parametrize("text", ["100", "5000", "hd"])
def test_a_webcam_is_a_long_side_in_pixels(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="--webcam takes the frame's long side"):
        webcam_argument(text)
    assert webcam_argument("640") == 640


@pytest.fixture
def one_scene(tmp_path: Path) -> str:
    """The labels file of a set holding the fixture scene that every card of is read."""
    labels = json.loads((FIXTURES / "labels.json").read_text())
    entry = next(e for e in labels if e["image"] == "scene_0001.jpg")
    cv2.imwrite(str(tmp_path / entry["image"]), cv2.imread(str(FIXTURES / entry["image"])))
    (tmp_path / "labels.json").write_text(json.dumps([entry]))
    return str(tmp_path / "labels.json")


def test_a_set_is_read_in_another_light(one_scene: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert evaluate.main([one_scene, "--light", "0.3,0.35,1"]) == 0
    assert "F1 1.0000" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        evaluate.main([one_scene, "--light", "red"])
    assert "--light takes three gains" in capsys.readouterr().err


def test_a_set_is_read_smeared(one_scene: str, capsys: pytest.CaptureFixture[str]) -> None:
    # A twentieth of the long side (64 pixels) leaves no index legible.
    assert evaluate.main([one_scene, "--motion", "0.05"]) == 0
    assert "F1 1.0000" not in capsys.readouterr().out
    assert evaluate.main([one_scene, "--motion", "0"]) == 0
    assert "F1 1.0000" in capsys.readouterr().out


def test_a_set_is_read_through_a_webcam(one_scene: str, capsys: pytest.CaptureFixture[str]) -> None:
    # The fixture scene (960x640) streamed at 320 px wide: its cards about 30 px wide, their
    # indices a few blurred pixels, and not every card can be read. At its own size the
    # grain and the JPEG leave every card legible.
    assert evaluate.main([one_scene, "--webcam", "320"]) == 0
    out = capsys.readouterr().out
    assert "F1 1.0000" not in out and "latency 320x213" in out
    assert evaluate.main([one_scene, "--webcam", "960"]) == 0
    out = capsys.readouterr().out
    assert "F1 1.0000" in out and "latency 960x640" in out


def test_silent_errors_are_told_apart_by_where_they_lie(
    one_scene: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The fixture table labelled, as a loose photo, with a card it does not hold: a miss no
    # missing count can report.
    labels = Path(one_scene)
    entry = json.loads(labels.read_text())[0]
    loose = {**entry, "cards": [*entry["cards"], "As"], "groups": None}
    labels.write_text(json.dumps([loose]))
    assert evaluate.main([one_scene]) == 0
    out = capsys.readouterr().out
    assert "silent errors: 1 " in out
    assert (
        "on table scenes: 0 (0 where an index is hidden, read with their layout only); in " in out
    )
    assert "loose photos: 1" in out


@pytest.mark.parametrize(("hidden", "silent"), [(0, 0), (2, 1)])
def test_a_table_whose_grouping_cannot_be_answered_is_read_with_its_layout(
    one_scene: str, capsys: pytest.CaptureFixture[str], hidden: int, silent: int
) -> None:
    # Labelled with a fifth hand it does not show: read told 5+5x2, the table is a hand of
    # two short, which reports the card missed, unless the layout's hidden cards take it.
    labels = Path(one_scene)
    entry = json.loads(labels.read_text())[0]
    table = {**entry, "cards": [*entry["cards"], "As"], "groups": None, "layout": "5+5x2"}
    labels.write_text(json.dumps([{**table, "hidden": hidden}]))
    assert evaluate.main([one_scene]) == 0
    out = capsys.readouterr().out
    assert f"silent errors: {silent} " in out and "grouping exact" not in out
    if silent:
        assert f"on table scenes: {silent} ({silent} where an index is hidden" in out
