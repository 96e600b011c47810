"""Webcam video: reads fused over frames (``FrameFuser``) and the live reader that feeds it."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.engine.cards import parse_card
from companion.vision import CardDetector, Detections
from companion.vision.base.alternatives import Alternative
from companion.vision.base.geometry import card_quad
from companion.vision.live import SHOWN, STABLE, WINDOW, CardFollower, FrameFuser
from companion.vision.live.follow import corner_frame, inside, moved
from companion.vision.proposals import Proposal
from tests.helpers import FIXTURES
from tests.vision.layouts.builders import reads

SURE, UNSURE = 0.99, 0.8  # a read the detector is sure of, and one it flags


def _shown(fused: Detections) -> dict[str, bool]:
    """Each card shown, and whether it is flagged."""
    return {str(card): bool(check) for card, check in zip(fused.cards, fused.check, strict=True)}


def test_a_card_is_shown_after_two_reads_and_sure_after_three() -> None:
    fuser = FrameFuser()
    seen = [_shown(fuser.update(reads(("As", 300, 300), conf=SURE))) for _ in range(STABLE)]
    assert SHOWN == 2 and STABLE == 3
    assert seen == [{}, {"As": True}, {"As": False}]


def test_the_code_read_most_often_wins_and_one_misread_leaves_it_sure() -> None:
    fuser = FrameFuser()
    for code in ["8c", "8c", "6c", "8c", "8c"]:
        fused = fuser.update(reads((code, 300, 300), conf=SURE))
    assert _shown(fused) == {"8c": False}


def test_two_codes_read_as_often_at_one_place_are_not_sure() -> None:
    fuser = FrameFuser()
    for code in ["8c", "6c", "8c", "6c"]:
        fused = fuser.update(reads((code, 300, 300), conf=SURE))
    # Two votes each: the code read last is shown, flagged.
    assert _shown(fused) == {"6c": True}


def test_reads_the_detector_flags_every_time_never_make_a_card_sure() -> None:
    fuser = FrameFuser()
    for _ in range(WINDOW + 2):
        fused = fuser.update(reads(("Qd", 300, 300), conf=UNSURE))
    assert _shown(fused) == {"Qd": True}
    # One sure read among the agreeing ones is enough.
    fused = fuser.update(reads(("Qd", 300, 300), conf=SURE))
    assert _shown(fused) == {"Qd": False}


def test_a_card_followed_as_the_camera_moves_stays_one_card() -> None:
    fuser = FrameFuser()
    for k in range(4):
        fused = fuser.update(reads(("Kh", 300, 300), ("2s", 420, 300), shift=(15.0 * k, 0.0)))
    assert _shown(fused) == {"Kh": True, "2s": True}  # 0.9: flagged by the detector
    assert len(fused) == 2
    assert fused.centres[0][0] == pytest.approx(300 + 45, abs=1)


def test_cards_side_by_side_are_two_places() -> None:
    fuser = FrameFuser()
    for _ in range(STABLE):
        # 100 px wide cards whose centres are 110 px apart: beyond the matching distance.
        fused = fuser.update(reads(("9h", 300, 300), ("9d", 410, 300), conf=SURE))
    assert _shown(fused) == {"9h": False, "9d": False}


def test_a_card_gone_for_the_whole_window_is_forgotten() -> None:
    fuser = FrameFuser()
    for _ in range(3):
        fuser.update(reads(("Jc", 300, 300), ("Tc", 600, 300), conf=SURE))
    for k in range(WINDOW):
        fused = fuser.update(reads(("Tc", 600, 300), conf=SURE))
        # Its reads still count while they are among the recent frames.
        if k < WINDOW - SHOWN:
            assert "Jc" in _shown(fused)
    assert _shown(fused) == {"Tc": False}
    assert len(fuser.places()) == 1


def test_in_a_one_deck_game_a_code_at_two_places_keeps_the_better_read_one() -> None:
    fuser = FrameFuser()
    fuser.update(reads(("5s", 300, 300), conf=SURE))
    for _ in range(2):
        fused = fuser.update(reads(("5s", 300, 300), ("5s", 700, 300), conf=SURE))
    assert len(fused) == 1 and fused.centres[0][0] == pytest.approx(300)
    two_decks = FrameFuser(decks=2)
    for _ in range(2):
        fused = two_decks.update(reads(("5s", 300, 300), ("5s", 700, 300), conf=SURE))
    assert len(fused) == 2


def test_boxes_are_clipped_to_the_frame_and_a_reset_forgets_everything() -> None:
    fuser = FrameFuser()
    for _ in range(2):
        fused = fuser.update(reads(("3d", 30, 300), conf=SURE), shape=(720, 1280))
    assert fused.xyxy[0][0] == 0.0
    fuser.reset()
    assert len(fuser.fused()) == 0 and fuser.places() == []


def _offering(read: Detections, alternatives: str, crop: float) -> Detections:
    """``read`` (one card) offering ``alternatives`` ("8c:0.02 ..."), its crops at ``crop``."""
    offered = tuple(Alternative(parse_card(a[:2]), float(a[3:])) for a in alternatives.split())
    quads = np.full((1, 4, 2), crop, np.float32)
    return replace(read, alternatives=(offered,), index_quads=quads, face_quads=quads + 1)


def test_a_fused_card_offers_its_latest_reads_alternatives_and_the_latest_frames_crops() -> None:
    fuser = FrameFuser()
    fuser.update(_offering(reads(("6c", 300, 300), conf=SURE), "9c:0.004", 1.0))
    fuser.update(_offering(reads(("8c", 300, 300), conf=0.7), "6c:0.25 9c:0.01", 2.0))
    fused = fuser.update(_offering(reads(("6c", 300, 300), conf=0.9), "8c:0.05", 3.0))
    # 6c twice: shown, flagged; its confidence their mean, with its latest read's alternative.
    assert _shown(fused) == {"6c": True}
    assert [(str(a.card), a.probability) for a in fused.alternatives[0]] == [("8c", 0.05)]
    assert fused.index_quads[0].tolist() == [[3.0, 3.0]] * 4
    assert fused.face_quads[0].tolist() == [[4.0, 4.0]] * 4
    # The mean of the agreeing reads is surer than the latest: its alternatives shrink to fit.
    fused = fuser.update(_offering(reads(("6c", 300, 300), conf=0.5), "8c:0.5", 3.0))
    assert fused.confidence[0] == pytest.approx((SURE + 0.9 + 0.5) / 3)
    assert fused.alternatives[0][0].probability == pytest.approx(1 - (SURE + 0.9 + 0.5) / 3)
    # An alternative read surely elsewhere in a one-deck game is none.
    other = FrameFuser()
    for _ in range(STABLE):
        two = reads(("6c", 300, 300), ("8c", 600, 300), conf=SURE)
        offered = (
            tuple(Alternative(parse_card(c), 0.005) for c in ("8c", "9c")),
            (Alternative(parse_card("6c"), 0.005),),
        )
        fused = other.update(replace(two, alternatives=offered))
    assert [[str(a.card) for a in row] for row in fused.alternatives] == [["9c"], []]


def test_window_stable_and_shown_must_nest() -> None:
    with pytest.raises(ValueError, match="shown <= stable <= window"):
        FrameFuser(window=3, stable=4)


def test_a_card_outline_gives_back_the_corner_frame_it_was_drawn_from() -> None:
    p, u = np.array([100.0, 50.0]), np.array([np.cos(0.3), np.sin(0.3)])
    v = np.array([-u[1], u[0]])
    frame = corner_frame(card_quad(p, u, v, 80.0))
    assert frame.p == pytest.approx(p) and frame.s == pytest.approx(80.0, rel=1e-5)
    assert frame.u == pytest.approx(u, abs=1e-6) and frame.v == pytest.approx(v, abs=1e-6)


def test_a_frame_is_carried_by_the_camera_motion() -> None:
    turn = np.array([[0.0, -2.0, 10.0], [2.0, 0.0, 20.0]])  # a quarter turn, twice the size
    frame = Proposal(np.array([1.0, 0.0]), np.array([1.0, 0.0]), np.array([0, 1.0]), 5.0)
    after = moved(frame, turn)
    assert after.p == pytest.approx([10.0, 22.0])
    assert after.u == pytest.approx([0.0, 1.0]) and after.v == pytest.approx([-1.0, 0.0])
    assert after.s == pytest.approx(10.0)


def test_a_corner_on_a_followed_card_is_inside_it_and_one_beyond_its_edge_is_not() -> None:
    card = Proposal(np.array([100.0, 100.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 50.0)
    # The card spans x 100-150 and y 100-170; the margin is a tenth of each side.
    assert inside(np.array([148.0, 168.0]), [card])
    assert inside(np.array([96.0, 100.0]), [card])
    assert not inside(np.array([160.0, 120.0]), [card])
    assert not inside(np.array([120.0, 120.0]), [])


def _camera_frames(image: np.ndarray, count: int) -> list[np.ndarray]:
    """``image`` seen by a camera panning and turning slowly over it, 1280x720."""
    h, w = image.shape[:2]
    frames = []
    for k in range(count):
        turn = np.radians(0.6 * k)
        matrix = cv2.getRotationMatrix2D((w / 2, h / 2), np.degrees(turn), 1.25)
        matrix[:, 2] += [(1280 - w) / 2 + 4 * k, (720 - h) / 2 - 2 * k]
        frames.append(cv2.warpAffine(image, matrix, (1280, 720), borderMode=cv2.BORDER_REFLECT))
    return frames


@pytest.mark.slow
def test_the_live_reader_reads_a_rendered_table_seen_by_a_moving_camera() -> None:
    label = next(
        e
        for e in json.loads((FIXTURES / "labels.json").read_text())
        if e["image"] == "scene_0001.jpg"
    )
    image = cv2.imread(str(FIXTURES / label["image"]))
    reader = CardFollower(CardDetector())
    history = [_shown(reader.follow(frame)) for frame in _camera_frames(image, 8)]
    # Nothing is shown after one frame, nothing is sure before three.
    assert history[0] == {}
    assert all(history[1].values())
    last = history[-1]
    assert sorted(last) == sorted(label["cards"])
    assert sum(not check for check in last.values()) >= len(label["cards"]) - 2
    assert _shown(reader.fused()) == last


def test_between_full_looks_the_live_reader_follows_the_cards_it_read() -> None:
    # The frames to follow are found by the reads made at them: a read must keep its frame.
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    reader = CardFollower(CardDetector())
    looked = []
    for _ in range(3):
        reader.follow(image)
        looked.append(reader.looked)
    assert looked == [True, False, False]


def test_under_a_red_bulb_the_live_reader_shows_the_cards_of_daylight() -> None:
    label = next(
        e
        for e in json.loads((FIXTURES / "labels.json").read_text())
        if e["image"] == "scene_0001.jpg"
    )
    image = cv2.imread(str(FIXTURES / label["image"]))
    red = np.clip(image * np.array([0.3, 0.35, 1.0]), 0, 255).astype(np.uint8)
    reader = CardFollower(CardDetector())
    history = [_shown(reader.follow(frame)) for frame in _camera_frames(red, 5)]
    assert sorted(history[-1]) == sorted(label["cards"])
