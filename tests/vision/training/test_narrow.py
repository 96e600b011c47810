"""An int8 model's weights narrowed to 7 bits (``narrow``), so that no CPU's kernel saturates.

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
from companion.vision.proposals.spots import DEFAULT_SPOTS  # noqa: E402
from companion.vision.training.narrow import (  # noqa: E402
    WEIGHT_BITS_KEY,
    WEIGHT_LIMIT,
    main,
    narrow_file,
    narrow_weights,
    widest_weight,
)
from companion.vision.training.quantize import quantize, quantize_qdq  # noqa: E402


def _float_model(path: Path) -> None:
    """Conv (with a bias) -> Relu -> Flatten -> Gemm."""
    rng = np.random.default_rng(3)
    inits = [
        numpy_helper.from_array(rng.normal(0, 0.5, (5, 3, 3, 3)).astype(np.float32), "w"),
        numpy_helper.from_array(rng.normal(0, 0.3, (5,)).astype(np.float32), "b"),
        numpy_helper.from_array(rng.normal(0, 0.2, (4, 5 * 8 * 8)).astype(np.float32), "g"),
        numpy_helper.from_array(rng.normal(0, 0.1, (4,)).astype(np.float32), "gb"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Flatten", ["r"], ["f"]),
        helper.make_node("Gemm", ["f", "g", "gb"], ["y"], transB=1),
    ]
    graph = helper.make_graph(
        nodes,
        "small",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 4])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def _batches() -> list[np.ndarray]:
    rng = np.random.default_rng(4)
    return [rng.normal(0, 1, (8, 3, 8, 8)).astype(np.float32) for _ in range(4)]


def _int8_model(tmp_path: Path) -> tuple[Path, np.ndarray]:
    """``_float_model`` quantized with full 8-bit weights, as the shipped models were before
    7 bits; and an input batch."""
    source, target = tmp_path / "float.onnx", tmp_path / "int8.onnx"
    _float_model(source)
    rng = np.random.default_rng(5)
    quantize_qdq(source, target, _batches(), "x", ["Conv", "Gemm"], weights_7_bit=False)
    return target, rng.normal(0, 1, (16, 3, 8, 8)).astype(np.float32)


def _run(path: Path, x: np.ndarray, fused: bool = True) -> np.ndarray:
    options = ort.SessionOptions()
    if not fused:  # each quantize and dequantize step on its own: the model's own arithmetic
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return np.asarray(session.run(None, {"x": x})[0])


def test_narrowed_weights_fit_7_bits_and_the_outputs_stay(tmp_path: Path) -> None:
    target, x = _int8_model(tmp_path)
    model = onnx.load(str(target))
    assert widest_weight(model) == 127
    before = _run(target, x, fused=False)
    assert narrow_weights(model) == 2
    assert widest_weight(model) == WEIGHT_LIMIT
    narrowed = tmp_path / "narrowed.onnx"
    onnx.save(model, str(narrowed))
    after = _run(narrowed, x, fused=False)
    # Half the weight steps: the outputs move by a little, relative to their spread.
    spread = np.abs(before).max()
    assert np.abs(after - before).max() < 0.05 * spread
    assert np.abs(after - before).mean() < 0.015 * spread


def test_the_bias_follows_the_weights_new_scale(tmp_path: Path) -> None:
    """onnxruntime's fused convolution adds the int32 bias as it is, so its scale must stay the
    input's scale times the weights' once those are rescaled."""
    target, _ = _int8_model(tmp_path)
    model = onnx.load(str(target))
    narrow_weights(model)
    values = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    producer = {out: node for node in model.graph.node for out in node.output}
    conv = next(n for n in model.graph.node if n.op_type == "Conv")
    x_scale = values[producer[conv.input[0]].input[1]]
    w_scale = values[producer[conv.input[1]].input[1]]
    b_scale = values[producer[conv.input[2]].input[1]]
    np.testing.assert_allclose(b_scale, x_scale * w_scale, rtol=1e-6)


def test_narrowed_the_fused_kernel_is_exact(tmp_path: Path) -> None:
    target, x = _int8_model(tmp_path)
    narrow_file(target)
    np.testing.assert_allclose(_run(target, x), _run(target, x, fused=False), atol=1e-4)


def test_narrowing_twice_changes_nothing_and_marks_the_model(tmp_path: Path) -> None:
    target, _ = _int8_model(tmp_path)
    assert narrow_file(target) == 2
    model = onnx.load(str(target))
    assert {p.key: p.value for p in model.metadata_props}[WEIGHT_BITS_KEY] == "7"
    once = target.read_bytes()
    assert narrow_file(target) == 0
    assert target.read_bytes() == once


def test_quantize_makes_7_bit_weights_and_says_so(tmp_path: Path) -> None:
    source, target = tmp_path / "float.onnx", tmp_path / "int8.onnx"
    _float_model(source)
    quantize(source, target, _batches(), "x")
    model = onnx.load(str(target))
    assert widest_weight(model) <= WEIGHT_LIMIT
    assert {p.key: p.value for p in model.metadata_props}[WEIGHT_BITS_KEY] == "7"


@pytest.mark.parametrize(
    "path",
    [DEFAULT_MODEL, DEFAULT_READER, DEFAULT_FACE, DEFAULT_OUTLINES, DEFAULT_GATE, DEFAULT_SPOTS],
)
def test_the_shipped_models_are_narrowed(path: Path) -> None:
    model = onnx.load(str(path))
    assert widest_weight(model) <= WEIGHT_LIMIT
    assert narrow_weights(model) == 0


def test_a_missing_model_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "none.onnx")]) == 2
    assert "none.onnx: no such model file" in capsys.readouterr().err
