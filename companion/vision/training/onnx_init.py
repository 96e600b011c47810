"""Start training from a shipped int8 model: its weights dequantized into a ``CornerNet``.

The builds keep no float checkpoint in the repository, only the int8 ONNX files in
``models/``. Their convolutions carry the batch norms folded in (onnxruntime's quantizer fuses
them), so each block's norm is loaded as the identity plus the folded bias, and fine-tuning
keeps the norms frozen (``train.py --init-onnx``): batch statistics would undo the fold.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

from companion.vision.training.net import CornerNet

__all__ = ["net_of", "onnx_layers", "load_onnx_weights"]


def _dequantized(model: object, inits: dict[str, np.ndarray], name: str) -> np.ndarray:
    """The float value of graph tensor ``name``: an initializer (``inits``: the model's, by
    name), or a ``DequantizeLinear`` of initializers (per channel along its ``axis``)."""
    import onnx

    if not isinstance(model, onnx.ModelProto):
        raise TypeError(f"{type(model).__name__}: not an ONNX model")
    if name in inits:
        return np.asarray(inits[name], np.float32)
    node = next(n for n in model.graph.node if name in n.output)
    if node.op_type != "DequantizeLinear":
        raise ValueError(f"{name}: made by {node.op_type}, not a constant")
    q, scale, zero = (inits[i] for i in node.input)
    axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
    shape = [1] * q.ndim
    if scale.ndim:
        shape[axis] = -1
    value = (q.astype(np.float32) - zero.astype(np.float32).reshape(shape)) * scale.reshape(shape)
    return np.asarray(value, np.float32)


def onnx_layers(path: Path) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(op, weight, bias) of each convolution and fully connected layer, in graph order."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    return [
        (
            node.op_type,
            _dequantized(model, inits, node.input[1]),
            _dequantized(model, inits, node.input[2]),
        )
        for node in model.graph.node
        if node.op_type in ("Conv", "Gemm")
    ]


def net_of(path: Path) -> CornerNet:
    """A ``CornerNet`` shaped as the int8 model at ``path`` (its width, and whether its stem
    cuts patches), holding its weights (``load_onnx_weights``)."""
    layers = onnx_layers(path)
    if not layers or layers[0][0] != "Conv":
        raise ValueError(f"{path}: its layers are not a CornerNet's")
    stem = layers[0][1]
    net = CornerNet(width=stem.shape[0] / 32, patch=stem.shape[-1] == 4)
    load_onnx_weights(net, path)
    return net


def load_onnx_weights(net: CornerNet, path: Path) -> None:
    """``net``'s weights from the int8 model at ``path`` (same width), its norms as the
    identity plus the folded biases."""
    layers = onnx_layers(path)
    convs = [m for m in net.features.modules() if isinstance(m, nn.Conv2d)]
    norms = [m for m in net.features.modules() if isinstance(m, nn.BatchNorm2d)]
    linear = [net.rank, net.suit]
    if [op for op, _, _ in layers] != ["Conv"] * len(convs) + ["Gemm"] * len(linear):
        raise ValueError(f"{path}: its layers are not a CornerNet's")
    with torch.no_grad():
        for conv, norm, (_, weight, bias) in zip(convs, norms, layers, strict=False):
            if tuple(conv.weight.shape) != weight.shape:
                raise ValueError(
                    f"{path}: a {weight.shape} convolution where the net has "
                    f"{tuple(conv.weight.shape)}"
                )
            conv.weight.copy_(torch.from_numpy(weight))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(bias))
            mean, var = norm.running_mean, norm.running_var
            if mean is None or var is None:  # a norm without running statistics: not a CornerNet's
                raise ValueError("a batch norm of the net keeps no running statistics")
            mean.zero_()
            var.fill_(1.0 - norm.eps)
        for fc, (_, weight, bias) in zip(linear, layers[len(convs) :], strict=True):
            fc.weight.copy_(torch.from_numpy(weight))
            fc.bias.copy_(torch.from_numpy(bias))
