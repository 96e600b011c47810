"""The doubt model's measuring pieces (``training.doubt_model``)."""

import numpy as np

from companion.vision import Detections
from companion.vision.base.detections import CLUES
from companion.vision.training.doubt_model import (
    FEATURES,
    Photo,
    features,
    fit,
    judge,
    level_of,
    scores,
    wrong_reads,
)
from tests.helpers import cards


def _photo(codes: str, confidence: list[float], truth: list[str], partly: list[str]) -> Photo:
    n = len(confidence)
    det = Detections(cards(codes), np.array(confidence), np.zeros((n, 4)), np.zeros((n, 4, 2)))
    return Photo(det, None, truth, partly, 0, [])


def test_the_surest_read_of_a_code_is_the_right_one_and_partly_hidden_reads_count_neither() -> None:
    photo = _photo("As As Kd 9c", [0.99, 0.6, 0.9, 0.8], ["As"], ["9c"])
    wrong, counted = wrong_reads(photo)
    assert wrong.tolist() == [False, True, True, False]
    assert counted.tolist() == [True, True, True, False]


def test_features_take_unknown_clues_as_zero_and_name_every_column() -> None:
    photo = _photo("As Kd", [0.99, 0.5], ["As"], [])
    x = features(photo.detections, None)
    assert x.shape == (2, len(FEATURES)) and np.isfinite(x).all()
    assert x[1, FEATURES.index("confidence")] == 0.0  # log-odds of one half
    assert x[0, FEATURES.index("ink_unknown")] == 1.0 and "width" not in FEATURES
    assert len(FEATURES) == len(CLUES) + 7


def test_a_fitted_model_ranks_the_wrong_reads_first_and_its_level_flags_them_all() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 3))
    y = (x[:, 0] + 0.3 * rng.normal(size=400) > 1.2).astype(np.float64)
    model = fit(x, y)
    score = scores(x, model)
    assert model[0][0] > 1.0 and abs(model[0][1]) < 0.5
    level = level_of(score, y > 0)
    assert (score[y > 0] >= level).all() and (score >= level).sum() < 200
    assert level_of(score, np.zeros(400, bool)) == float("inf")


def test_flags_in_place_of_the_readers_check_are_counted_as_evaluate_counts_them() -> None:
    photo = _photo("As Kd", [0.99, 0.99], ["As"], [])
    assert judge([photo], None).silent == 1  # the Kd is wrong, and unflagged
    flagged = judge([photo], [np.array([False, True])])
    assert (flagged.silent, flagged.wrong_flagged, flagged.right_flagged) == (0, 1, 0)
