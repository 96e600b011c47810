"""``CardDetector`` with the shipped ONNX models on scenes the project renders itself
(tests/fixtures/images): the reads, the second readers, re-framing and the paper check."""

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.engine.cards import Card, parse_card
from companion.errors import ModelLoadError
from companion.vision import CardDetector, Detections, geometry
from companion.vision.detector import (
    NEAR_SHORT,
    PAPER_MAX_SATURATION,
    _away_from,
    _looked_for,
    _unproposed,
    paper_saturation,
    paper_saturations,
    reframes,
)
from companion.vision.layouts.expect import Expect
from companion.vision.layouts.read import read_layout
from companion.vision.merging import CornerRead
from companion.vision.proposals import Proposal
from companion.vision.training.evaluate import Score, expect_of, score_cards
from tests.helpers import FIXTURES, without_indices

LABELS = json.loads((FIXTURES / "labels.json").read_text())
SCENES = [e for e in LABELS if e["cards"]]


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def _read(detector: CardDetector, name: str) -> Detections:
    return detector.detect(cv2.imread(str(FIXTURES / name)))


def _codes(detections: Detections) -> list[str]:
    return [str(card) for card in detections.cards]


def test_reads_the_cards_of_the_fixture_scenes(detector: CardDetector) -> None:
    # Fixture cards are small (50-80 px wide in 960x640 frames), the hard end of the range:
    # the shipped model reads 24 of 27 here (precision 0.92, recall 0.89).
    total = Score(0, 0, 0)
    for entry in SCENES:
        total = total + score_cards(_codes(_read(detector, entry["image"])), entry["cards"])
    assert total.precision >= 0.88, total
    assert total.recall >= 0.85, total


@pytest.mark.parametrize("entry", SCENES, ids=[e["image"] for e in SCENES])
def test_no_card_is_reported_twice(detector: CardDetector, entry: dict) -> None:
    cards = _read(detector, entry["image"]).cards
    assert max(Counter(cards).values()) == 1


def test_boxes_lie_inside_the_image_and_hold_the_card(detector: CardDetector) -> None:
    entry = SCENES[0]
    image = cv2.imread(str(FIXTURES / entry["image"]))
    det = detector.detect(image)
    assert len(det) > 0 and all(isinstance(card, Card) for card in det)
    h, w = image.shape[:2]
    assert np.all(det.xyxy[:, 0] >= 0) and np.all(det.xyxy[:, 2] <= w)
    assert np.all(det.xyxy[:, 1] >= 0) and np.all(det.xyxy[:, 3] <= h)
    assert np.all((det.confidence > 0) & (det.confidence <= 1))


def test_empty_table_gives_no_cards(detector: CardDetector) -> None:
    read = _read(detector, "empty_00.jpg")
    assert len(read) == 0 and read.cards == ()


def test_upside_down_photo_reads_the_same_cards(detector: CardDetector) -> None:
    entry = SCENES[0]
    image = cv2.imread(str(FIXTURES / entry["image"]))
    upright = set(detector.detect(image).cards)
    turned = set(detector.detect(cv2.rotate(image, cv2.ROTATE_180)).cards)
    assert len(upright ^ turned) <= 1


@pytest.mark.parametrize("bad", [np.zeros((10, 10, 3), np.uint8), np.zeros((100, 100), np.uint8)])
def test_rejects_arrays_that_are_not_bgr_images(detector: CardDetector, bad: np.ndarray) -> None:
    with pytest.raises(ValueError, match="BGR image"):
        detector.detect(bad)


def test_missing_model_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="nothing.onnx"):
        CardDetector(tmp_path / "nothing.onnx")


def test_missing_reader_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no_reader.onnx"):
        CardDetector(reader_path=tmp_path / "no_reader.onnx")


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
    rank1, suit1 = detector.classify(both)
    rank2, suit2 = detector.read_again(both, rank1, suit1)
    n = len(detector.ranks)
    assert np.allclose(rank2[:, n], rank1[:, n])
    assert np.allclose(rank2.sum(axis=1), 1.0, atol=1e-4)
    again = rank1.argmax(axis=1) < n
    assert again[: len(crops)].all() and not again[len(crops) :].any()
    assert not np.allclose(suit2[again], suit1[again])
    assert np.array_equal(suit2[~again], suit1[~again])
    alone = CardDetector(reader_path=None)
    assert alone.read_again(both, rank1, suit1)[1] is suit1


def test_missing_face_reader_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no_face.onnx"):
        CardDetector(face_path=tmp_path / "no_face.onnx")


def test_missing_outline_model_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no_outlines.onnx"):
        CardDetector(outline_path=tmp_path / "no_outlines.onnx")


def test_the_face_reader_reads_whole_cards_where_an_index_was_read(detector: CardDetector) -> None:
    image = cv2.imread(str(FIXTURES / SCENES[0]["image"]))
    reads = detector.read_corners(image)
    proposals = [r.proposal for r in reads]
    crops = np.array([geometry.crop_corner(image, q.p, q.u, q.v, q.s) for q in proposals])
    rank1, suit1 = detector.classify(crops)
    rank2, suit2 = detector.read_face(image, proposals, rank1, suit1)
    n = len(detector.ranks)
    index = rank1.argmax(axis=1) < n
    assert np.allclose(rank2[:, n], rank1[:, n]) and np.allclose(rank2.sum(axis=1), 1, atol=1e-4)
    assert not np.allclose(suit2[index], suit1[index])
    assert np.array_equal(suit2[~index], suit1[~index])
    assert CardDetector(face_path=None).read_face(image, proposals, rank1, suit1)[1] is suit1


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
        rank, suit = detector._face.run(None, {"crops": crops})
        codes = [
            detector.ranks[a] + detector.suits[b]
            for a, b in zip(rank.argmax(axis=1), suit.argmax(axis=1), strict=True)
        ]
        right += sum(c == str(r.card) for c, r in zip(codes, good, strict=True))
        total += len(good)
    assert total >= 20 and right >= 0.75 * total, (right, total)


# -- doubtful reads cut again at nearby frames, and the card-paper check ----------------------


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


def test_paper_is_grey_and_felt_is_not() -> None:
    rng = np.random.default_rng(0)
    paper = np.full((56, 40, 3), (225, 230, 235), np.uint8)
    cv2.putText(paper, "7", (4, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 200), 2)
    warm = (paper * np.array([0.8, 0.92, 1.0])).astype(np.uint8)  # tungsten light
    felt = np.clip(rng.normal((40, 40, 170), 18, (56, 40, 3)), 0, 255).astype(np.uint8)
    assert paper_saturation(paper) < 0.1
    assert paper_saturation(warm) < PAPER_MAX_SATURATION
    assert paper_saturation(felt) > PAPER_MAX_SATURATION


def test_paper_saturation_of_a_batch_is_each_crops_own() -> None:
    rng = np.random.default_rng(1)
    crops = rng.integers(0, 256, (5, 56, 40, 3), dtype=np.uint8)
    crops[1] = (200, 200, 200)  # flat grey: every pixel is among the brightest
    crops[2, :, :20] = (40, 40, 170)  # half red felt, half paper
    crops[2, :, 20:] = (225, 230, 235)
    batch = paper_saturations(crops)
    for crop, value in zip(crops, batch, strict=True):
        hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).reshape(-1, 3)
        bright = hsv[:, 2] >= np.percentile(hsv[:, 2], 60)
        assert value == pytest.approx(np.median(hsv[bright, 1]) / 255.0)
    assert batch[1] == 0.0 and batch[2] < 0.1
    assert paper_saturations(crops[:0]).shape == (0,)


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
    rank_p, suit_p = detector.classify(crops)
    codes = [str(r.card) for r in sure for _ in (0, 1)]

    def right(rp: np.ndarray, sp: np.ndarray) -> int:
        """Crops read as their card, surely enough to be reported."""
        n = 0
        for a, b, code in zip(rp, sp, codes, strict=True):
            r, s = int(np.argmax(a)), int(np.argmax(b))
            if r < len(detector.ranks) and a[r] * b[s] >= detector.threshold:
                n += detector.ranks[r] + detector.suits[s] == code
        return n

    before = right(rank_p, suit_p)
    # Each way of turning apart: a frame turned the other way at the same corner may be read
    # surely, and then the detector leaves the doubtful one alone (merging keeps the sure one).
    rank_2, suit_2 = rank_p.copy(), suit_p.copy()
    for side in (0, 1):
        rows = np.arange(side, len(turned), 2)
        _, _, rank_2[rows], suit_2[rows] = detector._reframe_doubtful(
            image, [turned[i] for i in rows], crops[rows], rank_p[rows], suit_p[rows]
        )
    after = right(rank_2, suit_2)
    # Turned by 14 degrees, about a fifth of the sure corners are lost (36 of 44 read with the
    # shipped model; 32 of 42 before its motion-blur fine-tune); the nearby frames bring some
    # back (38 of 44 then).
    assert before < 0.9 * len(turned), (before, len(turned))
    assert after > before, (before, after, len(turned))
    assert after >= 0.85 * len(turned), (before, after, len(turned))


def test_two_decks_allow_a_card_twice(detector: CardDetector) -> None:
    """A scene pasted beside itself holds every card twice: one deck reports each card once
    (a second read elsewhere makes it one to check), two decks report both copies."""
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    double = np.concatenate([image, image], axis=1)
    one, two = detector.detect(double), detector.detect(double, decks=2)
    assert len(set(one.cards)) == len(one.cards)
    twice = [c for c, n in Counter(two.cards).items() if n == 2]
    assert len(twice) >= len(one) - 2
    assert all(
        one.check[one.cards.index(c)] and "twice" in one.doubts[one.cards.index(c)] for c in twice
    )


def test_corners_of_the_contrast_stretched_frame_are_read_as_second_looks(
    detector: CardDetector,
) -> None:
    entry = next(e for e in LABELS if e["image"] == "scene_0001.jpg")
    reads = detector.read_contrasted(cv2.imread(str(FIXTURES / entry["image"])))
    assert reads and all("second_look" in r.doubts for r in reads)
    sure = {str(r.card) for r in reads if r.confidence >= 0.9}
    assert len(sure) >= len(entry["cards"]) // 2 and sure <= set(entry["cards"])


def test_the_contrasted_look_near_a_short_place_reads_there_and_beyond_the_cards(
    detector: CardDetector,
) -> None:
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    sure = detector.read_corners(image)
    width = float(np.median([r.proposal.s for r in sure]))
    place = sure[0].proposal.p
    everywhere = detector.read_contrasted(image)
    near = detector.read_contrasted(image, (sure, place[None]))
    assert 0 < len(near) < len(everywhere)
    assert sure[0].card in {r.card for r in near}  # the place's own card, read there again
    # Each read lies near the place or beyond the cards (its frame re-framed by 0.04 at most).
    for read in near:
        close = float(np.linalg.norm(read.proposal.p - place)) < (NEAR_SHORT + 0.1) * width
        assert close or _away_from([read.proposal], sure)


def test_a_second_look_away_from_the_cards_leaves_out_frames_inside_their_outline() -> None:
    """Two cards side by side: a frame on either card or between them is left out, frames
    beyond the pair (where a stray card would lie) are kept."""
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    reads = [
        CornerRead(parse_card("As"), 0.9, Proposal(np.array([x, 100.0]), right, down, 50.0))
        for x in (100.0, 160.0)
    ]
    inside = [Proposal(np.array(p), right, down, 50.0) for p in ((120, 130), (155, 150))]
    beyond = [Proposal(np.array(p), right, down, 50.0) for p in ((400, 130), (130, 300))]
    assert _away_from(inside + beyond, reads) == beyond
    assert _away_from(inside, []) == inside


def test_a_second_look_near_short_places_keeps_frames_near_them_or_beyond_the_cards() -> None:
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    reads = [
        CornerRead(parse_card("As"), 0.9, Proposal(np.array([x, 100.0]), right, down, 50.0))
        for x in (100.0, 400.0)
    ]
    near_first = Proposal(np.array([150.0, 120.0]), right, down, 50.0)  # inside, near (100, 130)
    far_inside = Proposal(np.array([330.0, 120.0]), right, down, 50.0)
    beyond = Proposal(np.array([250.0, 400.0]), right, down, 50.0)
    frames = [near_first, far_inside, beyond]
    assert _looked_for(frames, reads, np.array([[100.0, 130.0]])) == [near_first, beyond]
    assert _looked_for(frames, reads, np.zeros((0, 2))) == [beyond]


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
    import companion.vision.detector as module

    def right(d: CardDetector) -> int:
        total = Score(0, 0, 0)
        for entry in SCENES:
            image = cv2.imread(str(FIXTURES / entry["image"]))
            image = cv2.resize(
                image, (image.shape[1], round(0.55 * image.shape[0])), interpolation=cv2.INTER_AREA
            )
            found = d.detect(image)
            total = total + score_cards(_codes(found), entry["cards"])
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


@pytest.mark.parametrize("expect", [None, expect_of(SCENES[0]["groups"])], ids=["loose", "told"])
def test_a_card_face_whose_index_is_not_read_is_reported_unread_where_it_lies(
    detector: CardDetector, expect: Expect | None
) -> None:
    image = cv2.imread(str(FIXTURES / SCENES[0]["image"]))
    read = detector.detect(image)
    assert read.unread.shape == (0, 4, 2)  # every face read: nothing more to say
    queen = read.quads[_codes(read).index("Qc")]
    again = read_layout(detector, without_indices(image, queen), expect).detections
    assert parse_card("Qc") not in again.cards
    assert len(again.unread) == 1
    width = float(np.linalg.norm(queen[1] - queen[0]))
    gap = np.linalg.norm(again.unread[0].mean(axis=0) - queen.mean(axis=0))
    assert gap < 0.2 * width


def test_with_no_card_read_the_lone_cards_outlines_give_the_size_of_an_unread_face(
    detector: CardDetector,
) -> None:
    # Every index of a fixture scene painted over: no card is read, the faces still show.
    image = cv2.imread(str(FIXTURES / "scene_0002.jpg"))
    for quad in detector.detect(image).quads:
        image = without_indices(image, quad)
    blank = detector.detect(image)
    assert len(blank) == 0 and len(blank.unread) >= 1
    empty = detector.detect(cv2.imread(str(FIXTURES / "empty_00.jpg")))
    assert empty.unread.shape == (0, 4, 2)


def _turned_frame(x: float, y: float, degrees: float, width: float) -> Proposal:
    a = np.radians(degrees)
    u = np.array([np.cos(a), np.sin(a)])
    return Proposal(np.array([x, y]), u, np.array([-u[1], u[0]]), width)


def test_a_spot_is_read_unless_a_proposal_frames_its_corner_alike() -> None:
    proposal = _turned_frame(100, 100, 0, 50)
    alike = _turned_frame(103, 101, 5, 54)  # 0.06 widths, 5 degrees, 8 % wider
    narrower = _turned_frame(101, 100, 0, 70)  # the levels' frame at 0.7 of the width
    turned = _turned_frame(101, 100, 15, 50)  # its edge 15 degrees off
    elsewhere = _turned_frame(160, 100, 0, 50)
    spots = [alike, narrower, turned, elsewhere]

    def kept(proposals: list[Proposal]) -> list[int]:
        return [
            next(k for k, s in enumerate(spots) if s is q) for q in _unproposed(spots, proposals)
        ]

    assert kept([proposal]) == [1, 2, 3]
    assert kept([]) == [0, 1, 2, 3]
