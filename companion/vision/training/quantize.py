"""Static int8 quantization of an exported corner-crop model, calibrated on training crops.

On two CPU cores the int8 convolutions of onnxruntime run about three times faster than float
ones on the ~25 index crops of a frame; the model's metadata (classes, crop geometry) is kept.

    python -m companion.vision.training.quantize cache/card_reader.onnx models/card_reader.onnx \
        --calibration cache/patches_t3_train.npz --index-only
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

from companion.vision.training.patches import NO_INDEX


class _Batches:
    """Calibration crops for onnxruntime, 64 at a time (a ``CalibrationDataReader``)."""

    def __init__(self, crops: np.ndarray) -> None:
        self._batches = iter(
            [{"crops": crops[i : i + 64].astype(np.float32)} for i in range(0, len(crops), 64)]
        )

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._batches, None)


def calibration_crops(path: Path, count: int, index_only: bool, seed: int = 0) -> np.ndarray:
    data = np.load(path)
    crops = data["crops"][data["ranks"] != NO_INDEX] if index_only else data["crops"]
    pick = np.random.default_rng(seed).permutation(len(crops))[:count]
    chosen: np.ndarray = crops[np.sort(pick)]
    return chosen


def quantize(source: Path, target: Path, crops: np.ndarray) -> None:
    import onnx
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    meta = {p.key: p.value for p in onnx.load(str(source)).metadata_props}
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        quantize_static(
            str(prepared),
            str(target),
            _Batches(crops),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            # The softmax stays float: its probabilities are compared with
            # thresholds, which steps of 1/255 would blur.
            op_types_to_quantize=["Conv", "Gemm", "MatMul"],
        )
    model = onnx.load(str(target))
    del model.metadata_props[:]
    for key, value in {**meta, "quantized": "int8 static, per channel"}.items():
        prop = model.metadata_props.add()
        prop.key, prop.value = key, value
    onnx.save(model, str(target))
    print(f"quantized {source} -> {target} on {len(crops)} crops")


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
    args = parser.parse_args(argv)
    quantize(
        args.source, args.target, calibration_crops(args.calibration, args.count, args.index_only)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
