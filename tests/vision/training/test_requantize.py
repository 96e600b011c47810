"""The ReLUs of an int8 model folded into its convolutions' quantization (``requantize``).

Needs the training extra (onnx); skipped without it."""

from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from companion.vision.base.sessions import DEFAULT_FACE, DEFAULT_MODEL, DEFAULT_READER  # noqa: E402
from companion.vision.corner_reads.gate import DEFAULT_GATE  # noqa: E402
from companion.vision.proposals.outlines import DEFAULT_OUTLINES  # noqa: E402
from companion.vision.training.quantize import quantize_qdq  # noqa: E402
from companion.vision.training.requantize import fold_file, fold_relus, main  # noqa: E402


def _float_model(path: Path) -> None:
    """Conv -> Relu -> MaxPool -> Conv -> Relu -> Conv: both block shapes ``quantize`` meets."""
    rng = np.random.default_rng(0)
    weights = [
        rng.normal(0, 0.4, shape).astype(np.float32)
        for shape in ((4, 3, 3, 3), (6, 4, 3, 3), (2, 6, 1, 1))
    ]
    inits = [numpy_helper.from_array(w, f"w{i}") for i, w in enumerate(weights)]
    nodes = [
        helper.make_node("Conv", ["x", "w0"], ["c0"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c0"], ["r0"]),
        helper.make_node("MaxPool", ["r0"], ["p0"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p0", "w1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "blocks",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 2, 8, 8])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def _quantized(tmp_path: Path) -> tuple[Path, np.ndarray]:
    source, target = tmp_path / "float.onnx", tmp_path / "int8.onnx"
    _float_model(source)
    rng = np.random.default_rng(1)
    batches = [rng.normal(0, 1, (8, 3, 16, 16)).astype(np.float32) for _ in range(4)]
    # As quantize.py: the ReLUs stay float.
    quantize_qdq(source, target, batches, "x", ["Conv"], weights_7_bit=False)
    return target, rng.normal(0, 1, (8, 3, 16, 16)).astype(np.float32)


def _run(path: Path, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return np.asarray(session.run(None, {"x": x})[0])


def test_folding_keeps_the_outputs_and_drops_every_float_relu(tmp_path: Path) -> None:
    target, x = _quantized(tmp_path)
    before = _run(target, x)
    model = onnx.load(str(target))
    assert [n.op_type for n in model.graph.node].count("Relu") == 2
    assert fold_relus(model) == 2
    assert "Relu" not in [n.op_type for n in model.graph.node]
    folded = tmp_path / "folded.onnx"
    onnx.save(model, str(folded))
    after = _run(folded, x)
    # One rounding fewer: the outputs move by about a step of the last quantization, no more.
    last_step = max(
        float(numpy_helper.to_array(i))
        for i in model.graph.initializer
        if i.name.startswith("y") and i.name.endswith("_scale")
    )
    assert np.abs(after - before).max() <= 4 * last_step
    assert np.abs(after - before).mean() < 0.75 * last_step


def test_folding_twice_changes_nothing(tmp_path: Path) -> None:
    target, _ = _quantized(tmp_path)
    assert fold_file(target) == 2
    once = target.read_bytes()
    assert fold_file(target) == 0
    assert target.read_bytes() == once


@pytest.mark.parametrize(
    "path", [DEFAULT_MODEL, DEFAULT_READER, DEFAULT_FACE, DEFAULT_OUTLINES, DEFAULT_GATE]
)
def test_the_shipped_models_are_folded(path: Path) -> None:
    model = onnx.load(str(path))
    assert fold_relus(model) == 0


def test_a_missing_model_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "none.onnx")]) == 2
    assert "none.onnx: no such model file" in capsys.readouterr().err
