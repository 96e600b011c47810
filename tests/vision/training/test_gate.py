"""Training the gate (``training.gate``): its pass level, and a small run from crops to a model
the detector loads.

Needs the training extra (torch); skipped without it."""

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from companion.vision.base.geometry import CROP_H, CROP_W  # noqa: E402
from companion.vision.corner_reads.gate import Gate  # noqa: E402
from companion.vision.training import gate  # noqa: E402


def test_the_pass_level_stops_no_more_than_the_budget_of_crops_that_matter() -> None:
    rng = np.random.default_rng(0)
    index_p = rng.random(40_000)
    scores = np.clip(index_p + rng.normal(0, 0.2, index_p.shape), 0, 1)
    level = gate.pass_level(scores, index_p)
    matter = index_p >= gate.MATTERS
    stopped = np.mean(scores[matter] < level)
    assert stopped <= gate.MISS_BUDGET
    # ... and is the highest such level: a little higher stops more than the budget.
    assert np.mean(scores[matter] < np.nextafter(level, 1)) > 0 or level == scores[matter].max()
    assert gate.pass_level(scores, np.zeros_like(index_p)) == 0.0  # nothing matters: pass all


def _crops(path: Path, n: int, seed: int) -> None:
    """Light crops with a dark blob (index-like to the teacher) and plain dark ones."""
    rng = np.random.default_rng(seed)
    crops = rng.integers(20, 60, (n, CROP_H, CROP_W, 3)).astype(np.uint8)
    index_p = np.zeros(n, np.float32)
    marked = rng.random(n) < 0.4
    crops[marked] = 220
    crops[marked, 6:20, 4:14] = 30
    index_p[marked] = 0.9
    np.savez(path, crops=crops, index_p=index_p)


def test_a_small_run_gives_a_gate_the_detector_loads(tmp_path: Path) -> None:
    _crops(tmp_path / "train.npz", 1024, 1)
    _crops(tmp_path / "val.npz", 256, 2)
    out = tmp_path / "gate.onnx"
    args = [
        "train",
        "--train",
        str(tmp_path / "train.npz"),
        "--val",
        str(tmp_path / "val.npz"),
        "--out",
        str(out),
        "--epochs",
        "3",
        "--batch",
        "64",
    ]
    assert gate.main(args) == 0
    assert gate.main(["level", str(out), "--val", str(tmp_path / "val.npz")]) == 0
    loaded = Gate(out)
    data = np.load(tmp_path / "val.npz")
    passes = loaded.passes(data["crops"])
    marked = data["index_p"] > 0.5
    assert passes[marked].all()
    assert passes[~marked].mean() < 0.5


def test_missing_files_are_named_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert gate.main(["level", str(tmp_path / "none.onnx"), "--val", "x.npz"]) == 2
    assert "none.onnx: file not found" in capsys.readouterr().err
    assert gate.main(["collect", str(tmp_path / "out.npz"), str(tmp_path / "no_scenes")]) == 2
    assert "no_scenes/labels.json" in capsys.readouterr().err
    assert not (tmp_path / "out.npz").exists()
