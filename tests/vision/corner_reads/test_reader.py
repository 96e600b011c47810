"""``CornerReader`` with the shipped ONNX models on scenes the project renders itself
(tests/fixtures/images): the second readers, and doubtful reads framed again (``reframe``)."""

import json

import cv2
import numpy as np
import pytest

from companion.vision import CardDetector
from companion.vision.base import geometry
from companion.vision.base.detections import COLOUR
from companion.vision.corner_reads import CornerReader
from companion.vision.corner_reads.reader import CORNER_ALTERNATIVES
from companion.vision.corner_reads.reframe import _read_surely_elsewhere, reframe_doubtful, reframes
from companion.vision.evidence import cut_quad
from companion.vision.proposals import Proposal
from companion.vision.training.evaluate import Score, score_cards
from tests.helpers import FIXTURES

LABELS = json.loads((FIXTURES / "labels.json").read_text())
SCENES = [e for e in LABELS if e["cards"]]


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def test_the_reader_reads_again_only_crops_read_as_an_index(detector: CardDetector) -> None:
    """Index crops get the reader's rank and suit averaged in; "no index" is the corner
    model's alone, so the reader never turns a crop into a card."""
    image = cv2.imread(str(FIXTURES / SCENES[0]["image"]))
    reads = detector.read_corners(image)
    crops = np.array(
        [
            geometry.crop_corner(image, r.proposal.p, r.proposal.u, r.proposal.v, r.proposal.s)
            for r in reads
        ]
    )
    table = np.full((2, *crops.shape[1:]), (40, 90, 30), np.uint8)  # green felt, no card
    both = np.concatenate([crops, table])
    rank1, suit1 = detector.reader.classify(both)
    rank2, suit2 = detector.reader.read_again(both, rank1, suit1)
    n = len(detector.reader.ranks)
    assert np.allclose(rank2[:, n], rank1[:, n])
    assert np.allclose(rank2.sum(axis=1), 1.0, atol=1e-4)
    again = rank1.argmax(axis=1) < n
    assert again[: len(crops)].all() and not again[len(crops) :].any()
    assert not np.allclose(suit2[again], suit1[again])
    assert np.array_equal(suit2[~again], suit1[~again])
    alone = CornerReader(reader_path=None)
    assert alone.read_again(both, rank1, suit1)[1] is suit1


def test_the_face_reader_reads_whole_cards_where_an_index_was_read(detector: CardDetector) -> None:
    image = cv2.imread(str(FIXTURES / SCENES[0]["image"]))
    reads = detector.read_corners(image)
    proposals = [r.proposal for r in reads]
    crops = np.array([geometry.crop_corner(image, q.p, q.u, q.v, q.s) for q in proposals])
    rank1, suit1 = detector.reader.classify(crops)
    rank2, suit2 = detector.reader.read_face(image, proposals, rank1, suit1)
    n = len(detector.reader.ranks)
    index = rank1.argmax(axis=1) < n
    assert np.allclose(rank2[:, n], rank1[:, n]) and np.allclose(rank2.sum(axis=1), 1, atol=1e-4)
    assert not np.allclose(suit2[index], suit1[index])
    assert np.array_equal(suit2[~index], suit1[~index])
    assert CornerReader(face_path=None).read_face(image, proposals, rank1, suit1)[1] is suit1


def test_the_face_reader_alone_reads_most_fixture_cards_right(detector: CardDetector) -> None:
    """Whole cards seen from the corners the detector read right, read by the face reader's
    own probabilities (weight 1): pips and pictures alone name most of them."""
    right = total = 0
    for entry in SCENES:
        image = cv2.imread(str(FIXTURES / entry["image"]))
        reads = detector.read_corners(image)
        good = [r for r in reads if str(r.card) in entry["cards"]]
        crops = np.array(
            [
                geometry.crop_corner(
                    image, r.proposal.p, r.proposal.u, r.proposal.v, r.proposal.s, geometry.FACE
                )
                for r in good
            ],
            np.float32,
        )
        rank, suit = detector.reader._face.run(None, {"crops": crops})
        codes = [
            detector.reader.ranks[a] + detector.reader.suits[b]
            for a, b in zip(rank.argmax(axis=1), suit.argmax(axis=1), strict=True)
        ]
        right += sum(c == str(r.card) for c, r in zip(codes, good, strict=True))
        total += len(good)
    assert total >= 20 and right >= 0.75 * total, (right, total)


def _turn(vec: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * vec[0] - s * vec[1], s * vec[0] + c * vec[1]])


def test_reframes_stay_near_the_proposal() -> None:
    q = Proposal(np.array([100.0, 50.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 80.0)
    frames = reframes(q, foreshortened=False)
    assert len(frames) == 12
    for f in frames:
        assert np.linalg.norm(f.p - q.p) <= 0.041 * q.s
        assert abs(np.linalg.norm(f.u) - 1) < 1e-9 and abs(float(f.u @ f.v)) < 1e-9
        assert np.degrees(np.arccos(np.clip(f.u @ q.u, -1, 1))) <= 18
        assert 0.85 * q.s <= f.s <= 1.15 * q.s
    # Every kind of change is tried: turned, shifted, rescaled.
    assert any(not np.allclose(f.u, q.u) for f in frames)
    assert any(not np.allclose(f.p, q.p) for f in frames)
    assert any(f.s != q.s for f in frames)


def test_corners_framed_14_degrees_off_are_read_after_reframing(detector: CardDetector) -> None:
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    reads = detector.read_corners(image)
    sure = [r for r in reads if r.confidence > 0.95]
    assert len(sure) >= 5
    turned = [
        Proposal(r.proposal.p, _turn(r.proposal.u, a), _turn(r.proposal.v, a), r.proposal.s)
        for r in sure
        for a in (-0.25, 0.25)
    ]
    crops = np.array([geometry.crop_corner(image, q.p, q.u, q.v, q.s) for q in turned])
    rank_p, suit_p = detector.reader.classify(crops)
    codes = [str(r.card) for r in sure for _ in (0, 1)]

    def right(rp: np.ndarray, sp: np.ndarray) -> int:
        """Crops read as their card, surely enough to be reported."""
        n = 0
        for a, b, code in zip(rp, sp, codes, strict=True):
            r, s = int(np.argmax(a)), int(np.argmax(b))
            if r < len(detector.reader.ranks) and a[r] * b[s] >= detector.threshold:
                n += detector.reader.ranks[r] + detector.reader.suits[s] == code
        return n

    before = right(rank_p, suit_p)
    # Each way of turning apart: a frame turned the other way at the same corner may be read
    # surely, and then the detector leaves the doubtful one alone (merging keeps the sure one).
    rank_2, suit_2 = rank_p.copy(), suit_p.copy()
    for side in (0, 1):
        rows = np.arange(side, len(turned), 2)
        _, _, rank_2[rows], suit_2[rows] = reframe_doubtful(
            detector.reader.classify,
            image,
            [turned[i] for i in rows],
            crops[rows],
            rank_p[rows],
            suit_p[rows],
        )
    after = right(rank_2, suit_2)
    # Turned by 14 degrees, about a fifth of the sure corners are lost (36 of 44 read with the
    # shipped model; 32 of 42 before its motion-blur fine-tune); the nearby frames bring some
    # back (38 of 44 then).
    assert before < 0.9 * len(turned), (before, len(turned))
    assert after > before, (before, after, len(turned))
    assert after >= 0.85 * len(turned), (before, after, len(turned))


def test_foreshortened_frames_are_shortened_along_one_edge() -> None:
    q = Proposal(np.array([100.0, 50.0]), np.array([0.6, 0.8]), np.array([-0.8, 0.6]), 80.0)
    extra = reframes(q)[len(reframes(q, foreshortened=False)) :]
    assert len(extra) == 4
    for f in extra:
        lengths = sorted([float(np.linalg.norm(f.u)), float(np.linalg.norm(f.v))])
        assert lengths[1] == pytest.approx(1.0) and 0.6 <= lengths[0] <= 0.85
        assert np.allclose(f.u / np.linalg.norm(f.u), q.u) and np.allclose(f.p, q.p)


def test_cards_seen_at_a_slant_are_read_at_foreshortened_frames(
    detector: CardDetector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fixture tables squashed to 0.55 of their height (as seen about 57 degrees from
    overhead): more cards are read right with the foreshortened frames than without, and every
    corner read keeps unit edge vectors."""
    import companion.vision.corner_reads.reframe as module

    def right(d: CardDetector) -> int:
        total = Score(0, 0, 0)
        for entry in SCENES:
            image = cv2.imread(str(FIXTURES / entry["image"]))
            image = cv2.resize(
                image, (image.shape[1], round(0.55 * image.shape[0])), interpolation=cv2.INTER_AREA
            )
            found = d.detect(image)
            total = total + score_cards([str(c) for c in found.cards], entry["cards"])
        return total.true_pos

    with_them = right(detector)
    reads = detector.read_corners(
        cv2.resize(cv2.imread(str(FIXTURES / SCENES[0]["image"])), (960, 384))
    )
    assert all(np.linalg.norm(r.proposal.u) == pytest.approx(1.0) for r in reads)
    assert all(np.linalg.norm(r.proposal.v) == pytest.approx(1.0) for r in reads)
    whole = module.reframes
    monkeypatch.setattr(module, "reframes", lambda q: whole(q, foreshortened=False))
    without = right(detector)
    # Measured: 18 against 13 of the 27 cards (27 of 27 unsquashed either way).
    assert with_them >= without + 3, (with_them, without)


def _at(x: float, y: float, turn: float = 0.0, s: float = 100.0) -> Proposal:
    u = np.array([np.cos(turn), np.sin(turn)])
    return Proposal(np.array([x, y]), u, np.array([-u[1], u[0]]), s)


def test_a_doubtful_read_is_framed_again_only_where_no_sure_read_shares_its_corner() -> None:
    frames = [_at(100, 100), _at(105, 100), _at(100, 100, np.pi / 2), _at(300, 100)]
    confidence = np.array([0.9, 0.3, 0.3, 0.3])
    # The second shares the first's corner; the third is turned a quarter; the fourth is far.
    assert _read_surely_elsewhere(frames, confidence).tolist() == [False, True, False, False]
    assert _read_surely_elsewhere(frames, np.full(4, 0.3)).tolist() == [False] * 4
    assert _read_surely_elsewhere([], np.zeros(0)).tolist() == []


@pytest.mark.parametrize("scene", SCENES, ids=[e["image"] for e in SCENES])
def test_each_read_offers_other_natural_codes_likeliest_first_within_its_probability(
    detector: CardDetector, scene: dict
) -> None:
    look = detector.first_look(cv2.imread(str(FIXTURES / scene["image"])))
    reads = look.sure + look.spare
    assert reads
    for read in reads:
        offered = read.alternatives
        assert 0 < len(offered) <= CORNER_ALTERNATIVES
        assert all(a.card != read.card and a.card.rank is not None for a in offered)
        assert all(a.card.suit is not None for a in offered)
        assert len({a.card for a in offered}) == len(offered)
        p = [a.probability for a in offered]
        assert p == sorted(p, reverse=True) and min(p) >= 0
        assert read.confidence + sum(p) <= 1 + 1e-6
        # Where neither the ink nor a court's pip moved the suit, the read is the likeliest
        # code of the blended probabilities: no alternative is likelier.
        if COLOUR not in read.doubts:
            assert p[0] <= read.confidence + 1e-6


def test_a_reads_crops_are_cut_where_its_frame_says(detector: CardDetector) -> None:
    # Cut again from the quads a read keeps, the index crop is the crop the reader read.
    look = detector.first_look(cv2.imread(str(FIXTURES / SCENES[0]["image"])))
    for read in look.sure:
        q = read.frame
        quad = geometry.extent_quads(q.p, q.u, q.v, np.array([q.s]), geometry.CORNER)[0]
        again = cut_quad(look.image, quad, geometry.CROP_H)
        assert again is not None and again.shape == (geometry.CROP_H, geometry.CROP_W, 3)
        seen = geometry.crop_corner(look.image, q.p, q.u, q.v, q.s)
        assert np.abs(again.astype(float) - seen).mean() < 12
        assert read.proposal.p.tolist() == q.p.tolist()
