from __future__ import annotations

import json

import pytest

from companion.cli import COMMANDS, main
from companion.engine.cards import parse_card
from companion.engine.spit import Spit, Take, Turn
from companion.engine.spit.referee import CardPlay, CardShift, PileView
from companion.errors import CardParseError, InputError
from companion.formats.spit import parse_move, parse_pile

BASE = ("spit referee --piles 7h Kc --p1 8d 2s ? - 9c/3 --p2 Qh 5c --p1-spit 4 --p2-spit 6").split()


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_spit_is_a_command() -> None:
    assert "spit" in COMMANDS


def test_referee_readable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*BASE, "--move", "p1 8d -> pile 1"], capsys)
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "player 1: 8♦ → pile 1 (on 7♥)",
        "player 1: turn up stock 3",
        "player 1: move 9♣ from stock 5 to the empty stock 4",
        "player 2: Q♥ → pile 2 (on K♣)",
        "player 1: 8♦ → pile 1 is legal",
    ]


def test_referee_french_illegal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*BASE, "--move", "j2 5c sur tas 1", "--lang", "fr"], capsys)
    assert code == 0
    assert out.splitlines()[-1] == (
        "joueur 2 : 5♣ → tas 1 est interdit : 5♣ n'est pas d'un rang au-dessus ou au-dessous de 7♥"
    )


def test_referee_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*BASE, "--move", "p1 9c -> stock 4", "--json"], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["situation"] == "play" and data["stuck"] is False
    assert data["plays"]["p1"][0] == {
        "kind": "play",
        "text": "player 1: 8♦ → pile 1 (on 7♥)",
        "card": "8d",
        "player": 1,
        "stock": 1,
        "pile": 1,
    }
    assert [p["kind"] for p in data["plays"]["p1"]] == ["play", "turn", "shift"]
    assert data["plays"]["p2"][0]["card"] == "Qh"
    assert data["move"]["legal"] is True and data["move"]["rule"] is None


def test_referee_stuck_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = (
        "spit referee --piles 7h Kc --p1 2s --p2 5c --p1-spit 3 --p2-spit 3 --json --move"
    ).split() + ["p1 2s -> pile 1"]
    code, out, _ = run(argv, capsys)
    data = json.loads(out)
    assert data["stuck"] is True and data["situation"] == "both_spit"
    assert data["lines"][0] == "stuck: both spit"
    assert data["move"]["rule"] == "rank_not_adjacent"
    assert data["move"]["reason"] == "illegal move: 2♠ is not one rank above or below 7♥"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--p2", "Qh", "5x"], "'5x' is not a card (--p2 stock 2)"),
        (["--p1", "8d", "*"], "'*' is not a card (--p1 stock 2; Spit has no wild cards)"),
        (["--p1", "8d", "7h"], "7♥ appears twice"),
        (["--move", "p1 8q -> pile 1"], "'8q' is not a card (--move)"),
        (["--move", "p3 8d -> pile 1"], "cannot read the move 'p3 8d -> pile 1'"),
        (["--move", "p1 8d -> pile 3"], "there is no pile 3"),
        (["--move", "p1 turn 6"], "there is no stock 6"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([*BASE, *argv], capsys)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and needle in err


def test_bad_input_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run([*BASE, "--p2", "Zz", "--lang", "fr"], capsys)
    assert code == 2 and "'Zz' n'est pas une carte" in err


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("p1 8d -> pile 1", CardPlay(0, parse_card("8d"), 0)),
        ("P2 plays 10h on pile 2", CardPlay(1, parse_card("Th"), 1)),
        ("j1 8d → tas 2", CardPlay(0, parse_card("8d"), 1)),
        ("p2 9c -> stock 4", CardShift(1, parse_card("9c"), 3)),
        ("p1 turn 3", Turn(0, 2)),
        ("p1 turn stock 3", Turn(0, 2)),
        ("spit", Spit()),
        ("spit pile 2", Spit(1)),
        ("p2 takes pile 1", Take(1, 0)),
        ("j1 prend le tas 2", Take(0, 1)),
        ("j2 joue 8d sur le tas 1", CardPlay(1, parse_card("8d"), 0)),
        ("spit on pile 1", Spit(0)),
    ],
)
def test_parse_move(text: str, move: object) -> None:
    assert parse_move(text, 5) == move


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("7h", PileView(parse_card("7h"), 1)),
        ("7h/3", PileView(parse_card("7h"), 3)),
        ("?", PileView(None, 1)),
        ("?/4", PileView(None, 4)),
        ("-", PileView(None, 0)),
        ("7h/x", CardParseError),
        ("/3", CardParseError),
    ],
)
def test_parse_pile(token: str, expected: object) -> None:
    if isinstance(expected, PileView):
        assert parse_pile(token, "test") == expected
    else:
        with pytest.raises(CardParseError):
            parse_pile(token, "test")


def test_parse_move_rejects_gibberish() -> None:
    with pytest.raises(InputError):
        parse_move("please rule", 5)


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["spit", "simulate", "--games", "5", "--seed", "3", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["seed"] == 3
    assert [r["rules"] for r in data["results"]] == [
        "classic",
        "four-stocks",
        "alternate",
        "chooser",
        "speed",
        "speed-20",
    ]
    assert all(r["games"] == 5 and r["failures"] == [] for r in data["results"])
    assert all(sum(r["wins"].values()) == 5 for r in data["results"])


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["spit", "simulate", "--games", "3", "--seed", "8", "--rules", "speed", "--json"]
    run(argv, capsys)
    first = json.loads(capsys.readouterr().out or "null")
    main(argv)
    second = json.loads(capsys.readouterr().out)
    for data in (first, second):
        if data is not None:
            for r in data["results"]:
                r.pop("seconds"), r.pop("games_per_second")
    assert first is None or first == second


def test_simulate_move_cap_fails_with_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["spit", "simulate", "--games", "2", "--rules", "classic", "--max-moves", "5"], capsys
    )
    assert code == 1
    assert out.splitlines()[0].startswith("classic      2 games, 10 moves")
    assert "2 failures" in out and "did not end within 5 moves" in out


def test_help_documents_the_flags(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["spit", "referee", "--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0
    for flag in (
        "--piles",
        "--p1",
        "--p2-spit",
        "--only-pile",
        "--side",
        "--move",
        "--json",
        "--lang",
        "--rules",
        '"p1 8d -> pile 1"',
        "?/3",
    ):
        assert flag in out


@pytest.mark.parametrize(
    ("spits", "situation", "stuck"),
    [
        (("3", "3"), "both_spit", True),
        (("0", "3"), "spit_alone", True),
        (("0", "0"), "stuck_no_spit", True),
    ],
)
def test_referee_stuck_situations(
    spits: tuple[str, str], situation: str, stuck: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = "spit referee --piles 7h/2 Kc --p1 2s --p2 5c --json".split()
    code, out, _ = run([*argv, "--p1-spit", spits[0], "--p2-spit", spits[1]], capsys)
    data = json.loads(out)
    assert code == 0 and data["situation"] == situation and data["stuck"] is stuck


def test_referee_speed_hands(capsys: pytest.CaptureFixture[str]) -> None:
    argv = "spit referee --rules speed --piles 7h Kc --p1 8d 3c --p2 Qh --side 2 2".split()
    code, out, _ = run([*argv, "--p1-spit", "9", "--move", "p2 3c -> pile 1"], capsys)
    assert code == 0
    assert out.splitlines() == [
        "player 1: 8♦ → pile 1 (on 7♥)",
        "player 2: Q♥ → pile 2 (on K♣)",
        "player 2: 3♣ → pile 1 is illegal: 3♣ is not in player 2's hand",
    ]


def test_referee_plays_variations_together(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["spit", "referee", "--rules", "alternate+four-stocks", "--piles", "7h", "Kc"]
    argv += ["--p1", "8d", "2s", "--p2", "Qh", "5c", "--move", "p1 8d -> pile 1"]
    code, out, _ = run(argv, capsys)
    assert code == 0 and "colours must alternate" in out
    code, out, err = run(
        ["spit", "referee", "--rules", "speed+chooser", "--piles", "7h", "Kc"], capsys
    )
    assert code == 2 and not out and err.count("\n") == 1
    assert "cannot be played together" in err


def test_simulate_counts_speed_points(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["spit", "simulate", "--rules", "speed", "--games", "5", "--json"], capsys)
    (result,) = json.loads(out)["results"]
    assert code == 0 and set(result["points"]) == {"p1", "p2"}
    code, out, _ = run(["spit", "simulate", "--rules", "classic", "--games", "2", "--json"], capsys)
    assert json.loads(out)["results"][0]["points"] is None


LONE = "spit referee --piles 7h/3 - --only-pile 1 --p1 --p1-spit 2 --p2 Qh 5c".split()


@pytest.mark.parametrize("rules", [[], ["--rules", "chooser"], ["--rules", "four-stocks+chooser"]])
def test_the_lone_pile_goes_to_the_player_who_did_not_empty_their_stock(
    rules: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #54's command: player 1 emptied their stock, pile 1 is the only spit pile."""
    code, out, err = run([*LONE, *rules, "--move", "p2 takes pile 2"], capsys)
    assert (code, err) == (0, "")
    assert "slap either pile" not in out and "chooses a pile" not in out
    assert out.splitlines()[1:] == [
        "a single spit pile: player 1 emptied their stock and takes none of the centre; "
        "player 2 takes pile 1",
        "player 2 takes pile 1",
        "player 2 takes pile 2 is illegal: player 1 emptied their stock and there is a single "
        "spit pile: they take none of the centre, and player 2 takes pile 1",
    ]
    code, out, _ = run([*LONE, *rules, "--move", "p1 takes pile 1"], capsys)
    assert out.splitlines()[-1].startswith("player 1 takes pile 1 is illegal")
    code, out, _ = run([*LONE, *rules, "--move", "p2 takes pile 1"], capsys)
    assert out.splitlines()[-1] == "player 2 takes pile 1 is legal"
