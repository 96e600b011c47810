import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.engine.cards import parse_card
from companion.vision import Detections
from companion.vision.base.alternatives import Alternative
from companion.vision.layouts.expect import Expect, Fit
from companion.vision.layouts.gang import Grouping
from companion.vision.layouts.places import SeenCard
from companion.vision.training.evaluate import (
    Doubts,
    Misreads,
    Offered,
    doubts,
    expect_of,
    flag_line,
    grouping_exact,
    main,
    misreads,
    offered,
    score_cards,
    stray_unread,
)
from tests.helpers import FIXTURES, cards


@pytest.mark.parametrize(
    ("found", "truth", "tp", "fp", "fn"),
    [
        (["As", "Td"], ["As", "Td"], 2, 0, 0),
        (["As", "As"], ["As"], 1, 1, 0),
        (["As"], ["As", "As"], 1, 0, 1),
        ([], ["2c"], 0, 0, 1),
        (["Kh"], [], 0, 1, 0),
    ],
)
def test_multiset_match(found, truth, tp, fp, fn) -> None:
    score = score_cards(found, truth)
    assert (score.true_pos, score.false_pos, score.false_neg) == (tp, fp, fn)


@pytest.mark.parametrize(
    ("found", "tp", "fp", "fn"),
    [
        (["As", "9c"], 1, 0, 0),  # the partly hidden 9c read: not counted
        (["As"], 1, 0, 0),  # ... nor missed
        (["As", "9c", "9c"], 1, 1, 0),  # only one 9c lies partly hidden
        (["As", "9s"], 1, 1, 0),  # a misread of it is still an extra
        (["9c"], 0, 0, 1),
    ],
)
def test_partly_hidden_cards_count_neither_way(found, tp, fp, fn) -> None:
    score = score_cards(found, ["As"], partly=["9c"])
    assert (score.true_pos, score.false_pos, score.false_neg) == (tp, fp, fn)


def test_f1_of_half_right() -> None:
    score = score_cards(["As", "Kd"], ["As", "Qd"])
    assert score.precision == score.recall == score.f1 == 0.5


@pytest.mark.parametrize(
    ("river", "hands", "exact"),
    [
        (("9h", "8c", "2h", "4c", "Js"), (("Kh", "3c"), ("Qs", "3s")), True),
        (("8c", "9h", "2h", "4c", "Js"), (("3s", "Qs"), ("3c", "Kh")), True),
        (("9h", "8c", "2h", "4c"), (("Kh", "3c"), ("Qs", "3s"), ("Js",)), False),
        (("9h", "8c", "2h", "4c", "Js"), (("Kh", "3c", "Qs"), ("3s",)), False),
    ],
)
def test_grouping_exact(river, hands, exact) -> None:
    truth = {
        "table": ["9h", "8c", "2h", "4c", "Js"],
        "P1": None,
        "P2": ["3c", "Kh"],
        "P3": ["Qs", "3s"],
    }
    groups = Grouping(_seen(river), tuple(_seen(hand) for hand in hands), 1.0)
    assert grouping_exact(groups, truth) is exact


def _seen(codes: tuple[str, ...]) -> tuple[SeenCard, ...]:
    return tuple(SeenCard(card, 0.0, 0.0, 1.0, i) for i, card in enumerate(cards(" ".join(codes))))


def test_expect_of_a_table_scene_comes_from_its_labels() -> None:
    truth = {"table": ["9h", "8c", "2h", "4c", "Js"], "P1": None, "P2": ["3c", "Kh"]}
    assert expect_of(truth) == Expect(5, 1, 2)
    assert expect_of({"table": ["9h", "8c", "2h"], "P1": None}) == Expect(3, 0, 2)


def _detections(codes: str, confidence: list[float], check: list[bool]) -> Detections:
    n = len(confidence)
    return Detections(
        cards(codes), np.array(confidence), np.zeros((n, 4)), np.zeros((n, 4, 2)), np.array(check)
    )


@pytest.mark.parametrize(
    ("codes", "check", "missing", "stray", "silent", "flagged"),
    [
        ("As Kd", [False, False], 0, (), 0, 0),
        ("As Qd", [False, True], 0, (), 0, 0),  # a misread, flagged: checking it fixes the miss
        ("As Qd", [False, False], 0, (), 2, 0),  # a misread nothing points to
        ("As Qd", [False, False], 0, (1,), 0, 0),  # ... but stray: not in play
        ("As", [True], 0, (), 1, 1),  # a miss with no count
        ("As", [False], 1, (), 0, 0),  # ... counted missing
    ],
)
def test_silent_errors_are_those_nothing_points_to(
    codes: str,
    check: list[bool],
    missing: int,
    stray: tuple[int, ...],
    silent: int,
    flagged: int,
) -> None:
    det = _detections(codes, [0.99, 0.9][: len(check)], check)
    seen = [
        SeenCard(c, 0.0, 0.0, 0.9, i, f)
        for i, (c, f) in enumerate(zip(det.cards, check, strict=True))
    ]
    groups = Grouping((), (), 1.0, tuple(seen[i] for i in stray), Fit(missing, ()), Fit(0, ()))
    found = doubts(det, ["As", "Kd"], groups)
    assert found.silent == silent and found.right_flagged == flagged
    assert found.right == 1 + (codes == "As Kd")


def test_flags_are_told_as_the_shares_of_right_and_wrong_cards_flagged() -> None:
    found = Doubts(0, 1, 3, 1, 1) + Doubts(1, 2, 57, 2, 3)
    assert (found.right_share, found.wrong_share) == (0.05, 0.75)
    assert flag_line("780", found) == (
        "780: right cards flagged 3/60 (5.0%), wrong reads flagged 3/4 (75.0%), silent errors 1"
    )
    # A set with no wrong read has flagged none of them, not divided by zero.
    assert Doubts(0, 0, 5, 0, 0).wrong_share == 0.0


@pytest.mark.parametrize(
    ("found", "truth", "want"),
    [
        (["As", "Kd"], ["As", "Kd"], Misreads()),
        (["Ad"], ["As"], Misreads(colour=1)),  # red read for black
        (["Jc"], ["Jd"], Misreads(colour=1, courts=1)),
        (["Js", "Js"], ["Jc", "Js"], Misreads(suit=1, courts=1)),  # the same card twice
        # Of two missed cards of the rank, the one of the read's colour is the one misread.
        (["9c"], ["9h", "9s"], Misreads(suit=1)),
        (["8h"], ["6h"], Misreads(rank=1)),
        (["8h", "2c"], [], Misreads(other=2)),  # extra reads, nothing missed
        (["8h"], ["6c"], Misreads(other=1)),  # rank and suit both wrong
    ],
)
def test_wrong_reads_are_told_by_what_was_misread(
    found: list[str], truth: list[str], want: Misreads
) -> None:
    assert misreads(found, truth) == want
    assert misreads(found, truth) + Misreads(rank=1) == replace(want, rank=want.rank + 1)


@pytest.mark.parametrize(
    ("faces", "missing", "silent"),
    [
        (0, 0, 2),  # two cards missed with nothing pointing to them
        (1, 0, 1),  # one face seen and reported unread stands for one of them
        (2, 0, 0),
        (1, 1, 1),  # a face and a count may be the same card: the larger tells, not the sum
        (2, 1, 0),
        (0, 2, 0),
    ],
)
def test_an_unread_card_face_stands_for_one_missed_card(
    faces: int, missing: int, silent: int
) -> None:
    quads = np.tile(np.array([[0, 0], [10, 0], [10, 14], [0, 14]], np.float32), (faces, 1, 1))
    det = Detections(
        cards("As"), np.array([0.99]), np.zeros((1, 4)), np.zeros((1, 4, 2)), unread=quads
    )
    groups = Grouping((), (), 1.0, (), Fit(missing, ()), Fit(0, ()))
    assert doubts(det, ["As", "Kd", "7h"], groups).silent == silent


def test_a_missing_count_stands_first_for_the_hidden_cards_of_the_layout() -> None:
    # Three cards laid, one index hidden (not labelled), one more missed: the table is two
    # cards short, and only one of them is a miss the count reports.
    det = _detections("As", [0.99], [False])
    groups = Grouping((), (), 1.0, (), Fit(2, ()), Fit(0, ()))
    assert doubts(det, ["As", "Kd"], groups, hidden=1).silent == 0
    assert (
        doubts(
            det, ["As", "Kd"], Grouping((), (), 1.0, (), Fit(1, ()), Fit(0, ())), hidden=1
        ).silent
        == 1
    )


def test_a_hidden_card_read_from_its_partly_hidden_index_leaves_the_count_to_a_miss() -> None:
    # Three cards laid: Qc's index half hidden (partly_hidden, one of the hidden_cards) yet
    # read, Kd missed. The table is one card short, and that count reports Kd.
    det = _detections("As Qc", [0.99, 0.5], [False, True])
    groups = Grouping((), (), 1.0, (), Fit(1, ()), Fit(0, ()))
    told = doubts(det, ["As", "Kd"], groups, ["Qc"], hidden=1, hidden_cards=["Qc"])
    assert told.silent == 0 and told.wrong == 0
    # Without the codes the count stands for the hidden card, and Kd's miss is silent.
    assert doubts(det, ["As", "Kd"], groups, ["Qc"], hidden=1).silent == 1


@pytest.mark.parametrize(
    ("codes", "truth", "stray", "unread"),
    [
        (["As", "Kd"], ["As", "Kd", "7h"], ["7h"], 1),  # the stray 7h not read
        (["As", "7h"], ["As", "Kd", "7h"], ["7h"], 0),  # read: the missed Kd is in play
        (["As"], ["As", "Kd", "7h"], [], 0),
        # Two decks, one 7h in play and one stray, one read: the copy missed is the one in play.
        (["As", "7h"], ["As", "7h", "7h"], ["7h"], 0),
        (["As"], ["As", "7h", "7h"], ["7h"], 1),
    ],
)
def test_stray_cards_not_read_are_counted_apart(
    codes: list[str], truth: list[str], stray: list[str], unread: int
) -> None:
    assert stray_unread(codes, truth, stray) == unread


def test_photos_said_to_hold_cards_too_small_are_counted_with_their_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = cv2.imread(str(FIXTURES / "scene_0002.jpg"))  # three cards about 145 px wide
    cv2.imwrite(str(tmp_path / "near.jpg"), image)
    far = cv2.resize(image, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA)  # about 41 px
    cv2.imwrite(str(tmp_path / "far.jpg"), far)
    truth = ["Td", "Qc", "2h"]
    labels = [{"image": name, "cards": truth} for name in ("near.jpg", "far.jpg")]
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    assert main([str(tmp_path / "labels.json")]) == 0
    out = capsys.readouterr().out
    assert "F1 1.0000" in out
    assert (
        "cards said too small to read surely (median width under 50 px) on 1 of 2 photos: "
        "1 of them read with no error (F1 1.0000, recall 1.0000), 1 of the 1 others (F1 1.0000, "
        "recall 1.0000)"
    ) in out


def _read(*rows: tuple[str, float, str]) -> Detections:
    """Reads (code, confidence, "alt alt ...", each alternative at 0.01)."""
    n = len(rows)
    return Detections(
        cards(" ".join(code for code, _, _ in rows)),
        np.array([conf for _, conf, _ in rows]),
        np.zeros((n, 4)),
        np.zeros((n, 4, 2)),
        alternatives=tuple(
            tuple(Alternative(parse_card(a), 0.01) for a in alts.split()) for _, _, alts in rows
        ),
    )


def test_a_wrong_reads_true_code_is_found_among_its_alternatives() -> None:
    found = _read(
        ("As", 0.99, "Ks"),
        ("Jc", 0.7, "8s Js Jh"),  # a suit misread of Js: its second alternative
        ("6d", 0.6, "5d 8d 9d 6h"),  # a rank misread of 9d: its third
        ("Qh", 0.5, "Kh"),  # an extra read: no card missed is left for it
    )
    got = offered(found, ["As", "Js", "9d"])
    assert got == Offered(wrong=3, paired=2, top2=1, top3=2, within=2, most=pytest.approx(1.0))
    assert "top 2 alternatives 1/2 (50%), top 3 2/2 (100%)" in got.line("set")
    more = Offered(1, 1, 1, 1, 1, 1, 1, 1, 0.9)
    assert got + more == replace(
        got, wrong=4, paired=3, top2=2, top3=3, within=3, sole=1, sole_top2=1, sole_top3=1
    )
    # One wrong read and one card missed: the pair is sure.
    sole = offered(_read(("As", 0.99, ""), ("Jc", 0.7, "8s Js")), ["As", "Js"])
    assert (sole.sole, sole.sole_top2, sole.sole_top3) == (1, 1, 1)
    assert "with one wrong read and one card missed: top 2 1/1 (100%)" in sole.line("set")


def test_a_wrong_read_is_paired_with_a_card_of_its_rank_before_one_of_its_suit() -> None:
    # 7h stands for 7c (its rank), not 2h (its suit), though 2h is its alternative.
    got = offered(_read(("7h", 0.6, "2h")), ["7c", "2h"])
    assert (got.paired, got.within) == (1, 0)
    # A partly hidden card read is neither right nor wrong.
    assert offered(_read(("9c", 0.6, "9s")), ["As"], partly=["9c"]).wrong == 0
