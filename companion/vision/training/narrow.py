"""Narrow an int8 model's weights to 7 bits, so that no CPU's int8 kernel saturates.

onnxruntime multiplies uint8 activations by int8 weights. On x86-64 CPUs without VNNI (AMD
Zen 2 and 3, Intel before Ice Lake) its fast kernel adds each pair of products in 16 bits,
which saturates past 32,767: 255 x 127 x 2 is 64,770. There the shipped models read
differently from their own arithmetic (the corner model a different suit on 15 % of a real
table's crops). With every weight within +-64 the pair is at most 32,640 and the fast kernel
is exact on every CPU. This is onnxruntime's own ``reduce_range`` for weights, which
``quantize`` now asks for; this module narrows models quantized before that, in place:

    python -m companion.vision.training.narrow models/card_corners.onnx [more.onnx ...]

Each output channel's weights are rescaled so that its largest magnitude is ``WEIGHT_LIMIT``
(channels within it already are left as they are), and the convolution's int32 bias is
requantized to the new scale (its scale must stay the input's scale times the weights').
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision.training.model_files import rewrite_files

__all__ = ["WEIGHT_BITS_KEY", "WEIGHT_LIMIT", "narrow_file", "narrow_weights", "widest_weight"]

WEIGHT_LIMIT = 64  # onnxruntime's reduce_range for int8 weights: -64..64
WEIGHT_BITS_KEY = "weight_bits"  # model metadata: "7" once narrowed


def _weight_nodes(model: Any) -> list[tuple[Any, Any | None]]:
    """(weight DequantizeLinear, bias DequantizeLinear or None) of each Conv and Gemm whose
    weights are an int8 initializer."""
    graph = model.graph
    producer = {out: node for node in graph.node for out in node.output}
    constants = {i.name for i in graph.initializer}
    found = []
    for node in graph.node:
        if node.op_type not in ("Conv", "Gemm") or len(node.input) < 2:
            continue
        weight = producer.get(node.input[1])
        if weight is None or weight.op_type != "DequantizeLinear":
            continue
        if weight.input[0] not in constants:
            continue
        bias = producer.get(node.input[2]) if len(node.input) > 2 else None
        if bias is not None and (
            bias.op_type != "DequantizeLinear" or bias.input[0] not in constants
        ):
            bias = None
        found.append((weight, bias))
    return found


def widest_weight(model: Any) -> int:
    """The largest weight magnitude among the int8 weights of ``model``'s Conv and Gemm nodes
    (0 when it has none)."""
    from onnx import numpy_helper

    arrays = {i.name: i for i in model.graph.initializer}
    widest = 0
    for weight, _ in _weight_nodes(model):
        q = numpy_helper.to_array(arrays[weight.input[0]])
        if q.dtype == np.int8 and q.size:
            widest = max(widest, int(np.abs(q.astype(np.int32)).max()))
    return widest


def narrow_weights(model: Any, limit: int = WEIGHT_LIMIT) -> int:
    """Rewrite ``model`` (an ``onnx.ModelProto``) in place as the module says, and mark it so
    in its metadata (``WEIGHT_BITS_KEY``); returns how many weight tensors changed."""
    import onnx
    from onnx import numpy_helper

    arrays = {i.name: i for i in model.graph.initializer}

    def read(name: str) -> np.ndarray:
        return np.asarray(numpy_helper.to_array(arrays[name]))

    def write(name: str, value: np.ndarray) -> None:
        arrays[name].CopyFrom(numpy_helper.from_array(value, name))

    changed = 0
    every_int8 = True  # only int8 weights are narrowed: the mark needs them all to be
    for weight, bias in _weight_nodes(model):
        q = read(weight.input[0])
        if q.dtype != np.int8 or q.size == 0:
            every_int8 = every_int8 and q.size == 0
            continue
        scale = read(weight.input[1]).astype(np.float32)
        # Per channel (axis 0: the output channels of Conv and Gemm weights) or per tensor.
        rows = q.reshape(scale.size, -1).astype(np.float64)
        factor = np.maximum(np.abs(rows).max(axis=1) / limit, 1.0)
        if np.all(factor == 1.0):
            continue
        narrowed = np.clip(np.round(rows / factor[:, None]), -limit, limit)
        write(weight.input[0], narrowed.reshape(q.shape).astype(np.int8))
        write(weight.input[1], (scale * factor.reshape(scale.shape)).astype(np.float32))
        if bias is not None:
            b = read(bias.input[0]).astype(np.float64)
            b_scale = read(bias.input[1]).astype(np.float64)
            b_new = (b_scale * factor.reshape(b_scale.shape)).astype(np.float32)
            write(bias.input[0], np.round(b * b_scale / b_new).astype(np.int32))
            write(bias.input[1], b_new)
        changed += 1
    if every_int8:
        meta = {p.key: p for p in model.metadata_props}
        prop = meta.get(WEIGHT_BITS_KEY) or model.metadata_props.add()
        prop.key, prop.value = WEIGHT_BITS_KEY, "7"
    onnx.checker.check_model(model)
    return changed


def narrow_file(path: Path) -> int:
    """``narrow_weights`` on the model at ``path``, saved in place."""
    import onnx

    model = onnx.load(str(path))
    changed = narrow_weights(model)
    onnx.save(model, str(path))
    return changed


def main(argv: list[str] | None = None) -> int:
    return rewrite_files(
        argv, __doc__.split("\n")[0], narrow_file, "weight tensors narrowed to 7 bits"
    )


if __name__ == "__main__":
    sys.exit(main())
