"""Static int8 quantization of an exported corner-crop model, calibrated on training crops.

On two CPU cores the int8 convolutions of onnxruntime run about three times faster than float
ones on the ~25 index crops of a frame; the model's metadata (classes, crop geometry) is kept.
The ReLUs are then folded into the convolutions' quantization (``requantize``), and the weights
are 7-bit (``narrow``: onnxruntime's int8 kernel saturates on 8-bit weights on CPUs without VNNI).

    python -m companion.vision.training.quantize cache/card_reader.onnx models/card_reader.onnx \
        --calibration cache/patches_t3_train.npz --index-only
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

from companion.vision.training.narrow import narrow_weights
from companion.vision.training.patches import NO_INDEX
from companion.vision.training.requantize import fold_relus


class _Batches:
    """Calibration batches for onnxruntime's input ``name`` (a ``CalibrationDataReader``)."""

    def __init__(self, batches: list[np.ndarray], name: str) -> None:
        self._batches = iter([{name: batch.astype(np.float32)} for batch in batches])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._batches, None)


def calibration_crops(path: Path, count: int, index_only: bool, seed: int = 0) -> np.ndarray:
    data = np.load(path)
    crops = data["crops"][data["ranks"] != NO_INDEX] if index_only else data["crops"]
    pick = np.random.default_rng(seed).permutation(len(crops))[:count]
    chosen: np.ndarray = crops[np.sort(pick)]
    return chosen


def calibration_frames(
    path: Path, count: int, seed: int = 0, side: int | None = None
) -> list[np.ndarray]:
    """``count`` of the outline model's training frames (drawn among the arrays in name
    order), shrunk to ``side`` pixels on their long side where given (the back finder's),
    padded as the model reads them, one batch each (their sizes differ)."""
    import cv2

    from companion.vision.proposals.outlines import padded

    data = np.load(path)  # only the frames drawn are read
    names = sorted(k for k in data.files if k.startswith("image_"))
    pick = np.random.default_rng(seed).permutation(len(names))[:count]
    frames = []
    for i in np.sort(pick).tolist():
        frame = data[names[i]]
        if side is not None:
            f = side / max(frame.shape[:2])
            size = (round(frame.shape[1] * f), round(frame.shape[0] * f))
            frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        frames.append(padded(frame)[None])
    return frames


def quantize_qdq(
    source: Path,
    target: Path,
    batches: list[np.ndarray],
    name: str,
    ops: list[str],
    weights_7_bit: bool = True,
) -> None:
    """onnxruntime's static quantization of ``source`` into ``target`` as the shipped models
    are made: QDQ nodes, per channel, uint8 activations, int8 weights (within +-64 unless
    ``weights_7_bit`` is False: see ``narrow``), calibrated on ``batches`` of input ``name``;
    only the ``ops`` node types are quantized."""
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

    quantize_static(
        str(source),
        str(target),
        _Batches(batches, name),
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        reduce_range=weights_7_bit,
        op_types_to_quantize=ops,
    )


def quantize(source: Path, target: Path, batches: list[np.ndarray], name: str = "crops") -> None:
    import onnx
    from onnxruntime.quantization.shape_inference import quant_pre_process

    meta = {p.key: p.value for p in onnx.load(str(source)).metadata_props}
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        # The outline model's free height and width defeat the symbolic shape inference.
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=name != "crops")
        # The softmax stays float: its probabilities are compared with thresholds, which
        # steps of 1/255 would blur.
        quantize_qdq(prepared, target, batches, name, ["Conv", "Gemm", "MatMul"])
    model = onnx.load(str(target))
    fold_relus(model)
    del model.metadata_props[:]
    for key, value in {**meta, "quantized": "int8 static, per channel"}.items():
        prop = model.metadata_props.add()
        prop.key, prop.value = key, value
    narrow_weights(model)  # within range already (reduce_range): marks the metadata
    onnx.save(model, str(target))
    print(f"quantized {source} -> {target} on {sum(len(b) for b in batches)} {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("target", type=Path)
    parser.add_argument("--calibration", type=Path, required=True, help="a training crop set")
    parser.add_argument("--count", type=int, default=1024)
    parser.add_argument(
        "--index-only",
        action="store_true",
        help="calibrate on index crops only (the reader never sees others)",
    )
    parser.add_argument(
        "--outlines",
        action="store_true",
        help="a frame model (the outline, spot or back model), calibrated on outline_data "
        "frames (--count of them)",
    )
    parser.add_argument(
        "--side",
        type=int,
        default=None,
        help="with --outlines: the frames shrunk to this long side first (the back model's)",
    )
    args = parser.parse_args(argv)
    if args.outlines:
        frames = calibration_frames(args.calibration, args.count, side=args.side)
        quantize(args.source, args.target, frames, "frame")
        return 0
    crops = calibration_crops(args.calibration, args.count, args.index_only)
    quantize(args.source, args.target, [crops[i : i + 64] for i in range(0, len(crops), 64)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
