"""The shipped ONNX model on scenes the project renders itself (tests/fixtures/images)."""

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import ModelLoadError
from companion.vision import CardDetector, geometry
from companion.vision.detector import DEFAULT_READER, typical_width
from companion.vision.training.evaluate import Score, score_cards
from tests.helpers import FIXTURES

LABELS = json.loads((FIXTURES / "labels.json").read_text())
SCENES = [e for e in LABELS if e["cards"]]


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def _read(detector: CardDetector, name: str):
    return detector.detect(cv2.imread(str(FIXTURES / name)))


def test_reads_the_cards_of_the_fixture_scenes(detector: CardDetector) -> None:
    # Fixture cards are small (50-80 px wide in 960x640 frames), the hard end of the range:
    # the shipped model reads 24 of 27 here (precision 0.92, recall 0.89).
    total = Score(0, 0, 0)
    for entry in SCENES:
        total = total + score_cards(
            list(_read(detector, entry["image"]).detections.codes), entry["cards"]
        )
    assert total.precision >= 0.88, total
    assert total.recall >= 0.85, total


@pytest.mark.parametrize("entry", SCENES, ids=[e["image"] for e in SCENES])
def test_no_card_is_reported_twice(detector: CardDetector, entry: dict) -> None:
    codes = _read(detector, entry["image"]).detections.codes
    assert max(Counter(codes).values()) == 1


def test_boxes_lie_inside_the_image_and_hold_the_card(detector: CardDetector) -> None:
    entry = SCENES[0]
    image = cv2.imread(str(FIXTURES / entry["image"]))
    det = detector.detect(image).detections
    assert len(det) > 0
    h, w = image.shape[:2]
    assert np.all(det.xyxy[:, 0] >= 0) and np.all(det.xyxy[:, 2] <= w)
    assert np.all(det.xyxy[:, 1] >= 0) and np.all(det.xyxy[:, 3] <= h)
    assert np.all((det.confidence > 0) & (det.confidence <= 1))


def test_table_scenes_are_grouped(detector: CardDetector) -> None:
    # Grouping is judged on the cards read right: each must sit in its true river or hand.
    tables = [e for e in SCENES if e["groups"]]
    assert tables
    for entry in tables:
        groups = _read(detector, entry["image"]).groups
        truth = entry["groups"]
        river = set(truth["table"])
        hands = [set(h) for k, h in truth.items() if k != "table" and h]
        assert len(set(groups.river) & river) >= 4, groups
        assert not set(groups.river) - river, groups
        for hand in groups.hands:
            right = set(hand) & set(entry["cards"])
            assert any(right <= h for h in hands), (hand, hands)


def test_empty_table_gives_no_cards(detector: CardDetector) -> None:
    read = _read(detector, "empty_00.jpg")
    assert len(read.detections) == 0
    assert read.groups.river == () and read.groups.hands == ()


def test_upside_down_photo_reads_the_same_cards(detector: CardDetector) -> None:
    entry = SCENES[0]
    image = cv2.imread(str(FIXTURES / entry["image"]))
    upright = set(detector.detect(image).detections.codes)
    turned = set(detector.detect(cv2.rotate(image, cv2.ROTATE_180)).detections.codes)
    assert len(upright ^ turned) <= 1


@pytest.mark.parametrize("bad", [np.zeros((10, 10, 3), np.uint8), np.zeros((100, 100), np.uint8)])
def test_rejects_arrays_that_are_not_bgr_images(detector: CardDetector, bad: np.ndarray) -> None:
    with pytest.raises(ValueError, match="BGR image"):
        detector.detect(bad)


def test_missing_model_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="nothing.onnx"):
        CardDetector(tmp_path / "nothing.onnx")


def test_corrupt_model_is_a_model_load_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(ModelLoadError, match="broken.onnx"):
        CardDetector(broken)


def test_missing_reader_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="no_reader.onnx"):
        CardDetector(reader_path=tmp_path / "no_reader.onnx")


def test_the_reader_reads_again_only_crops_read_as_an_index(detector: CardDetector) -> None:
    """Index crops get the reader's rank and suit averaged in; "no index" is the corner
    model's alone, so the reader never turns a crop into a card."""
    image = cv2.imread(str(FIXTURES / SCENES[0]["image"]))
    reads, _ = detector.read_corners(image)
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


def test_a_corner_model_is_refused_as_the_face_reader() -> None:
    # Its crops show a corner, not a whole card: read as faces, every read would be noise.
    with pytest.raises(ModelLoadError, match="crop geometry"):
        CardDetector(face_path=DEFAULT_READER)


def test_the_face_reader_reads_whole_cards_where_an_index_was_read(detector: CardDetector) -> None:
    image = cv2.imread(str(FIXTURES / SCENES[0]["image"]))
    reads, _ = detector.read_corners(image)
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
        reads, _ = detector.read_corners(image)
        good = [r for r in reads if r.code in entry["cards"]]
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
        right += sum(c == r.code for c, r in zip(codes, good, strict=True))
        total += len(good)
    assert total >= 20 and right >= 0.75 * total, (right, total)


def test_shipped_models_are_the_int8_builds() -> None:
    """build.sh quantizes the models; an fp32 export left in models/ would run 3x slower."""
    import onnxruntime as ort

    from companion.vision.detector import DEFAULT_FACE, DEFAULT_MODEL

    for path in (DEFAULT_MODEL, DEFAULT_READER, DEFAULT_FACE):
        meta = ort.InferenceSession(str(path)).get_modelmeta().custom_metadata_map
        assert meta.get("quantized", "").startswith("int8"), path
        assert meta["ranks"] == "23456789TJQKA" and meta["suits"] == "shdc"


def test_the_networks_threads_do_not_busy_wait_between_runs(detector: CardDetector) -> None:
    """A spinning onnxruntime worker took a core from the OpenCV work between the detector's
    network runs: on 2 cores a 720p frame took about twice as long (benchmarks/)."""
    for session in (detector._session, detector._reader, detector._face):
        assert session is not None
        options = session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_card_shaped_parts_of_card_faces_do_not_set_the_card_width() -> None:
    # A table of court cards: at high whiteness levels the light parts of the faces came out
    # as card-shaped blobs a third of a card wide and outnumbered the one whole card seen.
    assert typical_width([47.6, 15.5, 15.5, 15.5, 15.5]) == pytest.approx(47.6)
    assert typical_width([60.0, 55.0, 70.0, 64.0]) == pytest.approx(62.0)
    assert typical_width([]) is None
