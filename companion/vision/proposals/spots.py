"""The spot model: the cards' index corners found on the whole frame at once, learned.

The whiteness levels of ``proposals`` outline everything light on a table and offer every
corner of every outline to the corner reader: hundreds of crops a frame on a grainy table, most
of them read as no index. A small network (``training.spot_train``) reads the frame shrunk to
``outlines.INPUT_SIDE`` pixels and marks the index corners themselves, each with the direction
of the card's edge and the card's width: a frame for the corner reader per index corner in view.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.errors import ModelLoadError
from companion.vision.base.sessions import MODELS, open_session
from companion.vision.proposals.levels import Proposal
from companion.vision.proposals.outlines import padded, shrunk

__all__ = ["DEFAULT_SPOTS", "SPOT_LEVEL", "SpotModel"]

DEFAULT_SPOTS = MODELS / "card_spots.onnx"
SPOT_LEVEL = 0.1  # heat at a peak from which it is an index corner to read
WIDTH_UNIT = 32.0  # the model's widths are logs of the width over this many pixels


class SpotModel:
    """``SpotModel().frames(image)``: a corner frame at each index corner the model sees."""

    def __init__(self, path: Path | str = DEFAULT_SPOTS, threads: int = 2) -> None:
        self._session, meta = open_session(Path(path), threads)
        if "spots" not in meta:
            raise ModelLoadError(str(path), "not a spot model (no 'spots' metadata)")

    def frames(self, image: np.ndarray, level: float = SPOT_LEVEL) -> list[Proposal]:
        """The index corners seen on the BGR ``image``, in its pixels, surest first: each
        heat peak from ``level``, its point refined to the heat's centre around the peak."""
        small, f = shrunk(image)
        sh, sw = small.shape[:2]
        (out,) = self._session.run(None, {"frame": padded(small)[None].astype(np.float32)})
        maps = out[0, :, :sh, :sw]
        heat = 1.0 / (1.0 + np.exp(-maps[0]))
        peak = (heat >= level) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        ys, xs = np.nonzero(peak)
        order = np.argsort(-heat[ys, xs], kind="stable")
        padded_heat = np.pad(heat, 1)
        found = []
        for y, x in zip(ys[order].tolist(), xs[order].tolist(), strict=True):
            around = padded_heat[y : y + 3, x : x + 3]
            total = float(around.sum())
            dx = float((around.sum(axis=0) * (-1, 0, 1)).sum()) / total
            dy = float((around.sum(axis=1) * (-1, 0, 1)).sum()) / total
            u = maps[1:3, y, x].astype(np.float64)
            norm = float(np.hypot(*u))
            if norm < 1e-6:
                continue
            u /= norm
            # A pixel of the shrunk frame covers 1/f of the frame's, centre to centre.
            p = (np.array([x + dx, y + dy]) + 0.5) / f - 0.5
            width = float(np.exp(maps[3, y, x])) * WIDTH_UNIT / f
            found.append(Proposal(p, u, np.array([-u[1], u[0]]), width))
        return found
