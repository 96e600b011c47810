"""The corners a first look reads (``proposals.finder``): the spot model's where no level's
frames the corner alike."""

import numpy as np

from companion.vision.proposals import Proposal
from companion.vision.proposals.finder import _unproposed


def _turned_frame(x: float, y: float, degrees: float, width: float) -> Proposal:
    a = np.radians(degrees)
    u = np.array([np.cos(a), np.sin(a)])
    return Proposal(np.array([x, y]), u, np.array([-u[1], u[0]]), width)


def test_a_spot_is_read_unless_a_proposal_frames_its_corner_alike() -> None:
    proposal = _turned_frame(100, 100, 0, 50)
    alike = _turned_frame(103, 101, 5, 54)  # 0.06 widths, 5 degrees, 8 % wider
    narrower = _turned_frame(101, 100, 0, 70)  # the levels' frame at 0.7 of the width
    turned = _turned_frame(101, 100, 15, 50)  # its edge 15 degrees off
    elsewhere = _turned_frame(160, 100, 0, 50)
    spots = [alike, narrower, turned, elsewhere]

    def kept(proposals: list[Proposal]) -> list[int]:
        return [
            next(k for k, s in enumerate(spots) if s is q) for q in _unproposed(spots, proposals)
        ]

    assert kept([proposal]) == [1, 2, 3]
    assert kept([]) == [0, 1, 2, 3]
