"""Hostile but realistic input on the command line (#17): one line on standard error, exit 2,
never a traceback, a hang or a memory blow-up."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable

import pytest

from companion.cli import main

BOARD = "2h 7d 9s Jc Kd"
Run = tuple[int, str, str]
Runner = Callable[..., Run]  # (argv, stdin=None) -> (exit code, stdout, stderr)


def table(**changes: object) -> dict[str, object]:
    raw: dict[str, object] = {
        "board": BOARD,
        "players": [{"name": "Ana", "cards": "As Ad"}, {"name": "Bob", "cards": "Qs Qc"}],
    }
    raw.update(changes)
    return raw


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Runner:
    def call(argv: list[str], stdin: str | None = None) -> Run:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    return call


def refused(result: Run, *words: str) -> None:
    code, out, err = result
    assert code == 2 and out == "", result
    assert err.startswith("companion: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, (word, err)


DEEP = "[" * 6000 + "]" * 6000
LONG_NUMBER = "[" + "9" * 5000 + "]"


@pytest.mark.parametrize(
    "argv",
    [
        ["showdown", "-"],
        ["analyze", "-"],
        ["crib", "--batch", "-"],
        ["crib", "peg", "--batch", "-"],
    ],
)
@pytest.mark.parametrize(
    ("stdin", "words"),
    [
        (DEEP, ("standard input", "32 levels")),
        (LONG_NUMBER, ("standard input", "18 digits")),
        ('{"a": NaN}', ("not valid JSON",)),
        ("[1e999]", ("18 digits",)),
    ],
)
def test_absurd_json_is_refused_in_one_line(
    run: Runner, argv: list[str], stdin: str, words: tuple[str, ...]
) -> None:
    refused(run(argv, stdin), *words)


@pytest.mark.parametrize("argv", [["showdown", "-"], ["analyze", "-"], ["crib", "--batch", "-"]])
def test_closed_standard_input_is_said(
    run: Runner, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", None)  # what Python gives a process started with <&-
    refused(run(argv), "standard input is closed")


def test_an_empty_batch_prints_an_empty_list(run: Runner) -> None:
    code, out, _ = run(["showdown", "-", "--json"], "[]")
    assert code == 0 and json.loads(out) == []


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (table(two_rivers="false"), ("two_rivers must be true or false", "'false'")),
        (table(two_rivers=1), ("two_rivers must be true or false",)),
        (
            table(
                players=[
                    {"name": "Ana", "cards": "As Ad", "hand": "x"},
                    {"name": "Bob", "cards": "Qs Qc"},
                ]
            ),
            ("Ana: unknown field(s): hand",),
        ),
        (
            table(
                players=[{"name": "Ana", "cards": ["As", ""]}, {"name": "Bob", "cards": "Qs Qc"}]
            ),
            ("Ana", "empty string where a card goes"),
        ),
        (
            table(
                players=[
                    {"name": "Ana", "cards": ["As", ["Ad"]]},
                    {"name": "Bob", "cards": "Qs Qc"},
                ]
            ),
            ("Ana", "list of card strings"),
        ),
        (
            table(
                players=[
                    {"name": "Ana", "cards": "As Ad", "francois_card": "3c"},
                    {"name": "Bob", "cards": "Qs Qc"},
                ]
            ),
            ("gives a card to François", "classic"),
        ),
        (table(board="A" * 100_000 + "s 7d 9s Jc Kd"), ("AAAAAAAAAAAAAAAAAAAA…",)),
        (
            table(rules={"decks": 2}, board="As 7d 9s Jc Kd"),
            ("appears 3 times", "2 decks"),
        ),
    ],
)
def test_wrong_tables_are_named(
    run: Runner, raw: dict[str, object], words: tuple[str, ...]
) -> None:
    if raw.get("rules") == {"decks": 2}:
        raw["players"] = [{"name": "Ana", "cards": "As As"}, {"name": "Bob", "cards": "Qs Qc"}]
    result = run(["showdown", "-"], json.dumps(raw))
    refused(result, *words)
    assert len(result[2]) < 300


def test_a_token_is_cut_in_french_too(run: Runner) -> None:
    result = run(["showdown", "-", "--lang", "fr"], json.dumps(table(board="x" * 100_000)))
    refused(result, "xxxxxxxxxxxxxxxxxxxx…")


@pytest.mark.parametrize("end", [[], {}, ["go"]])
def test_peg_batch_with_a_list_or_object_as_the_end(run: Runner, end: object) -> None:
    refused(
        run(["crib", "peg", "--batch", "-"], json.dumps([{"cards": "5h 5d", "end": end}])),
        "batch item 1",
    )


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--samples", "1000000000000"], ("--samples", "at most 1000000")),
        (["--seed", "-1"], ("--seed -1", "0 to 4294967295")),
        (["--budget", "1e300"], ("--budget",)),
    ],
)
def test_analyze_options_have_limits(
    run: Runner, options: list[str], words: tuple[str, ...]
) -> None:
    refused(run(["analyze", "-", *options], json.dumps(table())), *words)


FIVE_THOUSAND = "9" * 5000


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--piles", "7h/1000000000", "Kc"], ("--piles 1", "1000000000", "Spit deal")),
        (["--piles", f"7h/{FIVE_THOUSAND}", "Kc"], ("99999999999999999999…",)),
        (["--piles", "7h/300", "Kc"], ("301 cards", "52")),
        (["--piles", "7h/20", "Kc", "--p1", "8d/20", "--p2", "9c/20"], ("61 cards", "52")),
        (
            ["--piles", "7h", "Kc", "--p1", "8d", "--move", f"p1 8d -> pile {FIVE_THOUSAND}"],
            ("Spit deal",),
        ),
    ],
)
def test_spit_positions_past_a_deal_are_refused(
    run: Runner, argv: list[str], words: tuple[str, ...]
) -> None:
    refused(run(["spit", "referee", *argv]), *words)


@pytest.mark.parametrize(
    "argv",
    [
        ["spit", "referee", "--piles", "7h", "Kc", "--p1-spit", "1000000000"],
        ["spit", "referee", "--piles", "7h", "Kc", "--p2-spit", FIVE_THOUSAND],
        ["spit", "referee", "--piles", "7h", "Kc", "--side", "1", FIVE_THOUSAND],
        ["app", "--port", "99999"],
        ["app", "--port", FIVE_THOUSAND],
    ],
)
def test_numeric_options_out_of_range_exit_2(
    run: Runner, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "is not a whole number from" in err and len(err) < 600


@pytest.mark.parametrize(
    ("argv", "document"),
    [
        (["crib", "peg", "--batch", "-"], [{"cards": {"k": "x" * 100_000}}]),
        (["crib", "--batch", "-"], [{"hand": {"k": "x" * 100_000}, "starter": "5h"}]),
        (["showdown", "-"], table(rules={"ranking": "x" * 100_000})),
        (["analyze", "-"], {**table(), "tokens_by_street": {"x" * 100_000: {}}}),
    ],
)
def test_a_huge_value_is_never_echoed_whole(run: Runner, argv: list[str], document: object) -> None:
    result = run(argv, json.dumps(document))
    refused(result)
    assert len(result[2]) < 400


def test_a_process_started_with_standard_input_closed() -> None:
    """``companion showdown - <&-`` itself, in its own process."""
    import os
    import subprocess

    from tests.helpers import ROOT

    done = subprocess.run(
        [sys.executable, "-m", "companion", "showdown", "-"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.close(0),
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "standard input is closed" in done.stderr
