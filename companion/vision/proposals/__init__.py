"""1. Proposals: the candidate index corners of a frame, each a frame (corner, edges, width).

``levels``: the corners of the outlines of the frame's whitest regions (and of the outline
model's card faces); ``outlines`` and ``spots``: the outline and spot models; ``finder``: the
corners a first look reads, those of the levels and the spot model's together (``Corners``).
"""

from companion.vision.proposals.finder import CornerFinder, Corners
from companion.vision.proposals.levels import (
    WORK_SIZE,
    Proposal,
    first_of_alike,
    frame_table,
    propose_corners,
    work_factor,
)
from companion.vision.proposals.outlines import DEFAULT_OUTLINES, padded
from companion.vision.proposals.spots import DEFAULT_SPOTS, SpotModel

__all__ = [
    "DEFAULT_OUTLINES",
    "DEFAULT_SPOTS",
    "WORK_SIZE",
    "CornerFinder",
    "Corners",
    "Proposal",
    "SpotModel",
    "first_of_alike",
    "frame_table",
    "padded",
    "propose_corners",
    "work_factor",
]
