"""``crib --photo`` and ``spit referee --photo`` with the real ONNX model on rendered photos.

The photos (tests/fixtures/images, ``photo_labels.json``) are drawn by
``companion.vision.training.render`` with known cards; each photo's ruling must be the typed
ruling of its labels.
``COMPANION_MODEL`` points the tests at another model file (a candidate from training).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.cli._photo import unsure_note
from companion.engine.cards import parse_card
from companion.vision import DEFAULT_MODEL
from companion.vision.layouts.places import SeenCard
from tests.helpers import FIXTURES

LABELS = json.loads((FIXTURES / "photo_labels.json").read_text())
SPIT = [e for e in LABELS if e["kind"] == "spit"]
SHOWS = [e for e in LABELS if e["kind"] == "show"]
MODEL = Path(os.environ.get("COMPANION_MODEL", DEFAULT_MODEL))

needs_model = pytest.mark.skipif(
    not MODEL.is_file(),
    reason=f"{MODEL} is not in this checkout (the vision branch ships the trained model)",
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    return json.loads(out)


def photo(name: str) -> list[str]:
    return ["--photo", str(FIXTURES / name), "--model", str(MODEL)]


def pretty(code: str) -> str:
    return parse_card(code, "label").pretty()


def read_cards(seen: list[dict[str, Any]]) -> list[str]:
    return [entry["card"] for entry in seen]


@needs_model
@pytest.mark.parametrize("entry", SHOWS, ids=[e["image"] for e in SHOWS])
def test_show_photo_counts_like_the_typed_hand(
    capsys: pytest.CaptureFixture[str], entry: dict[str, Any]
) -> None:
    result = run_json(capsys, "crib", *photo(entry["image"]), "--json")
    assert read_cards(result["photo"]["hand"]) == entry["hand"]
    assert result["photo"]["starter"]["card"] == entry["starter"]
    assert result["total"] == entry["total"]
    typed = run_json(capsys, "crib", *entry["hand"], "--starter", entry["starter"], "--json")
    assert {k: v for k, v in result.items() if k != "photo"} == typed


@needs_model
def test_show_photo_text_names_what_was_read(capsys: pytest.CaptureFixture[str]) -> None:
    entry = SHOWS[0]
    code, out, _ = run(capsys, "crib", *photo(entry["image"]), "--lang", "fr")
    lines = out.splitlines()
    assert code == 0
    # An unsure read may add " — vérifiez ..." to the line.
    assert lines[0].startswith(
        f"{FIXTURES / entry['image']} : main lue 4♣ 5♦ 6♥ K♣, carte de départ 5♠ "
        "(la carte à part du rang)"
    )
    assert lines[-1].startswith(f"total : {entry['total']} ")


@needs_model
@pytest.mark.parametrize("entry", SPIT, ids=[e["image"] for e in SPIT])
def test_spit_photo_rules_like_the_typed_position(
    capsys: pytest.CaptureFixture[str], entry: dict[str, Any]
) -> None:
    result = run_json(capsys, "spit", "referee", *photo(entry["image"]), "--json")
    seen = result.pop("photo")
    assert read_cards(seen["piles"]) == entry["piles"]
    assert read_cards(seen["p1"]) == [c for c in entry["p1"] if c]
    assert read_cards(seen["p2"]) == [c for c in entry["p2"] if c]
    stocks = [[c for c in entry[p] if c] for p in ("p1", "p2")]
    typed = run_json(
        capsys, "spit", "referee", "--piles", *entry["piles"], "--p1", *stocks[0],
        "--p2", *stocks[1], "--p1-spit", "1", "--p2-spit", "1", "--json",
    )  # fmt: skip
    assert result == typed


@needs_model
def test_face_down_tops_join_the_photo_read(capsys: pytest.CaptureFixture[str]) -> None:
    entry = SPIT[0]
    argv = [*photo(entry["image"]), "--p1-down", "1", "--move", "p1 turn 5", "--json"]
    result = run_json(capsys, "spit", "referee", *argv)
    del result["photo"]
    stocks = [[c for c in entry[p] if c] for p in ("p1", "p2")]
    typed = run_json(
        capsys, "spit", "referee", "--piles", *entry["piles"], "--p1", *stocks[0], "?",
        "--p2", *stocks[1], "--p1-spit", "1", "--p2-spit", "1", "--move", "p1 turn 5", "--json",
    )  # fmt: skip
    assert result == typed
    assert result["move"]["legal"] is True


@needs_model
def test_stuck_spit_photo_says_both_spit(capsys: pytest.CaptureFixture[str]) -> None:
    (entry,) = [e for e in SPIT if e["image"] == "spit_layout_02.jpg"]
    code, out, _ = run(capsys, "spit", "referee", *photo(entry["image"]))
    assert code == 0
    piles, p1, p2 = (" ".join(pretty(c) for c in entry[k] if c) for k in ("piles", "p1", "p2"))
    lines = out.splitlines()
    assert lines[0].startswith(f"{FIXTURES / entry['image']}: piles {piles}; player 1 {p1}; ")
    assert lines[0].split(" — check")[0].endswith(f"; player 2 {p2}")
    assert lines[1:] == ["stuck: both spit"]


@needs_model
def test_spit_photo_with_a_disputed_move(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(
        capsys, "spit", "referee", *photo("spit_layout_01.jpg"), "--move", "p2 5c -> pile 1",
        "--json",
    )  # fmt: skip
    assert result["move"]["legal"] is False
    assert result["move"]["rule"] == "rank_not_adjacent"


def card_count(entry: dict[str, Any]) -> int:
    keys = ("piles", "p1", "p2") if entry["kind"] == "spit" else ("hand",)
    return sum(1 for key in keys for code in entry[key] if code) + (entry["kind"] == "show")


@needs_model
def test_a_spit_photo_is_no_show(capsys: pytest.CaptureFixture[str]) -> None:
    entry = SPIT[0]
    code, out, err = run(capsys, "crib", *photo(entry["image"]))
    assert (code, out) == (2, "")
    assert f"{FIXTURES / entry['image']}: read {card_count(entry)} cards (" in err
    assert "a show photo needs 5" in err


@needs_model
def test_a_show_photo_is_no_spit_layout(capsys: pytest.CaptureFixture[str]) -> None:
    entry = SHOWS[0]
    code, out, err = run(capsys, "spit", "referee", *photo(entry["image"]))
    assert (code, out) == (2, "")
    # The hand's row and the starter above it: two rows, not three.
    assert f"{FIXTURES / entry['image']}: read {card_count(entry)} cards in 2 rows (" in err


@pytest.mark.parametrize("command", [["crib"], ["spit", "referee"]])
@pytest.mark.parametrize(
    ("content", "reason"),
    [(None, "No such file"), (b"", "empty file"), (b"not a photo", "not an image format")],
)
def test_unreadable_photos_are_named(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    command: list[str],
    content: bytes | None,
    reason: str,
) -> None:
    path = tmp_path / "table.jpg"
    if content is not None:
        path.write_bytes(content)
    code, out, err = run(capsys, *command, "--photo", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"companion: {path}: cannot be read as an image")
    assert reason in err


def test_a_missing_model_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "none.onnx"
    code, _, err = run(
        capsys, "crib", "--photo", str(FIXTURES / "crib_show_01.jpg"), "--model", str(missing)
    )
    assert code == 2
    assert f"cannot load the card model {missing}: file not found" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["crib", "4c", "--photo", "x.jpg"], "--photo reads the cards itself: drop 4c"),
        (["crib", "--starter", "5s", "--photo", "x.jpg"], "drop --starter"),
        (["spit", "referee", "--piles", "7h", "Kc", "--photo", "x.jpg"], "drop --piles"),
        (["spit", "referee", "--p1", "8d"], "give the two spit pile tops with --piles"),
    ],
)
def test_photo_and_typed_cards_do_not_mix(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert message in err


@pytest.mark.parametrize(
    ("lang", "note"),
    [("en", " — check 5♦ (62%) and K♣ (79%)"), ("fr", " — vérifiez 5♦ (62 %) et K♣ (79 %)")],
)
def test_unsure_reads_are_named_after_the_read_line(lang: str, note: str) -> None:
    seen = [
        SeenCard(parse_card(code, "test"), 0.0, 0.0, conf, i)
        for i, (code, conf) in enumerate((("4c", 0.99), ("Kc", 0.79), ("5d", 0.62), ("5s", 0.93)))
    ]
    assert unsure_note(seen, lang) == note
    assert unsure_note(seen[:1], lang) == ""
