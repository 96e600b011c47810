"""Model files and their onnxruntime sessions (``sessions.load_model``)."""

from pathlib import Path

import onnxruntime as ort
import pytest

from companion.errors import ModelLoadError
from companion.vision import geometry
from companion.vision.sessions import DEFAULT_FACE, DEFAULT_MODEL, DEFAULT_READER, load_model


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
