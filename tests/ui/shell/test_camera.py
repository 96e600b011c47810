"""Webcam frames: JPEG for the preview, reads fused over frames, the capture's read, and a
recorded video played as the webcam (no real camera handled; the reads' drawing: vision.draw)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.ui.kit.photo.read import small_width
from companion.ui.kit.services import LazyDetector, decode_upload
from companion.ui.kit.text import t
from companion.ui.shell.camera import (
    PREVIEW_WIDTH,
    Camera,
    FusedDetector,
    LazyFollower,
    encode_jpeg,
)
from companion.vision import Detections
from companion.vision.layouts.expect import Expect
from companion.vision.layouts.gang import group_table
from tests.helpers import FIXTURES, cards, without_indices


def test_preview_jpeg_is_shrunk_and_capture_is_not() -> None:
    frame = np.full((720, 1280, 3), 128, np.uint8)
    assert decode_upload(encode_jpeg(frame)).shape == (360, PREVIEW_WIDTH, 3)
    assert decode_upload(encode_jpeg(frame, width=None)).shape == (720, 1280, 3)


def test_a_missing_camera_is_none() -> None:
    assert Camera.open(97) is None


def test_the_live_read_is_none_without_a_reader_and_fuses_frames_with_one() -> None:
    def missing() -> object:
        raise ImportError("no vision here", name="onnxruntime")

    frame = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    off = LazyFollower(LazyDetector(missing))
    assert off.follow(frame) is None and off.fused() is None
    on = LazyFollower(LazyDetector())
    assert on.fused() is None
    assert len(on.follow(frame) or ()) == 0  # one read: nothing is shown yet
    second = on.follow(frame)
    assert second is not None and len(second) >= 10
    assert on.fused() is not None and len(on.fused() or ()) == len(second)


def test_a_capture_reads_the_fused_cards_whatever_the_frame_shows() -> None:
    fused = Detections(
        cards("As"), np.array([0.99]), np.array([[0, 0, 10, 14]]), np.zeros((1, 4, 2))
    )
    blank = np.zeros((720, 1280, 3), np.uint8)
    assert FusedDetector(fused).detect(blank) is fused


def test_a_capture_of_a_table_is_the_fused_read_grouped_against_its_layout() -> None:
    fused = Detections(
        cards("As"), np.array([0.99]), np.array([[0, 0, 10, 14]]), np.zeros((1, 4, 2))
    )
    told = FusedDetector(fused).read_layout(np.zeros((720, 1280, 3), np.uint8), Expect(5, 1, 2))
    assert told.detections is fused
    assert told.grouping == group_table(fused, Expect(5, 1, 2)) and told.grouping.missing


def test_a_capture_adds_the_faces_seen_where_no_fused_card_lies() -> None:
    detector = LazyDetector()
    scene = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    read = detector.detect(scene)
    assert read is not None
    codes = [str(card) for card in read.cards]
    queen = read.quads[codes.index("Qc")]
    without_queen = read[np.array([code != "Qc" for code in codes])]
    frame = without_indices(scene, queen)  # the frames never read her
    captured = FusedDetector(without_queen, detector).detect(frame)
    assert captured is not None and captured.cards == without_queen.cards
    (face,) = captured.unread
    assert np.linalg.norm(face.mean(axis=0) - queen.mean(axis=0)) < 0.2 * np.linalg.norm(
        queen[1] - queen[0]
    )
    whole = FusedDetector(read, detector).detect(scene)
    assert whole is not None and whole.unread.shape == (0, 4, 2)


def test_the_preview_asks_to_come_closer_only_when_the_cards_are_small() -> None:
    frame = cv2.imread(str(FIXTURES / "scene_0001.jpg"))  # cards about 77 px wide
    far = cv2.resize(frame, None, fx=0.55, fy=0.55, interpolation=cv2.INTER_AREA)
    near_read, far_read = LazyFollower(LazyDetector()), LazyFollower(LazyDetector())
    for _ in range(3):
        near, small = near_read.follow(frame), far_read.follow(far)
    assert near is not None and len(near) >= 10 and small_width(near) is None
    assert small is not None and len(small) >= 1
    width = small_width(small)
    assert width is not None and 30 < width < 50
    assert small_width(None) is None and small_width(Detections.empty()) is None
    assert t("webcam_small", "en", px=width) == (
        f"The cards are small in the frame (about {width} px wide): bring the webcam closer"
    )


def test_a_recorded_video_plays_again_when_it_ends(tmp_path: Path) -> None:
    path = str(tmp_path / "table.avi")
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (320, 240))
    for shade in (40, 120, 200):
        writer.write(np.full((240, 320, 3), shade, np.uint8))
    writer.release()
    camera = Camera.open(path)
    assert camera is not None
    frames = [camera.frame() for _ in range(7)]
    camera.close()
    shades = [None if frame is None else round(float(np.median(frame)) / 40) for frame in frames]
    assert shades == [1, 3, 5, 1, 3, 5, 1]
