"""``companion analyze`` shows both views street by street: by the odds and by the hands as
they stood (Crack's "on ne joue pas au potentiel", issue #43), in text and JSON, both
languages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_analyze_cli import run, run_json

TABLE: dict[str, Any] = {
    "board": "Ah 2d 9s Jc 4h",
    "players": [{"name": "Ana", "cards": "7s 7d"}, {"name": "Bob", "cards": "As Kc"}],
    "tokens_by_street": {
        "preflop": {"Ana": 1, "Bob": 2},  # Ana's pair stood above Bob's ace high
        "flop": {"Ana": 1, "Bob": 2},  # the ace on the flop pairs Bob: now right
    },
}


def _blocks(out: str) -> list[str]:
    return out.split("\n\n")


def test_each_street_shows_both_views(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, tmp_path, TABLE)
    assert (code, err) == (0, "")
    preflop, flop, turn, river = _blocks(out)[:4]
    for block in (preflop, flop, turn, river):
        assert "  By the odds, best tokens: " in block
    assert "  By the hands as they stood: 1 Bob (ace high); 2 Ana (pair of sevens)" in preflop
    assert "    - Bob took the 2, not the 1: the 2 was Ana's" in preflop
    assert "    - Ana took the 1, not the 2: the 1 was Bob's" in preflop
    assert "  By the hands as they stood: 1 Ana (pair of sevens); 2 Bob (pair of aces)" in flop
    assert "    - the tokens follow the hands as they stood" in flop
    assert " - " not in turn  # no tokens recorded at the turn: nothing judged


def test_the_french_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, tmp_path, TABLE, "--lang", "fr")
    assert code == 0
    preflop = _blocks(out)[0]
    assert "  Selon les chances, meilleurs jetons : " in preflop
    assert (
        "  Selon les mains telles qu'elles étaient : 1 Bob (hauteur as) ; 2 Ana (paire de sept)"
        in preflop
    )
    assert "    - Ana a pris le 1, pas le 2 : le 1 revenait à Bob" in preflop


def test_the_json_view(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    result = run_json(capsys, tmp_path, TABLE)
    pre = result["streets"][0]["stood"]
    assert [(h["id"], h["category"], h["cards"]) for h in pre["hands"]] == [
        ("Bob", "high_card", ["As", "Kc"]),
        ("Ana", "pair", ["7s", "7d"]),
    ]
    assert [(h["token"], h["fits"], h["should"]) for h in pre["hands"]] == [
        (2, False, 1),
        (1, False, 2),
    ]
    assert pre["text"] == "1 Bob (ace high); 2 Ana (pair of sevens)"
    turn = result["streets"][2]["stood"]
    assert turn["tokens_text"] == [] and all(h["token"] is None for h in turn["hands"])
    river = result["streets"][3]["stood"]
    assert [h["cards"] for h in river["hands"]][1] == ["As", "Ah", "Kc", "Jc", "9s"]


def test_ties_share_their_tokens_either_way(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table = {
        "board": "Ah 2d 9s Jc 4h",
        "players": [{"name": "Ana", "cards": "Ks Qd"}, {"name": "Bob", "cards": "Kc Qh"}],
        "tokens_by_street": {"preflop": {"Ana": 2, "Bob": 1}},
    }
    pre = run_json(capsys, tmp_path, table)["streets"][0]["stood"]
    assert [(h["lowest"], h["highest"], h["fits"]) for h in pre["hands"]] == [(1, 2, True)] * 2
    assert pre["text"] == "1–2 Ana (king high); 1–2 Bob (king high)"
