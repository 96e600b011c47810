"""Drop the float round trip around each ReLU of an int8 model onnxruntime's quantizer made.

``quantize`` asks the quantizer for int8 convolutions only, so each block comes out as

    Conv -> Q(a) -> DQ(a) -> Relu -> Q(b) -> DQ(b) -> ...   (or Relu -> MaxPool -> Q(b))

and onnxruntime runs the middle in float: dequantize the convolution's output, clip it, and
quantize it again. On the corner model that was a quarter of its time. The ReLU's own
quantization ``b`` is unsigned with zero point 0, so quantizing at ``b`` already clips at
zero: ``Conv -> Q(b) -> DQ(b)`` computes the same, with one rounding fewer (``a`` spent half
its 256 steps on negative values the ReLU then dropped). Before a max pool, the pool runs on
the quantized values (a maximum commutes with a rising step function): onnxruntime then
pools the int8 tensor itself.

    python -m companion.vision.training.requantize models/card_corners.onnx [more.onnx ...]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision.training.model_files import rewrite_files

__all__ = ["fold_relus", "fold_file"]


def _only_consumer(consumers: dict[str, list[Any]], name: str) -> Any | None:
    users = consumers.get(name, [])
    return users[0] if len(users) == 1 else None


def fold_relus(model: Any) -> int:
    """Rewrite ``model`` (an ``onnx.ModelProto``) in place as the module says; returns how
    many ReLUs were folded. A ReLU whose next quantization is not unsigned from zero, or
    whose tensors feed anything else, is left as it is."""
    import onnx
    from onnx import numpy_helper

    graph = model.graph
    nodes = list(graph.node)
    producer = {out: node for node in nodes for out in node.output}
    consumers: dict[str, list[Any]] = {}
    for node in nodes:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    constants = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    dropped: set[int] = set()
    after: dict[int, list[Any]] = {}  # nodes to place right after a convolution
    folded = 0
    for relu in nodes:
        if relu.op_type != "Relu":
            continue
        dq_a = producer.get(relu.input[0])
        q_a = producer.get(dq_a.input[0]) if dq_a is not None else None
        conv = producer.get(q_a.input[0]) if q_a is not None else None
        if (
            dq_a is None
            or q_a is None
            or conv is None
            or (dq_a.op_type, q_a.op_type, conv.op_type)
            != ("DequantizeLinear", "QuantizeLinear", "Conv")
            or any(
                _only_consumer(consumers, t) is None
                for t in (conv.output[0], q_a.output[0], dq_a.output[0])
            )
        ):
            continue
        nxt = _only_consumer(consumers, relu.output[0])
        pool = nxt if nxt is not None and nxt.op_type == "MaxPool" else None
        q_b = _only_consumer(consumers, pool.output[0]) if pool is not None else nxt
        if q_b is None or q_b.op_type != "QuantizeLinear" or len(q_b.input) < 3:
            continue
        zero = constants.get(q_b.input[2])
        if zero is None or zero.dtype != np.uint8 or np.any(zero != 0):
            continue
        if pool is None:
            q_b.input[0] = conv.output[0]
        else:
            # Quantized at b before the pool, and again after it (exact: the pool's maximum is
            # one of its inputs), so that onnxruntime fuses the pool into an int8 one.
            scale, point = q_b.input[1], q_b.input[2]
            quantized, back = conv.output[0] + "_pooled_q", conv.output[0] + "_pooled_dq"
            after[id(conv)] = [
                onnx.helper.make_node(
                    "QuantizeLinear", [conv.output[0], scale, point], [quantized], conv.name + "_q"
                ),
                onnx.helper.make_node(
                    "DequantizeLinear", [quantized, scale, point], [back], conv.name + "_dq"
                ),
            ]
            pool.input[0] = back
        dropped |= {id(q_a), id(dq_a), id(relu)}
        folded += 1
    kept: list[Any] = []
    for node in nodes:
        if id(node) not in dropped:
            kept += [node, *after.get(id(node), [])]
    del graph.node[:]
    graph.node.extend(kept)
    used = {name for node in kept for name in node.input}
    initializers = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(initializers)
    onnx.checker.check_model(model)
    return folded


def fold_file(path: Path) -> int:
    """``fold_relus`` on the model at ``path``, saved in place (unchanged when none folds)."""
    import onnx

    model = onnx.load(str(path))
    folded = fold_relus(model)
    if folded:
        onnx.save(model, str(path))
    return folded


def main(argv: list[str] | None = None) -> int:
    return rewrite_files(argv, __doc__.split("\n")[0], fold_file, "ReLUs folded")


if __name__ == "__main__":
    sys.exit(main())
