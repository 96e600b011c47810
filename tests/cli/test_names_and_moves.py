"""One name in two Unicode spellings is one player, and a street's token moves are bounded, in
``showdown`` and ``analyze`` (#53)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.formats.reading import MAX_CONTAINERS
from companion.formats.token_moves import MAX_MOVES

NFC, NFD = "Chlo\u00e9", "Chloe\u0301"  # "Chloé" as one letter é, and as e + a combining accent
BOARD = "As Ks Qs 2d 3c"


def _run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, table: Any, *argv: str
) -> tuple[int, str, str]:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table), encoding="utf-8")
    code = main([*argv[:1], str(path), *argv[1:]])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def _table(first: str, second: str, **extra: Any) -> dict[str, Any]:
    players = [{"name": first, "cards": "Ad Ac"}, {"name": second, "cards": "Js Ts"}]
    return {"board": BOARD, "players": players, **extra}


@pytest.mark.parametrize("command", ["showdown", "analyze"])
def test_one_name_in_two_spellings_is_one_player_refused_as_a_repeat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    """As Ana and ana are: "Chloé" and "Chloé" were two players."""
    for first, second in ((NFC, NFD), ("Ana", "ana")):
        code, out, err = _run(capsys, tmp_path, _table(first, second), command)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "repeated" in err


def test_tokens_and_moves_keyed_by_either_spelling_meet_the_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Tokens keyed by the NFD spelling were refused: "'Chloé' is not a hand (hands: Chloé and
    Bob)"."""
    for player, key in ((NFC, NFD), (NFD, NFC)):
        table = _table(player, "Bob", tokens={key: 1, "Bob": 2})
        code, out, err = _run(capsys, tmp_path, table, "showdown", "--json")
        assert (code, err) == (0, ""), err
        result = json.loads(out)
        assert result["vault"]["opens"] is True
        assert {hand["owner"] for hand in result["hands"]} == {NFC, "Bob"}
        moves = {"river": [{"by": "Bob", "take": 2}, {"by": key, "take": 1}]}
        code, out, err = _run(
            capsys, tmp_path, _table(player, "Bob", token_moves=moves), "showdown"
        )
        assert (code, err) == (0, "") and "THE VAULT OPENS" in out, err
        recorded = {"flop": {key: 2, "Bob": 1}}
        table = _table(player, "Bob", tokens_by_street=recorded)
        code, out, err = _run(capsys, tmp_path, table, "analyze", "--json", "--samples", "2000")
        assert (code, err) == (0, ""), err
        flop = next(s for s in json.loads(out)["streets"] if s["street"] == "flop")
        assert flop["tokens"] == {NFC: 2, "Bob": 1}


def test_a_hand_given_tokens_under_both_spellings_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table = _table(NFC, "Bob", tokens={NFC: 1, NFD: 2})
    code, out, err = _run(capsys, tmp_path, table, "showdown")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "two tokens" in err and "Unicode" in err


@pytest.mark.parametrize("command", ["showdown", "analyze"])
def test_a_street_of_too_many_token_moves_is_refused_in_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    """Moves had no bound but the reader's 64 MiB: 3 million took showdown 62 s and 1 GB."""
    loop = [{"by": "Ana", "take": 1}, {"by": "Ana", "put_back": 1}] * (MAX_MOVES // 2)
    legal = [*loop, {"by": "Ana", "take": 1}, {"by": "Bob", "take": 2}]
    code, _, err = _run(
        capsys, tmp_path, _table("Ana", "Bob", token_moves={"flop": legal}), command
    )
    assert code == 2 and err.count("\n") == 1
    assert f"token_moves, flop: {MAX_MOVES + 2} moves; a street holds at most {MAX_MOVES}" in err
    french = main([command, str(tmp_path / "table.json"), "--lang", "fr"])
    assert french == 2 and "un tour en compte au plus" in capsys.readouterr().err
    within = [*loop[:-2], {"by": "Ana", "take": 1}, {"by": "Bob", "take": 2}]
    table = _table("Ana", "Bob", token_moves={"flop": within})
    argv = ("--samples", "2000") if command == "analyze" else ()
    assert _run(capsys, tmp_path, table, command, *argv)[0] == 0


def test_a_document_of_too_many_lists_and_objects_is_refused_before_it_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """3 million moves (57 MB, under the 64 MiB limit) took a minute and 900 MB to read, before
    the street's bound could see them."""
    moves = {"flop": [{"by": "Ana", "take": 1}] * (MAX_CONTAINERS + 1)}
    code, out, err = _run(capsys, tmp_path, _table("Ana", "Bob", token_moves=moves), "showdown")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"holds more than {MAX_CONTAINERS} lists and objects" in err
