"""Token rules in the CLI (issue #43): the heist JSON's rules.tokens and token_moves, checked by
``companion showdown`` and ``companion analyze``, each refusal one line naming the move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main


def heist(rule: str | None, moves: dict[str, list[dict[str, Any]]], **extra: Any) -> dict[str, Any]:
    table: dict[str, Any] = {
        "board": "As Ks Qs 2d 3c",
        "players": [
            {"name": "Ana", "cards": "Ad Ac"},
            {"name": "Bob", "cards": "Js Ts"},
            {"name": "Cy", "cards": "4h 5h"},
        ],
        "token_moves": moves,
        **extra,
    }
    if rule is not None:
        table["rules"] = {"tokens": rule}
    return table


def run(
    command: str,
    table: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    *args: str,
) -> tuple[int, str, str]:
    path = tmp_path / "heist.json"
    path.write_text(json.dumps(table), encoding="utf-8")
    code = main([command, str(path), *args])
    out, err = capsys.readouterr()
    return code, out, err


LSD_RIVER = [{"by": "Bob", "take": 3}, {"by": "Ana", "take": 1}, {"by": "Cy", "take": 2}]


def test_showdown_names_the_rule_and_takes_the_river_tokens_from_the_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run("showdown", heist("lsd", {"river": LSD_RIVER}), tmp_path, capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Token rule — LSD: take a token from the centre only")
    assert lines[1] == "Token moves, river: 3, legal under the LSD rule"
    assert "ALARM" not in out and lines[2] == "Hands, weakest to strongest:"


def test_showdown_json_carries_the_rule_and_the_holdings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run("showdown", heist("lsd", {"river": LSD_RIVER}), tmp_path, capsys, "--json")
    result = json.loads(out)
    assert code == 0 and result["token_rule"] == "lsd"
    assert result["token_moves"] == {"river": {"Ana": 1, "Cy": 2, "Bob": 3}}
    assert result["vault"]["opens"] is True


@pytest.mark.parametrize(
    ("rule", "river", "message"),
    [
        (
            "lsd",
            [{"by": "Bob", "take": 3}, {"by": "Cy", "take": 3, "from": "Bob"}],
            "companion: the river's token moves: move 2 (Cy takes token 3 from Bob) breaks the "
            "LSD token rule: under LSD a token once taken stays with its holder",
        ),
        (
            "kcarc",
            [{"by": "Ana", "take": 1}],
            "companion: the river's token moves: move 1 (Ana takes token 1) breaks the Kcarc "
            "token rule: under Kcarc no one takes a token for themselves: take one from the "
            "centre and give it to another player",
        ),
        (
            None,
            [{"by": "Ana", "give": 1, "to": "Bob"}],
            "companion: the river's token moves: move 1 (Ana gives token 1 to Bob) breaks the "
            "base token rule: only Kcarc gives tokens; here each player takes their own",
        ),
        (
            None,
            [{"by": "Ana", "take": 1}, {"by": "Bob", "take": 2}],
            "companion: the river's token moves leave token 3 in the centre: a street ends when "
            "every hand holds one; add the missing moves",
        ),
        (
            "base",
            [{"by": "Ana", "take": "one"}],
            "companion: token_moves, river, move 1: the token must be a number, not 'one'",
        ),
    ],
)
def test_an_illegal_move_is_one_line_and_exit_code_2(
    rule: str | None,
    river: list[dict[str, Any]],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command in ("showdown", "analyze"):
        code, out, err = run(command, heist(rule, {"river": river}), tmp_path, capsys)
        assert (code, out, err) == (2, "", message + "\n")


def test_moves_must_end_on_the_tokens_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = heist("lsd", {"river": LSD_RIVER}, tokens={"Ana": 2, "Cy": 1, "Bob": 3})
    code, _, err = run("showdown", table, tmp_path, capsys)
    assert code == 2
    assert err == (
        "companion: the river's token moves leave Ana with token 1, but the tokens recorded "
        "give 2: correct one or the other\n"
    )


def test_a_bad_token_rule_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run("showdown", heist("acid", {}), tmp_path, capsys, "--lang", "fr")
    assert code == 2 and "rules.tokens vaut 'acid'" in err and err.count("\n") == 1


def test_analyze_names_the_rule_and_replays_the_moves_tokens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flop = [
        {"by": "Ana", "give": 3, "to": "Bob"},
        {"by": "Bob", "give": 1, "to": "Ana"},
        {"by": "Bob", "give": 2, "to": "Cy"},
    ]
    table = heist("kcarc", {"flop": flop})
    code, out, err = run("analyze", table, tmp_path, capsys, "--json")
    assert code == 0 and err == ""
    flop_odds = json.loads(out)["streets"][1]
    assert flop_odds["tokens"] == {"Ana": 1, "Bob": 3, "Cy": 2}
    code, out, _ = run("analyze", table, tmp_path, capsys, "--lang", "fr")
    assert code == 0
    assert out.splitlines()[0].startswith("Règle des jetons — Kcarc : on remet son propre jeton")
    assert out.splitlines()[1] == "Coups de jetons, flop : 3, légaux selon la règle Kcarc"


def test_a_table_without_token_rule_or_moves_reads_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = heist(None, {})
    del table["token_moves"]
    code, out, _ = run("showdown", table, tmp_path, capsys)
    assert code == 0 and out.startswith("Hands, weakest to strongest:")


# Crack's own rule (issue #54): Ana puts Bob's token 2 in the centre and takes it.
CRACK_RIVER = [
    {"by": "Ana", "take": 1},
    {"by": "Bob", "take": 2},
    {"by": "Cy", "take": 3},
    {"by": "Ana", "put_back": 2},
    {"by": "Ana", "put_back": 1},
    {"by": "Ana", "take": 2},
    {"by": "Bob", "take": 1},
]


def test_crack_lets_a_player_put_anyones_token_in_the_centre(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run("showdown", heist("crack", {"river": CRACK_RIVER}), tmp_path, capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == (
        "Token rule — Crack: put anyone's token (yours too) in the centre, or take one from "
        "the centre for yourself if you hold none."
    )
    assert lines[1] == "Token moves, river: 7, legal under the Crack rule"
    code, out, _ = run(
        "showdown", heist("crack", {"river": CRACK_RIVER}), tmp_path, capsys, "--json"
    )
    result = json.loads(out)
    assert result["token_rule"] == "crack"
    assert result["token_moves"] == {"river": {"Bob": 1, "Ana": 2, "Cy": 3}}
    # The same moves under the base rule: Ana does not hold Bob's token.
    code, _, err = run("showdown", heist("base", {"river": CRACK_RIVER}), tmp_path, capsys)
    assert code == 2 and "move 4 (Ana puts token 2 back)" in err
    assert "Ana does not hold token 2" in err


def test_crack_refuses_taking_straight_from_a_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    river = [{"by": "Bob", "take": 3}, {"by": "Cy", "take": 3, "from": "Bob"}]
    for command in ("showdown", "analyze"):
        code, out, err = run(command, heist("crack", {"river": river}), tmp_path, capsys)
        assert (code, out) == (2, "")
        assert err == (
            "companion: the river's token moves: move 2 (Cy takes token 3 from Bob) breaks the "
            "Crack token rule: under Crack a token is taken from a player only to put it in the "
            "centre: put it back, then take one from the centre\n"
        )
