"""The spot model's targets: index corners as heat peaks, kept on their pixels when turned."""

from __future__ import annotations

import numpy as np

from companion.vision.proposals.spots import WIDTH_UNIT
from companion.vision.training.spot_targets import crop_with_corners, targets, turned


def test_a_turned_corner_lies_where_np_rot90_puts_its_pixel() -> None:
    image = np.zeros((30, 50), np.uint8)
    image[7, 41] = 1
    (x, y, ux, uy, w) = turned(np.array([[41, 7, 1, 0, 12]], np.float32), 50)[0]
    assert np.rot90(image)[int(y), int(x)] == 1
    assert (ux, uy, w) == (0, -1, 12)  # the edge that pointed right points up


def test_crops_keep_each_corner_on_its_pixel() -> None:
    rng = np.random.default_rng(3)
    for _ in range(12):
        image = np.zeros((90, 120, 3), np.uint8)
        points = rng.uniform([5, 5], [115, 85], size=(3, 2))
        for x, y in points:
            image[round(y), round(x)] = (255, 0, 0)
        rows = np.hstack([points, np.tile([0.0, 1.0, 20.0], (3, 1))]).astype(np.float32)
        crop, moved = crop_with_corners(image, rows, rng, 64)
        assert crop.shape == (64, 64, 3)
        for x, y, *_ in moved:
            if 0 <= round(x) < 64 and 0 <= round(y) < 64:
                assert crop[round(y), round(x), 0] == 255


def test_targets_peak_at_each_corner_with_its_frame() -> None:
    out = targets(np.array([[10, 20, 0.6, 0.8, 64], [40, 5, -1, 0, 16]], np.float32), 48)
    assert out.shape == (4, 48, 48)
    assert out[0, 20, 10] == 1.0 and out[0, 5, 40] == 1.0
    assert int(np.sum(out[0] == 1.0)) == 2
    np.testing.assert_allclose(out[1:, 20, 10], [0.6, 0.8, np.log(64 / WIDTH_UNIT)], rtol=1e-6)
    np.testing.assert_allclose(out[1:, 5, 40], [-1, 0, np.log(16 / WIDTH_UNIT)], rtol=1e-6)
    assert out[0, 20, 13] < 0.2  # three pixels off the peak: exp(-2)
    assert out[0, 40, 40] == 0.0
