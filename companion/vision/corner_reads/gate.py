"""The gate: which corner crops the corner model need not read (``training.gate``).

Most crops of a frame (table texture, chips, the other corners of a card) the corner model
calls "no index" surely, and then they change nothing downstream but being rejected corners.
A network about a tenth of its cost, taught by the corner model, passes on the rest.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.errors import ModelLoadError
from companion.vision.base import geometry
from companion.vision.base.sessions import MODELS, check_crop, open_session

__all__ = ["DEFAULT_GATE", "Gate"]

DEFAULT_GATE = MODELS / "card_gate.onnx"


class Gate:
    """``Gate().passes(crops)``: (N,) bool, the corner crops the corner model should read."""

    def __init__(self, path: Path | str = DEFAULT_GATE, threads: int = 2) -> None:
        self._session, meta = open_session(Path(path), threads)
        try:
            if meta["kind"] != "gate":
                raise ValueError(f"a {meta['kind']!r} model, not a gate")
            self.level = float(meta["pass_at"])
        except (KeyError, ValueError) as error:  # metadata missing or malformed
            raise ModelLoadError(str(path), str(error)) from error
        check_crop(Path(path), meta, geometry.CORNER)

    def scores(self, crops: np.ndarray) -> np.ndarray:
        """(N,) the gate's score (0..1) of (N, H, W, 3) BGR corner crops."""
        if len(crops) == 0:
            return np.zeros(0, np.float32)
        (score,) = self._session.run(None, {"crops": np.asarray(crops, np.float32)})
        return np.asarray(score)

    def passes(self, crops: np.ndarray) -> np.ndarray:
        """(N,) bool: true where a crop's score reaches the gate's pass level."""
        return np.asarray(self.scores(crops) >= self.level)
