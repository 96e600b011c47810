import cv2
import numpy as np
import pytest

from companion.vision.base import geometry


def _card_image(angle_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """A white card with a black square index mark at its top-left, rotated on a grey table."""
    image = np.full((400, 400, 3), 90, np.uint8)
    width = 120.0
    local = np.array([[0, 0], [width, 0], [width, 1.4 * width], [0, 1.4 * width]])
    mark = np.array([[0.08, 0.08], [0.2, 0.08], [0.2, 0.2], [0.08, 0.2]]) * width
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])

    def to_image(pts: np.ndarray) -> np.ndarray:
        return np.asarray(pts @ rot.T + [130, 110])

    quad = to_image(local)
    cv2.fillConvexPoly(image, quad.astype(np.int32), (255, 255, 255))
    cv2.fillConvexPoly(image, to_image(mark).astype(np.int32), (0, 0, 0))
    return image, quad


@pytest.mark.parametrize("angle", [0.0, 33.0, 90.0, 180.0, 250.0])
def test_crop_of_top_left_corner_shows_the_mark_upright(angle: float) -> None:
    image, quad = _card_image(angle)
    p = quad[0]
    u = (quad[1] - quad[0]) / np.linalg.norm(quad[1] - quad[0])
    v = (quad[3] - quad[0]) / np.linalg.norm(quad[3] - quad[0])
    crop = geometry.crop_corner(image, p, u, v, 120.0)
    assert crop.shape == (geometry.CROP_H, geometry.CROP_W, 3)

    # The mark spans 0.08..0.2 card widths from the corner: dark there, white beyond it.
    def col(x: float) -> int:
        return int(
            (x - geometry.CROP_X[0]) / (geometry.CROP_X[1] - geometry.CROP_X[0]) * geometry.CROP_W
        )

    def row(y: float) -> int:
        return int(
            (y - geometry.CROP_Y[0]) / (geometry.CROP_Y[1] - geometry.CROP_Y[0]) * geometry.CROP_H
        )

    assert crop[row(0.14), col(0.14)].max() < 60
    assert crop[row(0.35), col(0.3)].min() > 200
    assert crop[row(0.14), col(-0.02)].max() < 120  # outside the card: the table


def test_large_photo_crop_is_antialiased_not_aliased() -> None:
    # A fine checkerboard far below the crop's pixel size must average to grey, not alias.
    image = (np.indices((3000, 3000)).sum(axis=0) % 2 * 255).astype(np.uint8)
    image = np.dstack([image] * 3)
    crop = geometry.crop_corner(
        image, np.array([1000.0, 1000.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 1500.0
    )
    assert abs(float(crop.mean()) - 127.5) < 10
    assert float(crop.std()) < 10


def test_card_quad_spans_card_proportions() -> None:
    quad = geometry.card_quad(
        np.array([10.0, 20.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 100.0
    )
    np.testing.assert_allclose(quad, [[10, 20], [110, 20], [110, 160], [10, 160]])


def test_a_big_crop_almost_wholly_outside_the_image_is_cut_without_error() -> None:
    # A frame met on a held-out scene: only a sliver of its crop lies in the image, and a
    # crop pixel spans 7.5 image pixels; the sliver once shrank to no pixels and OpenCV raised.
    image = np.full((800, 1200, 3), 200, np.uint8)
    crop = geometry.crop_corner(
        image,
        np.array([1488.53, 103.2]),
        np.array([-1.0, 0.0]),
        np.array([0.33551, -0.94204]),
        792.64,
    )
    assert crop.shape == (geometry.CROP_H, geometry.CROP_W, 3)


@pytest.mark.parametrize("angle", [0.0, 33.0])
def test_face_crop_shows_the_whole_card_seen_from_its_corner(angle: float) -> None:
    image, quad = _card_image(angle)
    p = quad[0]
    u = (quad[1] - quad[0]) / np.linalg.norm(quad[1] - quad[0])
    v = (quad[3] - quad[0]) / np.linalg.norm(quad[3] - quad[0])
    crop = geometry.crop_corner(image, p, u, v, 120.0, geometry.FACE)
    assert crop.shape == (geometry.CROP_H, geometry.CROP_W, 3)
    (x0, x1), (y0, y1) = geometry.FACE

    def at(x: float, y: float) -> np.ndarray:
        return crop[
            int((y - y0) / (y1 - y0) * geometry.CROP_H),
            int((x - x0) / (x1 - x0) * geometry.CROP_W),
        ]

    assert at(0.5, 0.7).min() > 200 and at(0.9, 1.3).min() > 200  # the card, far corner too
    assert at(0.14, 0.14).max() < 80  # the index mark, smaller than in a corner crop
    # The table either side (the outermost crop pixels blend in a little of the card edge).
    assert at(-0.02, 0.7).max() < 180 and at(1.025, 0.7).max() < 180


def test_a_batch_of_crops_matches_each_frame_cut_alone() -> None:
    # Frames of several sizes (some shrunk before the warp, one partly outside the image)
    # and both extents: each row of the batch is its own frame's crop.
    rng = np.random.default_rng(3)
    image = cv2.resize(rng.integers(0, 256, (200, 200, 3), dtype=np.uint8), (1600, 1600))
    p = rng.uniform(100, 900, (6, 2))
    p[5] = [1590.0, 10.0]
    angles = rng.uniform(0, 2 * np.pi, 6)
    u = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    s = np.array([40.0, 120.0, 300.0, 480.0, 700.0, 500.0])
    for extent in (geometry.CORNER, geometry.FACE):
        batch = geometry.crop_corners(image, p, u, v, s, extent)
        alone = [
            geometry.crop_corner(image, p[i], u[i], v[i], float(s[i]), extent) for i in range(6)
        ]
        assert batch.shape == (6, geometry.CROP_H, geometry.CROP_W, 3)
        assert len({crop.tobytes() for crop in alone}) == 6
        np.testing.assert_array_equal(batch, np.array(alone))
    assert geometry.crop_corners(image, p[:0], u[:0], v[:0], s[:0]).shape == (
        0,
        geometry.CROP_H,
        geometry.CROP_W,
        3,
    )


def test_card_centres_are_the_means_of_the_card_outlines() -> None:
    p = np.array([[10.0, 20.0], [300.0, 40.0]])
    u = np.array([[1.0, 0.0], [0.6, 0.8]])
    v = np.array([[0.0, 1.0], [-0.8, 0.6]])
    s = np.array([50.0, 80.0])
    centres = geometry.card_centres(p, u, v, s)
    for i in range(2):
        outline = geometry.card_quad(p[i], u[i], v[i], float(s[i]))
        assert np.allclose(centres[i], outline.mean(axis=0))


@pytest.mark.parametrize("extent", [geometry.CORNER, geometry.FACE], ids=["index", "face"])
def test_a_crops_quad_is_the_area_its_pixels_sample(extent: geometry.Extent) -> None:
    # Frames of any turn, foreshortened or not: the crop's pixel edges (its pixel centres less
    # half a pixel) fall on the quad's corners.
    rng = np.random.default_rng(5)
    p = rng.uniform(0, 500, (6, 2))
    turn = rng.uniform(0, 2 * np.pi, 6)
    u = np.c_[np.cos(turn), np.sin(turn)] * rng.uniform(0.6, 1.0, (6, 1))
    v = np.c_[-np.sin(turn), np.cos(turn)]
    s = rng.uniform(20, 300, 6)
    quads = geometry.extent_quads(p, u, v, s, extent)
    m = geometry.corner_affines(p, u, v, s, extent)
    edges = np.array(
        [[0, 0], [geometry.CROP_W, 0], [geometry.CROP_W, geometry.CROP_H], [0, geometry.CROP_H]]
    )
    sampled = np.einsum("nij,kj->nki", m[:, :, :2], edges - 0.5) + m[:, None, :, 2]
    np.testing.assert_allclose(quads, sampled, atol=1e-3)
    assert geometry.extent_quads(p[:0], u[:0], v[:0], s[:0]).shape == (0, 4, 2)
