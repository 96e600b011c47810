"""The back finder (``companion.vision.backs``): face-down cards found on rendered tables and on
the fixture photos, no face-up card called a back, and the outlines a back lies under."""

from __future__ import annotations

import numpy as np
import pytest

from companion.errors import ModelLoadError
from companion.vision.backs import Back, BackModel, find_backs, on_backs
from companion.vision.proposals import DEFAULT_OUTLINES
from tests.helpers import turned_card


def _back(outline: np.ndarray) -> Back:
    return Back(outline, outline, 0.9, 1000.0)


def test_an_outline_mostly_on_a_back_lies_on_it() -> None:
    hand = turned_card((200, 200), 100, 10)
    reads = np.array(
        [
            turned_card((205, 195), 100, 12),  # the back read as a face
            turned_card((245, 200), 100, 10),  # more than half on it
            turned_card((400, 200), 100, 0),  # a face beside it
        ]
    )
    np.testing.assert_array_equal(on_backs(reads, [_back(hand)]), [True, True, False])
    np.testing.assert_array_equal(on_backs(reads, [_back(hand)], 0.9), [True, False, False])
    assert on_backs(reads, []).tolist() == [False] * 3
    assert on_backs(np.zeros((0, 4, 2)), [_back(hand)]).shape == (0,)


def test_a_face_laid_on_a_back_is_not_on_it() -> None:
    # The back's piece in view is an L round the face laid over its corner.
    piece = np.array([[0, 0], [100, 0], [100, 60], [50, 60], [50, 145], [0, 145]], np.float64)
    face = np.array([[50, 60], [150, 60], [150, 205], [50, 205]], np.float64)
    assert not on_backs(face[None], [_back(piece)])[0]


def test_a_model_without_back_metadata_is_refused() -> None:
    with pytest.raises(ModelLoadError, match="not a back model"):
        BackModel(DEFAULT_OUTLINES)


@pytest.mark.parametrize("shape", [(4, 400, 3), (300, 400), (300, 400, 4)])
def test_an_image_that_is_no_photo_is_named(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="BGR image"):
        find_backs(np.zeros(shape, np.uint8))
