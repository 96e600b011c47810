"""The shipped models read the fixture photos exactly as recorded in ``reads.json``: a new
OpenCV, onnxruntime or numpy (or a change to the reader) that changes a read fails here."""

import json
from pathlib import Path

import pytest

from companion.vision.training.snapshot import differences, main, snapshot
from tests.helpers import FIXTURES

RECORDED = FIXTURES / "reads.json"
REDO = (
    "python -m companion.vision.training.snapshot tests/fixtures/images/labels.json "
    "--out tests/fixtures/images/reads.json (only after checking every change on purpose)"
)


def test_fixture_photos_read_as_recorded() -> None:
    changed = differences(json.loads(RECORDED.read_text()), snapshot(FIXTURES / "labels.json"))
    assert not changed, "\n".join([*changed, f"to record the new reads: {REDO}"])


def test_recorded_reads_hold_cards_and_groupings() -> None:
    recorded = json.loads(RECORDED.read_text())
    told = recorded["scene_0001.jpg"]["told"]
    assert len(told["reads"]) == 13
    assert len(told["grouping"]["river"]) == 5 and len(told["grouping"]["hands"]) == 4


def test_differences_name_the_photo_and_the_reading() -> None:
    old = {"a.jpg": {"free": {"reads": []}, "told": None}}
    new = {"a.jpg": {"free": {"reads": [{"card": "As"}]}, "told": None}, "b.jpg": {}}
    lines = differences(old, new)
    assert len(lines) == 1 and lines[0].startswith("a.jpg (free):")
    assert differences(old, old) == []


def test_main_exits_1_on_a_changed_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stale = tmp_path / "reads.json"
    recorded = json.loads(RECORDED.read_text())
    recorded["scene_0002.jpg"]["free"]["reads"] = []
    stale.write_text(json.dumps(recorded))
    assert main([str(FIXTURES / "labels.json"), "--against", str(stale)]) == 1
    assert "scene_0002.jpg (free)" in capsys.readouterr().out
    assert main([str(FIXTURES / "labels.json"), "--against", str(RECORDED)]) == 0
