"""A photo seen otherwise (``training.views``), and the evaluation that reads a set so."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.training import evaluate
from companion.vision.training.views import in_light, parse_light, tilted
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


def test_a_set_is_read_in_another_light(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    labels = json.loads((FIXTURES / "labels.json").read_text())
    entry = next(e for e in labels if e["image"] == "scene_0001.jpg")
    cv2.imwrite(str(tmp_path / entry["image"]), cv2.imread(str(FIXTURES / entry["image"])))
    (tmp_path / "labels.json").write_text(json.dumps([entry]))
    assert evaluate.main([str(tmp_path / "labels.json"), "--light", "0.3,0.35,1"]) == 0
    assert "F1 1.0000" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        evaluate.main([str(tmp_path / "labels.json"), "--light", "red"])
    assert "--light takes three gains" in capsys.readouterr().err
