"""The back check (``companion.vision.backs.check``, measured and not shipped): the area it
reads round a read's corner, the crop it cuts, and which reads it judges."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import ModelLoadError
from companion.vision.backs import (
    CROP_HEIGHT,
    CROP_WIDTH,
    BackCheck,
    back_rows,
    card_crop,
    corner_area,
    crops_batch,
)
from companion.vision.proposals import DEFAULT_OUTLINES
from tests.helpers import turned_card


@given(st.floats(-500, 500), st.floats(-500, 500), st.floats(4, 300), st.floats(-180, 180))
def test_the_area_read_is_the_index_crop_doubled_about_its_middle(
    x: float, y: float, width: float, degrees: float
) -> None:
    index = turned_card((x, y), width, degrees)
    area = corner_area(index[None])[0]
    np.testing.assert_allclose(area.mean(axis=0), index.mean(axis=0), atol=1e-6)
    sides = np.linalg.norm(np.roll(area, -1, axis=0) - area, axis=1)
    index_sides = np.linalg.norm(np.roll(index, -1, axis=0) - index, axis=1)
    np.testing.assert_allclose(sides, 2 * index_sides, rtol=1e-9)


@pytest.mark.parametrize(
    "quad",
    [
        turned_card((100, 100), 60, 0),
        turned_card((100, 100), 60, 90),  # given from its long side: stood up
        turned_card((5, 5), 60, 30),  # partly beyond the photo's edge
        turned_card((900, 900), 60, 0),  # wholly beyond it
        np.full((4, 2), np.nan),  # unknown
        np.zeros((4, 2)),  # no area
    ],
)
def test_every_crop_is_the_size_the_check_reads(quad: np.ndarray) -> None:
    image = np.full((200, 200, 3), 128, np.uint8)
    assert card_crop(image, quad).shape == (CROP_HEIGHT, CROP_WIDTH, 3)


def test_a_crop_shows_what_lies_in_its_outline() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    image[:, 150:] = (0, 0, 255)  # the right half red
    left, right = turned_card((75, 100), 60, 0), turned_card((225, 100), 60, 0)
    batch = crops_batch(image, np.stack([left, right]))
    assert batch.shape == (2, 3, CROP_HEIGHT, CROP_WIDTH) and batch.dtype == np.float32
    assert batch[0].max() == 0.0
    np.testing.assert_allclose(batch[1][:, 8:-8, 8:-8].mean(axis=(1, 2)), [0, 0, 1], atol=1e-6)
    assert crops_batch(image, np.zeros((0, 4, 2))).shape == (0, 3, CROP_HEIGHT, CROP_WIDTH)


def test_a_model_without_back_check_metadata_is_refused() -> None:
    with pytest.raises(ModelLoadError, match="not a back check"):
        BackCheck(DEFAULT_OUTLINES)


def _always_back(path: Path) -> Path:
    """An ONNX model with the check's input and metadata that calls every crop a back."""
    onnx = pytest.importorskip("onnx")
    helper, tensor = onnx.helper, onnx.TensorProto
    graph = helper.make_graph(
        [
            helper.make_node("ReduceMean", ["crops"], ["mean"], axes=[1, 2, 3], keepdims=0),
            helper.make_node("Mul", ["mean", "zero"], ["nothing"]),
            helper.make_node("Add", ["nothing", "sure"], ["back"]),
        ],
        "always_back",
        [helper.make_tensor_value_info("crops", tensor.FLOAT, ["n", 3, CROP_HEIGHT, CROP_WIDTH])],
        [helper.make_tensor_value_info("back", tensor.FLOAT, ["n"])],
        [
            helper.make_tensor("zero", tensor.FLOAT, [], [0.0]),
            helper.make_tensor("sure", tensor.FLOAT, [], [10.0]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    entry = model.metadata_props.add()
    entry.key, entry.value = "back_check", f"{CROP_HEIGHT}x{CROP_WIDTH}"
    onnx.save(model, str(path))
    return path


def test_only_doubted_reads_with_an_index_crop_are_judged(tmp_path: Path) -> None:
    check = BackCheck(_always_back(tmp_path / "always.onnx"))
    image = np.full((200, 300, 3), 90, np.uint8)
    index = np.stack([turned_card((60 * k + 40, 100), 20, 0) for k in range(4)])
    index[3] = np.nan  # a read whose crop is unknown
    doubted = np.array([True, False, True, True])
    np.testing.assert_array_equal(
        back_rows(image, doubted, index, check), [True, False, True, False]
    )
    assert not back_rows(image, np.zeros(4, bool), index, check).any()
    assert back_rows(image, np.zeros(0, bool), np.zeros((0, 4, 2)), check).shape == (0,)
