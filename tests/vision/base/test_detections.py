import numpy as np
import pytest

from companion.engine.cards import Card, Suit, parse_card
from companion.vision import Detections
from companion.vision.base.alternatives import Alternative
from companion.vision.base.detections import CLUES
from tests.helpers import cards


def _three() -> Detections:
    quads = (
        np.array([[[0, 0], [10, 0], [10, 14], [0, 14]]] * 3, np.float32)
        + np.arange(3)[:, None, None] * 20
    )
    return Detections(
        cards("As Td 2c"),
        np.array([0.9, 0.8, 0.7]),
        np.concatenate([quads.min(1), quads.max(1)], 1),
        quads,
    )


def test_arrays_are_read_only() -> None:
    det = _three()
    with pytest.raises(ValueError):
        det.confidence[0] = 0.1
    with pytest.raises(ValueError):
        det.xyxy[0, 0] = 5


def test_rows_are_cards_and_iterating_yields_them() -> None:
    det = _three()
    assert det.cards == cards("As Td 2c")
    assert list(det) == list(cards("As Td 2c"))
    assert [str(card) for card in det] == ["As", "Td", "2c"]


def test_mask_returns_a_new_object_with_the_selected_rows() -> None:
    det = _three()
    picked = det[det.confidence > 0.75]
    assert picked.cards == cards("As Td")
    assert len(picked) == 2 and len(det) == 3
    np.testing.assert_allclose(picked.centres[1], [25, 27])


def test_an_index_array_picks_rows_in_its_order() -> None:
    det = _three()
    picked = det[np.array([2, 0])]
    assert picked.cards == cards("2c As")
    np.testing.assert_allclose(picked.confidence, [0.7, 0.9])


@pytest.mark.parametrize(
    ("confidence", "xyxy", "message"),
    [
        (np.ones(2), np.zeros((3, 4)), r"confidence must have shape \(3\)"),
        (np.ones(3), np.zeros((3, 5)), r"xyxy must have shape \(3, 4\)"),
    ],
)
def test_shape_errors_name_the_expected_shape(confidence, xyxy, message) -> None:
    with pytest.raises(ValueError, match=message):
        Detections(cards("As Td 2c"), confidence, xyxy, np.zeros((3, 4, 2)))


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("As", r"natural cards .*got 'As' at row 1"),
        (Card(None, None), r"natural cards .*got Card\(rank=None, suit=None\) at row 1"),
        (Card(None, Suit.HEARTS), r"natural cards .*at row 1"),
    ],
    ids=["a code string", "a joker", "a wild heart"],
)
def test_rows_must_be_natural_cards(bad: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Detections(
            (cards("Kd")[0], bad),  # type: ignore[arg-type]
            np.ones(2),
            np.zeros((2, 4)),
            np.zeros((2, 4, 2)),
        )


def test_empty() -> None:
    det = Detections.empty()
    assert len(det) == 0 and det.centres.shape == (0, 2) and det.cards == ()


def test_doubts_default_to_the_unsure_reads_and_make_check() -> None:
    det = _three()  # 0.9, 0.8, 0.7: all under CHECK_BELOW
    assert det.doubts == (("unsure",),) * 3 and det.check.all()
    sure = Detections(det.cards, np.full(3, 0.99), det.xyxy, det.quads)
    assert sure.doubts == ((), (), ()) and not sure.check.any()
    flagged = Detections(
        det.cards, np.full(3, 0.99), det.xyxy, det.quads, doubts=((), ("colour",), ())
    )
    assert flagged.check.tolist() == [False, True, False]


def test_rows_picked_keep_their_doubts_and_the_frame() -> None:
    det = Detections(
        cards("As Td"),
        np.full(2, 0.99),
        np.zeros((2, 4)),
        np.zeros((2, 4, 2)),
        doubts=(("twice",), ()),
        frame=(640, 480),
    )
    picked = det[np.array([1, 0])]
    assert picked.doubts == ((), ("twice",)) and picked.check.tolist() == [False, True]
    assert picked.frame == (640, 480)


def test_doubts_need_one_row_per_card() -> None:
    with pytest.raises(ValueError, match="doubts must have 2 rows, got 1"):
        Detections(cards("As Td"), np.ones(2), np.zeros((2, 4)), np.zeros((2, 4, 2)), doubts=((),))


def test_unread_faces_are_kept_by_a_selection_and_checked_for_shape() -> None:
    face = np.array([[[0, 0], [10, 0], [10, 14], [0, 14]]], np.float32)
    det = Detections(cards("As"), np.ones(1), np.zeros((1, 4)), np.zeros((1, 4, 2)), unread=face)
    assert det[np.array([], int)].unread.shape == (1, 4, 2)  # not a card's row: it stays
    assert Detections.empty().unread.shape == (0, 4, 2) and not det.unread.flags.writeable
    with pytest.raises(ValueError, match=r"unread must have shape \(N, 4, 2\), got \(4, 2\)"):
        Detections(cards("As"), np.ones(1), np.zeros((1, 4)), np.zeros((1, 4, 2)), unread=face[0])


def test_clues_are_unknown_by_default_kept_by_a_selection_and_checked_for_shape() -> None:
    assert np.isnan(_three().clues).all() and _three().clues.shape == (3, len(CLUES))
    clues = np.arange(2 * len(CLUES), dtype=np.float32).reshape(2, len(CLUES))
    det = Detections(cards("As Td"), np.ones(2), np.zeros((2, 4)), np.zeros((2, 4, 2)), clues=clues)
    assert det[np.array([1])].clues.tolist() == [clues[1].tolist()]
    assert not det.clues.flags.writeable
    with pytest.raises(ValueError, match=rf"clues must have shape \(2, {len(CLUES)}\)"):
        Detections(
            cards("As Td"), np.ones(2), np.zeros((2, 4)), np.zeros((2, 4, 2)), clues=clues[:1]
        )


def _cards_of_width(*widths: float) -> Detections:
    """Upright cards and a card turned a quarter, each of the given width (1.4 times as long)."""
    quads = []
    for k, w in enumerate(widths):
        x = 200.0 * k
        upright = [[x, 0], [x + w, 0], [x + w, 1.4 * w], [x, 1.4 * w]]
        turned = [[x, 0], [x + 1.4 * w, 0], [x + 1.4 * w, w], [x, w]]
        quads.append(turned if k % 2 else upright)
    q = np.array(quads, np.float32)
    codes = " ".join(["As", "Td", "2c", "9h", "5s"][: len(widths)])
    return Detections(cards(codes), np.full(len(widths), 0.99), np.c_[q.min(1), q.max(1)], q)


def test_the_card_width_is_the_median_of_the_outlines_shorter_sides() -> None:
    assert _cards_of_width(40, 60, 44).card_width() == pytest.approx(44)
    assert _cards_of_width(40, 60).card_width() == pytest.approx(50)
    assert Detections.empty().card_width() is None


def test_cards_narrower_than_the_reader_needs_are_small() -> None:
    assert _cards_of_width(45, 49, 80).small_cards()
    assert not _cards_of_width(45, 50, 80).small_cards()
    assert not _cards_of_width(120, 300).small_cards()
    assert not Detections.empty().small_cards()


def _alternatives(*rows: str) -> tuple[tuple[Alternative, ...], ...]:
    """``"Kd:0.1 8d:0.05"`` per row -> that row's alternatives."""
    return tuple(
        tuple(Alternative(parse_card(c), float(p)) for c, p in (a.split(":") for a in row.split()))
        for row in rows
    )


def test_alternatives_and_crops_are_unknown_by_default() -> None:
    det = _three()
    assert det.alternatives == ((), (), ())
    assert det.index_quads.shape == det.face_quads.shape == (3, 4, 2)
    assert np.isnan(det.index_quads).all() and np.isnan(det.face_quads).all()
    assert Detections.empty().alternatives == () and Detections.empty().face_quads.shape == (
        0,
        4,
        2,
    )


def test_a_selection_keeps_each_rows_alternatives_and_crops() -> None:
    det = _three()
    index = np.arange(24, dtype=np.float32).reshape(3, 4, 2)
    det = Detections(
        det.cards,
        det.confidence,
        det.xyxy,
        det.quads,
        alternatives=_alternatives("Ks:0.05", "", "3c:0.2 2d:0.1"),
        index_quads=index,
        face_quads=index + 100,
    )
    picked = det[np.array([2, 0])]
    assert picked.alternatives == _alternatives("3c:0.2 2d:0.1", "Ks:0.05")
    assert picked.index_quads.tolist() == index[[2, 0]].tolist()
    assert picked.face_quads.tolist() == (index[[2, 0]] + 100).tolist()
    assert not picked.index_quads.flags.writeable and not picked.face_quads.flags.writeable


@pytest.mark.parametrize(
    ("alternatives", "message"),
    [
        (("Kd:0.1",), "alternatives must have 2 rows, got 1"),
        (("As:0.01", ""), r"row 0 must be other codes than As"),
        (("Kd:-0.1", ""), r"row 0 must be other codes than As with probabilities of at least 0"),
        (("", "Kd:0.2 Qd:0.05"), r"alternatives of row 1 \(Td\) and its confidence sum over 1"),
    ],
    ids=["rows", "its own code", "a negative probability", "over 1"],
)
def test_alternatives_are_other_codes_summing_with_the_read_to_at_most_one(
    alternatives: tuple[str, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Detections(
            cards("As Td"),
            np.array([0.9, 0.8]),
            np.zeros((2, 4)),
            np.zeros((2, 4, 2)),
            alternatives=_alternatives(*alternatives),
        )


def test_alternatives_are_natural_cards() -> None:
    wild = ((Alternative(Card(None, Suit.HEARTS), 0.1),),)
    with pytest.raises(ValueError, match=r"alternatives of row 0 must hold natural cards"):
        Detections(
            cards("As"), np.ones(1) * 0.5, np.zeros((1, 4)), np.zeros((1, 4, 2)), alternatives=wild
        )


def test_crops_are_checked_for_shape() -> None:
    with pytest.raises(ValueError, match=r"face_quads must have shape \(1, 4, 2\), got \(4, 2\)"):
        Detections(
            cards("As"),
            np.ones(1),
            np.zeros((1, 4)),
            np.zeros((1, 4, 2)),
            face_quads=np.ones((4, 2)),
        )
