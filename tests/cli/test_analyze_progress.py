"""``companion analyze`` on a batch: one progress line per table and street on standard error
output, with the street's largest standard error; standard output as without it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

TABLES: list[dict[str, Any]] = [
    {
        "board": "2h 9s Jc 4h Td",
        "rules": {"ranking": "low-27"},
        "players": [{"name": "Ana", "cards": "As *"}, {"name": "Bob", "cards": "Kc Qc"}],
    },
    {
        "board": "2h 9s Jc 4h Td",
        "players": [{"name": "Cy", "cards": "7h 8h"}, {"name": "Dan", "cards": "2d 2s"}],
    },
]


def _analyze(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> tuple[str, str]:
    assert main(["analyze", str(path), *argv]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_a_batch_reports_its_progress_on_stderr_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    batch = tmp_path / "batch.json"
    batch.write_text(json.dumps(TABLES), encoding="utf-8")
    out, err = _analyze(capsys, batch, "--json")
    lines = err.splitlines()
    assert len(lines) == 8 and lines[0].startswith("table 1 of 2, pre-flop: ")
    assert lines[-1].startswith("table 2 of 2, river")
    errors = [float(m) for m in re.findall(r"error (\d+\.\d+)%", err)]
    assert errors and all(0 < e <= 0.5 for e in errors)
    singles = []
    for k, table in enumerate(TABLES):
        one = tmp_path / f"{k}.json"
        one.write_text(json.dumps(table), encoding="utf-8")
        alone, quiet = _analyze(capsys, one, "--json")
        assert quiet == ""  # a single table prints no progress
        singles.append(json.loads(alone))
    assert json.loads(out) == singles


def test_progress_speaks_french_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    batch = tmp_path / "batch.json"
    batch.write_text(json.dumps(TABLES[:1]), encoding="utf-8")
    _, err = _analyze(capsys, batch, "--lang", "fr")
    assert err.splitlines()[0].startswith("table 1 sur 1, ")
    assert "erreur type" in err
