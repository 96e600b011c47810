"""Model files and their onnxruntime sessions, checked against the crop geometry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import ModelLoadError
from companion.vision.base import geometry

if TYPE_CHECKING:
    from onnxruntime import InferenceSession

__all__ = [
    "MODELS",
    "DEFAULT_FACE",
    "DEFAULT_MODEL",
    "DEFAULT_READER",
    "check_crop",
    "load_model",
    "open_session",
]

MODELS = Path(__file__).resolve().parents[3] / "models"  # the shipped models, with their card
DEFAULT_MODEL = MODELS / "card_corners.onnx"
DEFAULT_READER = DEFAULT_MODEL.with_name("card_reader.onnx")
DEFAULT_FACE = DEFAULT_MODEL.with_name("card_face.onnx")


def open_session(path: Path, threads: int) -> tuple[InferenceSession, dict[str, str]]:
    """An onnxruntime session on the CPU with ``threads`` threads, and the model's metadata."""
    import onnxruntime as ort

    if not path.is_file():
        raise ModelLoadError(str(path), "file not found")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Between runs onnxruntime's worker threads busy-wait for the next one by default. The
    # detector runs its networks between stretches of OpenCV and numpy work, and a spinning
    # worker takes a core from that work.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # On x86-64 CPUs without VNNI (AMD Zen 2 and 3, Intel before Ice Lake) onnxruntime's fast
    # int8 kernel adds pairs of uint8 x int8 products in 16 bits and saturates on 8-bit
    # weights, so the reads would depend on the CPU. This mode keeps the sums exact (the same
    # reads on every CPU): it costs nothing on the shipped models, whose 7-bit weights cannot
    # saturate (``training.narrow``), and slows an 8-bit model there.
    options.add_session_config_entry("session.x64quantprecision", "1")
    try:
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        meta = dict(session.get_modelmeta().custom_metadata_map)
    except Exception as error:  # onnxruntime raises its own exception types
        raise ModelLoadError(str(path), str(error)) from error
    return session, meta


def load_model(
    model_path: Path | str, threads: int, extent: geometry.Extent = geometry.CORNER
) -> tuple[InferenceSession, str, str]:
    """An onnxruntime session on a corner-crop model, with its rank and suit names."""
    path = Path(model_path)
    session, meta = open_session(path, threads)
    try:
        ranks, suits = meta["ranks"], meta["suits"]
    except KeyError as error:
        raise ModelLoadError(str(path), str(error)) from error
    check_crop(path, meta, extent)
    return session, ranks, suits


def check_crop(path: Path, meta: dict[str, str], extent: geometry.Extent) -> None:
    """Raise ``ModelLoadError`` unless the model's metadata gives the crop geometry of
    ``geometry`` (its size, and ``extent`` in card widths)."""
    try:
        crop = (
            int(meta["crop_w"]),
            int(meta["crop_h"]),
            tuple(json.loads(meta["crop_x"])),
            tuple(json.loads(meta["crop_y"])),
        )
    except (KeyError, ValueError, TypeError) as error:  # metadata missing or malformed
        raise ModelLoadError(str(path), str(error)) from error
    expected = (geometry.CROP_W, geometry.CROP_H, *extent)
    if crop != expected:
        raise ModelLoadError(str(path), f"crop geometry {crop} differs from {expected}")
