"""A shipped int8 model's weights loaded into a ``CornerNet`` for fine-tuning (``onnx_init``).

Needs the training extra (torch, onnx); skipped without it."""

from pathlib import Path

import cv2
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from companion.vision import CardDetector  # noqa: E402
from companion.vision.base.sessions import DEFAULT_MODEL  # noqa: E402
from companion.vision.corner_reads import cut  # noqa: E402
from companion.vision.proposals.levels import propose_corners  # noqa: E402
from companion.vision.training.net import CornerNet  # noqa: E402
from companion.vision.training.onnx_init import load_onnx_weights, net_of  # noqa: E402
from tests.helpers import FIXTURES  # noqa: E402


def test_the_loaded_net_reads_as_the_shipped_int8_model() -> None:
    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    crops = cut(image, propose_corners(image)[0])
    rank, suit = CardDetector().reader.classify(crops)
    net = net_of(DEFAULT_MODEL).eval()
    with torch.no_grad():
        rank2, suit2 = (t.numpy() for t in net(torch.from_numpy(crops).float()))
    # The float net differs from the int8 one by the quantization only.
    assert (rank.argmax(axis=1) == rank2.argmax(axis=1)).mean() > 0.97
    index = rank.argmax(axis=1) < 13
    assert index.sum() >= 13
    assert (suit.argmax(axis=1) == suit2.argmax(axis=1))[index].mean() > 0.97


def test_a_net_of_another_width_is_refused() -> None:
    with pytest.raises(ValueError, match="convolution"):
        load_onnx_weights(CornerNet(width=1.5), Path(DEFAULT_MODEL))
