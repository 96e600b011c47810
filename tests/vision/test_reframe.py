"""Doubtful corner reads cut again at nearby frames, and the card-paper check."""

import cv2
import numpy as np
import pytest

from companion.vision import CardDetector, geometry
from companion.vision.detector import (
    PAPER_MAX_SATURATION,
    Proposal,
    paper_saturation,
    paper_saturations,
    reframes,
)
from tests.helpers import FIXTURES


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def _turn(vec: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * vec[0] - s * vec[1], s * vec[0] + c * vec[1]])


def test_reframes_stay_near_the_proposal() -> None:
    q = Proposal(np.array([100.0, 50.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 80.0)
    frames = reframes(q)
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
    reads, _ = detector.read_corners(image)
    sure = [r for r in reads if r.confidence > 0.95]
    assert len(sure) >= 5
    turned = [
        Proposal(r.proposal.p, _turn(r.proposal.u, a), _turn(r.proposal.v, a), r.proposal.s)
        for r in sure
        for a in (-0.25, 0.25)
    ]
    crops = np.array([geometry.crop_corner(image, q.p, q.u, q.v, q.s) for q in turned])
    rank_p, suit_p = detector.classify(crops)
    codes = [r.code for r in sure for _ in (0, 1)]

    def right(rp: np.ndarray, sp: np.ndarray) -> int:
        """Crops read as their card, surely enough to be reported."""
        n = 0
        for a, b, code in zip(rp, sp, codes, strict=True):
            r, s = int(np.argmax(a)), int(np.argmax(b))
            if r < len(detector.ranks) and a[r] * b[s] >= detector.threshold:
                n += detector.ranks[r] + detector.suits[s] == code
        return n

    before = right(rank_p, suit_p)
    _, _, rank_2, suit_2 = detector._reframe_doubtful(image, turned, crops, rank_p, suit_p)
    after = right(rank_2, suit_2)
    # Turned by 14 degrees, a third of the sure corners are lost (16 of 24 read with the
    # shipped model); the nearby frames bring back 7 of those 8.
    assert before < 0.8 * len(turned), (before, len(turned))
    assert after - before >= 0.5 * (len(turned) - before), (before, after, len(turned))
    assert after >= 0.85 * len(turned), (before, after, len(turned))
