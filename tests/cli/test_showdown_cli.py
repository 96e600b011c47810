from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.cli import main
from tests.helpers import ROOT

EXAMPLE = ROOT / "examples" / "heist.json"


def run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    stdin: str | None = None,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> tuple[int, str, str]:
    if stdin is not None and monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["showdown", str(EXAMPLE), "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"hands", "order", "vault"}
    hand = next(h for h in result["hands"] if h["id"] == "Dan")
    assert hand["owner"] == "Dan" and hand["category"] == "three_of_a_kind"
    assert sorted(hand["best"]) == sorted(["9h", "9s", "9d", "Kh", "Js"])
    assert hand["description"] == "three nines"
    assert result["order"] == [["Chloé"], ["Ana"], ["Bob"], ["Dan"]]
    assert result["vault"]["opens"] is False
    (failure,) = result["vault"]["failures"]
    assert failure["hand"] == "Ana" and failure["token"] == 3 and failure["beaten_by"] == "Bob"
    assert failure["reason"].endswith("second pair 9 over 7")


def test_french_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["showdown", str(EXAMPLE), "--lang", "fr"], capsys)
    assert code == 0
    assert "ALARME" in out and "deuxième paire 9 contre 7" in out


def test_array_of_tables_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = [
        {
            "board": "As Ks Qs Js Ts",
            "players": [{"name": "A", "cards": ["2c", "3c"]}, {"name": "B", "cards": "4d 5d"}],
        },
        {
            "variant": "two-of-four",
            "rules": {"ranking": "low-a5"},
            "board": "Kh Qd 9s 3c 2d",
            "players": [
                {"name": "A", "cards": "Ah 4s Kc Kd"},
                {"name": "B", "cards": "7h 6h 8c 8d"},
            ],
            "tokens": {"A": 2, "B": 1},
        },
    ]
    code, out, _ = run(["showdown", "-", "--json"], capsys, json.dumps(tables), monkeypatch)
    assert code == 0
    first, second = json.loads(out)
    assert first["order"] == [["A", "B"]] and first["vault"] is None
    assert second["vault"]["opens"] is True


@pytest.mark.parametrize(
    ("document", "words"),
    [
        (
            '{"board": "As Ks Qs Js", "players": [{"name": "A", "cards": "2c 3c"}, '
            '{"name": "B", "cards": "4c 5c"}]}',
            "river has 4 cards",
        ),
        (
            '{"board": "As Ks Qs Js Ts", "players": [{"name": "Ana", "cards": "2c 1c"}, '
            '{"name": "B", "cards": "4c 5c"}]}',
            "'1c' is not a card (Ana's hand)",
        ),
        (
            '{"board": "As Ks Qs Js Ts", "players": [{"name": "Ana", "cards": "As 3c"}, '
            '{"name": "B", "cards": "4c 5c"}]}',
            "A♠ appears twice (the river and Ana)",
        ),
        ('{"board": "As Ks Qs Js Ts"}', "needs 'board' and 'players'"),
        ('{"board": "As Ks Qs Js Ts", "players": [], "tokenz": {}}', "unknown field(s): tokenz"),
        (
            '{"board": "As Ks Qs Js Ts", "players": [{"name": "A", "cards": "2c 3c"}, '
            '{"name": "B", "cards": "4c 5c"}], "rules": {"ranking": "lowball"}}',
            "rules.ranking",
        ),
        ("[1, 2", "not valid JSON"),
        ('[{"board": "As Ks Qs Js Ts", "players": []}]', "table 1:"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    document: str, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["showdown", "-", "--json"], capsys, document, monkeypatch)
    assert code == 2
    assert out == ""
    assert words in err and err.count("\n") == 1


def test_missing_file_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(["showdown", str(tmp_path / "nope.json")], capsys)
    assert code == 2 and out == "" and "nope.json" in err


def test_french_error(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    document = '{"board": "As Ks Qs Js", "players": []}'
    code, _, err = run(["showdown", "-", "--lang", "fr"], capsys, document, monkeypatch)
    assert code == 2 and "la rivière a 4 cartes" in err


def test_wild_cards_show_what_they_play_as(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    document = json.dumps(
        {
            "board": "9h Tc Jd 2s 3c",
            "players": [{"name": "A", "cards": "* Qs"}, {"name": "B", "cards": "*s *h"}],
        }
    )
    code, out, _ = run(["showdown", "-", "--json"], capsys, document, monkeypatch)
    assert code == 0
    hands = {h["id"]: h for h in json.loads(out)["hands"]}
    assert (
        hands["A"]["category"] == "straight" and hands["A"]["description"] == "straight, king high"
    )
    assert "Kh" in hands["A"]["played_as"] or "Ks" in hands["A"]["played_as"]


ISSUE_43_TWO_DECKS = {
    "rules": {"decks": 2},
    "board": ["As", "Ks", "Qs", "2d", "3c"],
    "players": [{"name": "Ana", "cards": ["As", "9s"]}, {"name": "Bob", "cards": ["9s", "8s"]}],
    "tokens": {"Ana": 2, "Bob": 1},
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_flush_holding_a_pair_opens_the_vault_and_is_explained(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """Issue #43's table: A A K Q 9 beats A K Q 9 8; swapped tokens say why, without a crash."""
    code, out, _ = run(
        ["showdown", "-", "--json", "--lang", lang],
        capsys,
        json.dumps(ISSUE_43_TWO_DECKS),
        monkeypatch,
    )
    assert code == 0
    result = json.loads(out)
    assert result["order"] == [["Bob"], ["Ana"]] and result["vault"]["opens"] is True
    swapped = {**ISSUE_43_TWO_DECKS, "tokens": {"Ana": 1, "Bob": 2}}
    code, out, err = run(
        ["showdown", "-", "--lang", lang], capsys, json.dumps(swapped), monkeypatch
    )
    assert code == 0 and not err
    assert ("second card A over K" if lang == "en" else "deuxième carte A contre K") in out


def test_a_lowball_joker_is_the_lowest_card_missing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #43: at deuce-to-seven Ana's joker is the 2 she lacks (6-5-4-3-2 is a straight), not
    the 8 that would make her 8-6-5-4-3, so her best low is K-5-4-3-2 and Bob's Q-6-5-4-2 wins."""
    table = {
        "rules": {"ranking": "low-27"},
        "board": "6h 5c 4d Kd Kc",
        "players": [{"name": "Ana", "cards": "* 3s"}, {"name": "Bob", "cards": "Qs 2h"}],
        "tokens": {"Ana": 2, "Bob": 1},
    }
    code, out, _ = run(["showdown", "-", "--json"], capsys, json.dumps(table), monkeypatch)
    assert code == 0
    result = json.loads(out)
    assert result["order"] == [["Ana"], ["Bob"]] and result["vault"]["opens"] is False
    ana = next(h for h in result["hands"] if h["id"] == "Ana")
    assert ana["description"] == "K-5-4-3-2"
    assert sorted(c[0] for c in ana["played_as"]) == sorted("K5432")


def test_the_dog_is_shown_in_text_and_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = {
        "board": "As Ks Qs 2d 3c",
        "burned": "Kh 7d *",
        "players": [{"name": "Ana", "cards": "Ad Ac"}, {"name": "Bob", "cards": "Js Ts"}],
    }
    code, out, _ = run(["showdown", "-", "--lang", "fr"], capsys, json.dumps(table), monkeypatch)
    assert code == 0
    assert "Le chien (les cartes brûlées) : paire de rois [K♥ * 7♦], qui bat tout le monde" in out
    code, out, _ = run(["showdown", "-", "--json"], capsys, json.dumps(table), monkeypatch)
    dog = json.loads(out)["dog"]
    assert dog["category"] == "pair" and dog["beats"] == ["Ana", "Bob"]
    assert dog["played_as"] == ["Kh", "Ks", "7d"]


# -- issue #54: a full circle, and the tarot's trumps -----------------------------------------

CIRCLE = {
    "variant": "circular",
    "board": "Qh 9c 8d 4s 2h",
    "players": [
        {"name": "Ana", "cards": "Ah Kd"},
        {"name": "Bob", "cards": "2c 3c"},
        {"name": "Cy", "cards": "7s 7d"},
    ],
    "shared": [{"between": ["Ana", "Bob"], "cards": "Ts Js"}],
}


def test_a_circle_missing_a_neighbours_hand_is_refused_naming_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["showdown", "-"], capsys, json.dumps(CIRCLE), monkeypatch)
    assert (code, out) == (2, "")
    assert err == (
        "companion: the shared hand Bob+Cy is missing: at the circular variant each two "
        "neighbours share a hand, so 3 players make 6 hands\n"
    )
    full = {
        **CIRCLE,
        "shared": CIRCLE["shared"]
        + [  # type: ignore[operator]
            {"between": ["Bob", "Cy"], "cards": "5h 6h"},
            {"between": ["Cy", "Ana"], "cards": "9s 9h"},
        ],
    }
    code, out, _ = run(["showdown", "-", "--json"], capsys, json.dumps(full), monkeypatch)
    assert code == 0 and len(json.loads(out)["hands"]) == 6


def test_more_jokers_than_the_tarot_trumps_are_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = {
        "board": "As Ks Qs 2d 3c",
        "players": [{"name": "Ana", "cards": "* " * 12}, {"name": "Bob", "cards": "* " * 11}],
    }
    code, out, err = run(["showdown", "-"], capsys, json.dumps(table), monkeypatch)
    assert (code, out) == (2, "")
    assert err == (
        "companion: 23 jokers, in Ana (12 times) and Bob (11 times), but a one-deck game has "
        "the tarot's 22 trumps (the excuse included): check the cards, or set decks to 2\n"
    )
