from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from companion.cli import COMMANDS, main

TABLE: dict[str, Any] = {
    "board": "2h 9s Jc 4h Td",
    "players": [
        {"name": "Ana", "cards": "As Ad"},
        {"name": "Bob", "cards": "Kc Qc"},
        {"name": "Cleo", "cards": "7h 8h"},
        {"name": "Dan", "cards": "2d 2s"},
    ],
    "tokens_by_street": {
        "flop": {"Ana": 1, "Bob": 4, "Cleo": 3, "Dan": 2},
        "turn": {"Ana": 4, "Bob": 1, "Cleo": 2, "Dan": 3},
    },
    "tokens": {"Ana": 3, "Bob": 4, "Cleo": 1, "Dan": 2},  # Ana and Cleo swapped at the river
}


def run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, table: Any, *argv: str
) -> tuple[int, str, str]:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table), encoding="utf-8")
    code = main(["analyze", str(path), *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], tmp_path: Path, table: Any, *argv: str) -> Any:
    code, out, err = run(capsys, tmp_path, table, "--json", *argv)
    assert (code, err) == (0, "")
    return json.loads(out)


def test_analyze_is_a_command() -> None:
    assert "analyze" in COMMANDS


def test_json_shape(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    result = run_json(capsys, tmp_path, TABLE)
    assert [h["id"] for h in result["hands"]] == ["Ana", "Bob", "Cleo", "Dan"]
    assert [s["street"] for s in result["streets"]] == ["preflop", "flop", "turn", "river"]
    assert [len(s["board"]) for s in result["streets"]] == [0, 3, 4, 5]
    for street in result["streets"]:
        everyone = street["everyone"]
        assert everyone["method"]["exact"] is True and everyone["method"]["std_error"] == 0
        for hand in everyone["hands"] + street["own"]["hands"]:
            assert sum(hand["positions"]) == pytest.approx(1)
            assert hand["most_likely"] - 1 == max(range(4), key=lambda k: hand["positions"][k])
    flop = result["streets"][1]
    assert flop["everyone"]["method"]["count"] == math.comb(52 - 8 - 3, 2)  # river completions
    assert flop["tokens"] == TABLE["tokens_by_street"]["flop"]
    assert result["streets"][0]["tokens"] is None
    assert result["streets"][3]["tokens"] == TABLE["tokens"]  # final tokens are the river's
    river = {h["id"]: h["most_likely"] for h in result["streets"][3]["everyone"]["hands"]}
    assert river == {"Ana": 1, "Bob": 4, "Cleo": 3, "Dan": 2}


def test_mistakes_in_both_languages(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mistakes = run_json(capsys, tmp_path, TABLE)["mistakes"]
    flop_ana = next(m for m in mistakes if (m["street"], m["hand"]) == ("flop", "Ana"))
    assert (flop_ana["token"], flop_ana["most_likely"]) == (1, 3)  # Dan flopped three twos
    assert flop_ana["text"].startswith("at the flop Ana was most likely the 3, not the 1 (")
    river = {m["hand"]: m["text"] for m in mistakes if m["street"] == "river"}
    assert river == {
        "Ana": "at the river Ana was the 1, not the 3",
        "Cleo": "at the river Cleo was the 3, not the 1",
    }
    french = run_json(capsys, tmp_path, TABLE, "--lang", "fr")["mistakes"]
    assert any(
        m["text"].startswith("au flop, Ana était le plus probablement le 3, pas le 1")
        for m in french
    )


def test_text_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, tmp_path, TABLE)
    assert (code, err) == (0, "")
    assert out.startswith("Pre-flop [—] — all hands known: exact over 1,086,008 deals")
    assert "Flop [2♥ 9♠ J♣]" in out
    assert "Biggest token mistakes:" in out
    assert "at the flop Ana was most likely the 3, not the 1" in out
    code, out, _ = run(capsys, tmp_path, TABLE, "--lang", "fr")
    assert "Plus grosses erreurs de jetons :" in out
    assert "exact sur 1\u202f086\u202f008 donnes" in out


def test_best_tokens_per_street(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    streets = run_json(capsys, tmp_path, TABLE)["streets"]
    for street in streets:
        best = street["best_tokens"]
        assert sorted(best["tokens"].values()) == [1, 2, 3, 4]
        assert 0 < best["p_open"] <= 1 and best["complete"] is True
        assert best["method"]["exact"] is True
        # The most likely assignment is at least as likely as any recorded one.
        if street["tokens"] is None:
            assert best["recorded_p_open"] is None
        else:
            assert 0 <= best["recorded_p_open"] <= best["p_open"]
    river = streets[3]["best_tokens"]
    assert river["tokens"] == {"Ana": 1, "Bob": 4, "Cleo": 3, "Dan": 2}
    assert (river["p_open"], river["recorded_p_open"]) == (1, 0)  # Ana and Cleo swapped
    assert river["text"] == (
        "best tokens: 1 Ana; 2 Dan; 3 Cleo; 4 Bob — the vault opens 100% "
        "of the time (with the tokens taken: 0%)"
    )
    code, out, _ = run(capsys, tmp_path, TABLE)
    assert "  By the odds, best tokens: 1 Ana; 2 Dan; 3 Cleo; 4 Bob — the vault opens 100%" in out
    code, out, _ = run(capsys, tmp_path, TABLE, "--lang", "fr")
    assert (
        "  Selon les chances, meilleurs jetons : 1 Ana ; 2 Dan ; 3 Cleo ; 4 Bob — le coffre "
        "s'ouvre 100 %" in out
    )


def test_sampling_is_stated(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    table = {**TABLE, "rules": {"ranking": "low-27"}}
    del table["tokens_by_street"]
    result = run_json(capsys, tmp_path, table, "--samples", "100", "--seed", "5")
    preflop = result["streets"][0]["everyone"]["method"]
    assert preflop["exact"] is False and preflop["count"] == 100 and preflop["seed"] == 5
    assert "100 samples (seed 5)" in preflop["text"]
    assert 0 < preflop["std_error"] < 0.15


def test_array_and_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    two = [{"board": TABLE["board"], "players": TABLE["players"][:2]}] * 2
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(two)))
    assert main(["analyze", "-", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result) == 2 and result[0] == result[1]
    assert result[0]["mistakes"] == []


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({**TABLE, "tokens_by_street": {"showdown": {}}}, "unknown street 'showdown'"),
        ({**TABLE, "tokens_by_street": {"flop": {"Ana": 1}}}, "Bob has no token"),
        (
            {**TABLE, "tokens_by_street": {"flop": {"Ana": 1, "Bob": 1, "Cleo": 2, "Dan": 3}}},
            "token 1 is given twice",
        ),
        ({**TABLE, "tokens_by_street": ["flop"]}, "tokens_by_street must map"),
        ({**TABLE, "board": "2h 9s Jc 4h Zz"}, "Zz"),
        ([TABLE, {"board": "2h", "players": []}], "table 2:"),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, table: Any, message: str
) -> None:
    code, out, err = run(capsys, tmp_path, table)
    assert code == 2 and out == ""
    assert err.startswith("companion: ") and message in err and err.count("\n") == 1


SIX_THREE: dict[str, Any] = {
    "variant": "six-three-hands",
    "board": "2h 9s Jc 4h Td",
    "players": [
        {"name": "Ana", "cards": "As Ad Kd Kh 3c 3d"},
        {"name": "Bob", "cards": "Kc Qc Jd Js 8h 7h"},
    ],
    # Crack: at pre-flop the third sub-hand is always empty, so 4 tokens are dealt, not 6.
    "tokens_by_street": {"preflop": {"Ana/1": 4, "Ana/2": 1, "Bob/1": 3, "Bob/2": 2}},
    "tokens": {"Ana/1": 6, "Ana/2": 3, "Ana/3": 1, "Bob/1": 5, "Bob/2": 4, "Bob/3": 2},
}


def test_six_three_hands_preflop_takes_four_tokens(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    result = run_json(capsys, tmp_path, SIX_THREE)
    preflop, flop = result["streets"][0], result["streets"][1]
    ranked = ["Ana/1", "Ana/2", "Bob/1", "Bob/2"]
    # At pre-flop the odds and the tokens are those of the final order among the four hands.
    assert [h["id"] for h in preflop["everyone"]["hands"]] == ranked
    assert [h["id"] for h in preflop["own"]["hands"]] == ranked
    for hand in preflop["everyone"]["hands"] + preflop["own"]["hands"]:
        assert len(hand["positions"]) == 4 and sum(hand["positions"]) == pytest.approx(1)
    assert sorted(preflop["best_tokens"]["tokens"]) == ranked
    assert 0 <= preflop["best_tokens"]["recorded_p_open"] <= 1
    assert len(flop["everyone"]["hands"]) == 6
    assert all(m["hand"] in ranked for m in result["mistakes"] if m["street"] == "preflop")


def test_six_three_hands_preflop_tokens_are_four_or_six(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    six = {**SIX_THREE, "tokens_by_street": {"preflop": SIX_THREE["tokens"]}}
    preflop = run_json(capsys, tmp_path, six)["streets"][0]
    assert len(preflop["everyone"]["hands"]) == 6
    five = {"preflop": {"Ana/1": 4, "Ana/2": 1, "Bob/1": 3, "Bob/2": 2, "Bob/3": 5}}
    code, out, err = run(capsys, tmp_path, {**SIX_THREE, "tokens_by_street": five})
    assert code == 2 and not out and err.count("\n") == 1 and "Ana/3 has no token" in err


def test_six_three_hands_report_shows_four_positions_at_preflop(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, tmp_path, SIX_THREE)
    assert code == 0
    preflop, flop = out.split("\n\n")[:2]
    assert preflop.splitlines()[1].split()[:5] == ["1", "2", "3", "4", "expected"]
    assert "Ana, hand 3" not in preflop and "Ana, hand 3" in flop
