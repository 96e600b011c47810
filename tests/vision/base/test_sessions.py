"""Model files and their onnxruntime sessions (``sessions.load_model``)."""

from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
import pytest

from companion.errors import ModelLoadError
from companion.vision.base import geometry
from companion.vision.base.sessions import DEFAULT_FACE, DEFAULT_MODEL, DEFAULT_READER, load_model
from companion.vision.corner_reads.gate import DEFAULT_GATE
from companion.vision.proposals.outlines import DEFAULT_OUTLINES
from tests.helpers import FIXTURES


def test_a_shipped_model_loads_with_its_class_names() -> None:
    session, ranks, suits = load_model(DEFAULT_MODEL, threads=1)
    assert (ranks, suits) == ("23456789TJQKA", "shdc")
    assert [i.name for i in session.get_inputs()] == ["crops"]


def test_missing_model_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="nothing.onnx"):
        load_model(tmp_path / "nothing.onnx", threads=1)


def test_corrupt_model_is_a_model_load_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(ModelLoadError, match="broken.onnx"):
        load_model(broken, threads=1)


def test_a_corner_model_is_refused_as_the_face_reader() -> None:
    # Its crops show a corner, not a whole card: read as faces, every read would be noise.
    with pytest.raises(ModelLoadError, match="crop geometry"):
        load_model(DEFAULT_READER, threads=1, extent=geometry.FACE)


def test_shipped_models_are_the_int8_builds() -> None:
    """build.sh quantizes the models; an fp32 export left in models/ would run 3x slower."""
    for path in (DEFAULT_MODEL, DEFAULT_READER, DEFAULT_FACE):
        meta = ort.InferenceSession(str(path)).get_modelmeta().custom_metadata_map
        assert meta.get("quantized", "").startswith("int8"), path
        assert meta["ranks"] == "23456789TJQKA" and meta["suits"] == "shdc"


@pytest.mark.parametrize(
    ("path", "extent"),
    [
        (DEFAULT_MODEL, geometry.CORNER),
        (DEFAULT_READER, geometry.CORNER),
        (DEFAULT_FACE, geometry.FACE),
    ],
)
def test_the_networks_threads_do_not_busy_wait_between_runs(
    path: Path, extent: geometry.Extent
) -> None:
    """A spinning onnxruntime worker took a core from the OpenCV work between the detector's
    network runs: on 2 cores a 720p frame took about twice as long (benchmarks/)."""
    session, _, _ = load_model(path, threads=2, extent=extent)
    options = session.get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert (options.intra_op_num_threads, options.inter_op_num_threads) == (2, 1)


def _session(path: Path, level: ort.GraphOptimizationLevel, exact: bool) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.graph_optimization_level = level
    if exact:
        options.add_session_config_entry("session.x64quantprecision", "1")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _table_crops(extent: geometry.Extent) -> np.ndarray:
    """Crops of a real table photo at its corner proposals: index corners, corners without an
    index, and the table's wood, as the detector cuts them."""
    from companion.vision.corner_reads import cut
    from companion.vision.proposals.levels import propose_corners

    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    proposals, _ = propose_corners(image)
    return cut(image, proposals[:120], extent).astype(np.float32)


@pytest.mark.parametrize(
    ("path", "extent"),
    [
        (DEFAULT_MODEL, geometry.CORNER),
        (DEFAULT_READER, geometry.CORNER),
        (DEFAULT_FACE, geometry.FACE),
        (DEFAULT_GATE, geometry.CORNER),
    ],
)
@pytest.mark.parametrize("exact_mode", [True, False], ids=["exact mode", "fast kernel"])
def test_a_shipped_model_reads_as_its_own_arithmetic_on_any_cpu(
    path: Path, extent: geometry.Extent, exact_mode: bool
) -> None:
    """onnxruntime's fast int8 kernel sums uint8 x int8 pairs in 16 bits on x86-64 CPUs
    without VNNI: 8-bit weights saturated there, and the corner model read another suit on
    15 % of a real table's crops. The reference runs the model's quantize / dequantize steps
    one by one (no fused kernel). With the exact mode ``open_session`` sets, any model is
    exact; with the fast kernel, only weights narrowed to 7 bits (``training.narrow``) are,
    so this fails on such a CPU if a model is shipped with 8-bit weights again."""
    crops = _table_crops(extent)
    reference = _session(path, ort.GraphOptimizationLevel.ORT_DISABLE_ALL, exact=False)
    fused = _session(path, ort.GraphOptimizationLevel.ORT_ENABLE_ALL, exact=exact_mode)
    for expected, got in zip(
        reference.run(None, {"crops": crops}), fused.run(None, {"crops": crops}), strict=True
    ):
        # Rounding between the two paths only (up to 0.03 on an 8-bit model in exact mode); a
        # saturated sum moved probabilities by up to 0.95.
        np.testing.assert_allclose(got, expected, atol=0.05)


def test_the_outline_model_reads_as_its_own_arithmetic_on_any_cpu() -> None:
    from companion.vision.proposals.outlines import padded, shrunk

    image = cv2.imread(str(FIXTURES / "scene_0001.jpg"))
    frame = padded(shrunk(image)[0])[None].astype(np.float32)
    reference = _session(DEFAULT_OUTLINES, ort.GraphOptimizationLevel.ORT_DISABLE_ALL, False)
    fused = _session(DEFAULT_OUTLINES, ort.GraphOptimizationLevel.ORT_ENABLE_ALL, False)
    (expected,) = reference.run(None, {"frame": frame})
    (got,) = fused.run(None, {"frame": frame})
    # Logits, whose sign is the mask: the fused path rounds its int8 additions and resizes
    # in another order (a step or so on a few pixels); saturated sums moved them by up to 6.5
    # and flipped 0.8 % of a real table's pixels.
    assert float(np.abs(got - expected).max()) < 1.0
    assert np.mean((got > 0) == (expected > 0)) > 0.999


def test_the_shipped_models_say_their_weights_are_7_bit() -> None:
    for path in (DEFAULT_MODEL, DEFAULT_READER, DEFAULT_FACE, DEFAULT_OUTLINES, DEFAULT_GATE):
        meta = ort.InferenceSession(str(path)).get_modelmeta().custom_metadata_map
        assert meta.get("weight_bits") == "7", path


def test_sessions_sum_int8_products_exactly() -> None:
    session, _, _ = load_model(DEFAULT_MODEL, threads=1)
    options = session.get_session_options()
    assert options.get_session_config_entry("session.x64quantprecision") == "1"
