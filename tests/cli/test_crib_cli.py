from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import COMMANDS, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["crib", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    return json.loads(out)


def test_crib_is_a_command() -> None:
    assert "crib" in COMMANDS


def test_example_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "4c", "5d", "6h", "Kc", "--starter", "5s")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "fifteen two: 4♣ 5♦ 6♥"  # as the issue writes it
    assert lines[-1] == "total: 16 (fifteens 8, pairs 2, runs 6, flush 0, nobs 0)"


def test_example_french(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "4c", "5d", "6h", "Kc", "--starter", "5s", "--lang", "fr")
    assert "quinze deux : 4♣ 5♦ 6♥" in out.splitlines()
    assert out.splitlines()[-1].startswith("total : 16")


def test_example_json(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "4c", "5d", "6h", "Kc", "--starter", "5s", "--json")
    assert {
        key: result[key] for key in ("total", "fifteens", "pairs", "runs", "flush", "nobs")
    } == {
        "total": 16,
        "fifteens": 8,
        "pairs": 2,
        "runs": 6,
        "flush": 0,
        "nobs": 0,
    }
    assert sum(item["points"] for item in result["items"]) == 16
    assert {"rule": "pair", "points": 2, "cards": ["5d", "5s"]}.items() <= result["items"][
        4
    ].items()


def test_crib_flag(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ("2h", "4h", "6h", "8h", "--starter", "Kc", "--json")
    assert run_json(capsys, *hand)["flush"] == 4
    assert run_json(capsys, *hand, "--crib")["flush"] == 0


BATCH = [
    {"hand": ["4c", "5d", "6h", "Kc"], "starter": "5s", "crib": False},
    {"hand": ["5h", "5d", "5c", "Js"], "starter": "5s"},
    {"hand": ["2h", "4h", "6h", "8h"], "starter": "Kc", "crib": True},
    {"hand": "Jd 2c 4d 7s", "starter": "Kd", "crib": True},
]


def test_batch_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "shows.json"
    path.write_text(json.dumps(BATCH), encoding="utf-8")
    results = run_json(capsys, "--batch", str(path), "--json")
    assert [r["total"] for r in results] == [16, 29, 0, 1]
    assert [r["nobs"] for r in results] == [0, 1, 0, 1]
    for result in results:
        assert set(result) >= {"total", "fifteens", "pairs", "runs", "flush", "nobs", "items"}


def test_batch_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(BATCH[:2])))
    assert [r["total"] for r in run_json(capsys, "--batch", "-", "--json")] == [16, 29]


def test_batch_text(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(BATCH[:2])))
    code, out, _ = run(capsys, "--batch", "-")
    assert code == 0 and out.count("total: ") == 2


PEG_BATCH = [
    ["5h", "5d", "5s"],
    ["Td", "5s", "Kc", "6h"],
    "4c 6d 5h",
    ["7h", "7d", "8s", "7s"],
    {"cards": ["Kh", "Qd", "8s"], "end": "go"},
    {"cards": ["Td", "5s", "Kc", "6h"], "end": "last_card"},
]


def test_peg_batch(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(PEG_BATCH)))
    results = run_json(capsys, "peg", "--batch", "-", "--json")
    assert [r["points"] for r in results] == [8, 2, 5, 0, 1, 2]
    assert [[reason["rule"] for reason in r["reasons"]] for r in results] == [
        ["fifteen", "pair_royal"],
        ["thirty_one"],
        ["fifteen", "run"],
        [],
        ["go"],
        ["thirty_one"],
    ]


def test_peg_single(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "peg", "7h", "7d", "7s", "--json")["points"] == 6
    code, out, _ = run(capsys, "peg", "Kh", "Qd", "8s", "--end", "go", "--lang", "fr")
    assert code == 0 and out.splitlines() == ["go pour 1 : 8♠", "1 pour 8♠"]


def test_discard(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "discard", "5c", "5d", "Jh", "Qs", "4c", "9h", "--dealer", "--json")
    assert len(result["by_net"]) == len(result["by_hand"]) == 15
    best = result["by_net"][0]
    assert best["net"] == pytest.approx(best["hand"] + best["crib"])
    code, out, _ = run(capsys, "discard", "5c", "5d", "Jh", "Qs", "4c", "9h")
    assert code == 0 and "- crib" in out


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (("4c", "5d", "6h", "Xc", "--starter", "5s"), "'Xc'"),
        (("4c", "5d", "6h", "Kc", "--starter", "5z"), "'5z'"),
        (("4c", "5d", "6h", "Kc"), "--starter"),
        (("4c", "5d", "6h", "--starter", "5s"), "4 cards"),
        (("4c", "5d", "6h", "5s", "--starter", "5s"), "5♠"),
        (("peg", "Kh", "Qd", "Jc", "5s"), "5♠"),
        (("peg", "Kh", "Qx"), "'Qx'"),
        (("discard", "5c", "5d", "Jh", "Qs", "4c"), "6 cards"),
        (("4c", "5d", "6h", "Kc", "--batch", "-"), "not both"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], named: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and named in err


@pytest.mark.parametrize(
    ("batch", "named"),
    [
        ('[{"hand": ["4c", "5d", "6h", "Qq"], "starter": "5s"}]', "'Qq' is not a card (batch"),
        ('[{"hand": ["4c", "5d", "6h", "Kc"]}]', "batch item 1"),
        ('[{"hand": ["4c", "5d", "6h", "Kc"], "starter": "5s", "crib": "yes"}]', '"crib"'),
        ('{"hand": []}', "JSON array"),
        ("[1, 2", "not valid JSON"),
        ('[[], {"hand": ["4c", "5d", "6h", "Kc"], "starter": "4c"}]', "batch item 1"),
    ],
)  # fmt: skip
def test_bad_batch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, batch: str, named: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(batch))
    code, _, err = run(capsys, "--batch", "-", "--json")
    assert code == 2 and err.count("\n") == 1 and named in err


def test_missing_batch_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "--batch", str(tmp_path / "nope.json"), "--json")
    assert code == 2 and "nope.json" in err


def test_bad_peg_batch_names_the_card(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('[["5h"], ["Kh", "Qd", "Jc", "2s"]]'))
    code, _, err = run(capsys, "peg", "--batch", "-", "--json")
    assert code == 2 and "2♠" in err and "32" in err


def test_errors_speak_french_with_lang_fr(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "peg", "Kh", "Qd", "Jc", "5s", "--lang", "fr")
    assert code == 2 and err.startswith("companion: coup interdit") and "au-delà de 31" in err


# -- the cut for the first deal (issue #54; cribbage_rules.txt §2) ---------------------------


def test_cut_for_deal_lowest_card_deals_and_a_tie_cuts_again(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "cut", "7h", "7d", "Kc", "Qs")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "cut 1: player 1 7♥, player 2 7♦: a tie, cut again",
        "cut 2: player 1 K♣, player 2 Q♠: player 2 cut the lower card and deals first",
    ]
    result = run_json(capsys, "cut", "7h", "7d", "Kc", "Qs", "--json")
    assert result == {
        "cuts": [
            {"cards": ["7h", "7d"], "dealer": None},
            {"cards": ["Kc", "Qs"], "dealer": 2},
        ],
        "dealer": 2,
    }
    code, out, _ = run(capsys, "cut", "As", "2s", "--lang", "fr")
    assert out.splitlines() == [
        "coupe 1 : joueur 1 A♠, joueur 2 2♠ : joueur 1 a coupé la carte la plus basse et donne "
        "en premier"
    ]


def test_cut_for_deal_refuses_a_bad_cut_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "cut", "7h")
    assert (code, out) == (2, "")
    assert err == (
        "companion: cut for the deal two cards at a time (player 1's, then player 2's): "
        "1 card given\n"
    )
    code, _, err = run(capsys, "cut", "3h", "9c", "4d", "4s")
    assert code == 2 and "cut 1 already chose the dealer" in err
