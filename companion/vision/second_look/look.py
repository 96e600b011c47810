"""The second look: the frames a first look implies (``frames``, ``unread.unread_faces``) read
by the corner reader, near given places when told where cards are short; the corners of the
contrast-stretched frame; and the card faces left unread once every look is done.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.vision.base import geometry
from companion.vision.base.detections import SECOND_LOOK, Detections
from companion.vision.base.paper import crop_whiteness, white_gain
from companion.vision.corner_reads import CornerRead, CornerReader, Look, cut
from companion.vision.proposals import Proposal, propose_corners
from companion.vision.second_look.frames import beside, between, completions
from companion.vision.second_look.unread import unread_faces, unread_outlines

__all__ = ["BESIDE_ROUNDS", "NEAR_SHORT", "contrasted_look", "look_again", "unread_left"]

# Most second-look frames on a light table lie on the table: less white than the cards, unread.
COMPLETE_PAPER = 0.5
# A second look told where to look also reads beyond the cards (card widths): strays lie there.
AWAY = 0.0
# ... and the frames within this many card widths of the points it was told.
NEAR_SHORT = 2.5
# Rounds of the second look beside the cards read: a row may miss two cards in a row.
BESIDE_ROUNDS = 2
# Lightness stretched in tiles (CLAHE): light tables, glare and shade hide outlines from levels.
CONTRAST_CLIP = 3.0
CONTRAST_TILES = 8


def look_again(
    reader: CornerReader, look: Look, near: np.ndarray | None = None, cascades: bool = False
) -> list[CornerRead]:
    """Reads of the frames the first look's rejected corners imply (``completions``) and of
    those beside its cards (``beside``); with ``cascades`` (hands of three cards or more), of
    those between two cards that may be a cascade's ends (``between``); and of the corners of
    the card faces no card covers (``unread_faces``). ``near`` (points, pixels): only the
    frames near them or away from the cards read surely (where stray cards lie); empty: only
    the latter."""
    image, proposals = look.image, look.corners.frames
    sure = look.sure
    floor = _completion_paper_floor(image, sure)
    frames = completions(look.rejected, sure, proposals)
    frames += beside(sure, proposals + frames)
    if cascades:
        frames += between(sure, proposals + frames)
    faces = look.corners.faces
    if faces is not None:
        frames += unread_faces(faces, image.shape[1] / faces.shape[1], sure)
    if near is not None:
        frames = _looked_for(frames, sure, near)
    more, _ = reader.read(image, frames, look.pyramid, paper_floor=floor, doubts=(SECOND_LOOK,))
    if near is not None and len(near) == 0:
        return more
    # A card found beside another has a neighbour of its own: a row missing two in a row.
    tried, found = proposals + frames, more
    for _ in range(BESIDE_ROUNDS - 1):
        new = [r for r in found if r.confidence >= reader.threshold]
        frames = beside(new, tried, sure)
        if near is not None:
            frames = _looked_for(frames, sure, near)
        if not frames:
            break
        found, _ = reader.read(
            image, frames, look.pyramid, paper_floor=floor, doubts=(SECOND_LOOK,)
        )
        more, tried, sure = more + found, tried + frames, sure + new
    return more


def contrasted_look(
    reader: CornerReader, look: Look, near: np.ndarray | None = None
) -> list[CornerRead]:
    """Reads (down to ``LOOK_AGAIN``, each a second look) of the corners proposed on the
    look's frame with its local contrast stretched (CLAHE on the lightness); the crops are
    cut from the frame itself. ``near`` (points): only the corners near them or away from
    the cards read (``_looked_for``)."""
    image = look.image
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    clahe = cv2.createCLAHE(CONTRAST_CLIP, (CONTRAST_TILES, CONTRAST_TILES))
    lab[:, :, 0] = clahe.apply(np.ascontiguousarray(lab[:, :, 0]))
    proposals, _ = propose_corners(cv2.cvtColor(lab, cv2.COLOR_LAB2BGR))
    if near is not None:
        proposals = _looked_for(proposals, look.sure, near)
    reads, _ = reader.read(image, proposals, [image], doubts=(SECOND_LOOK,))
    return reads


def unread_left(look: Look, found: Detections) -> Detections:
    """``found`` (the cards read after ``look``) with the card faces the outline model saw on
    the look's frame where no card of ``found`` lies (``Detections.unread``)."""
    faces = look.corners.faces
    if faces is None:
        return found
    scale = look.image.shape[1] / faces.shape[1]
    unread = unread_outlines(faces, scale, np.asarray(found.quads), look.corners.width)
    return replace(found, unread=unread)


def _away_from(frames: list[Proposal], reads: list[CornerRead]) -> list[Proposal]:
    """The frames whose corner lies over ``AWAY`` card widths outside the outline around
    every card of ``reads``."""
    if not reads or not frames:
        return frames
    corners = np.concatenate(
        [geometry.card_quad(r.proposal.p, r.proposal.u, r.proposal.v, r.proposal.s) for r in reads]
    )
    hull = cv2.convexHull(corners.astype(np.float32))
    width = float(np.median([r.proposal.s for r in reads]))
    return [
        q
        for q in frames
        if cv2.pointPolygonTest(hull, (float(q.p[0]), float(q.p[1])), True) < -AWAY * width
    ]


def _looked_for(
    frames: list[Proposal], reads: list[CornerRead], near: np.ndarray
) -> list[Proposal]:
    """The frames whose corner lies within ``NEAR_SHORT`` card widths of a point of ``near``,
    or away from every card of ``reads`` (``_away_from``)."""
    if len(near) == 0 or not reads or not frames:
        return _away_from(frames, reads)
    away = {id(q) for q in _away_from(frames, reads)}
    reach = NEAR_SHORT * float(np.median([r.proposal.s for r in reads]))
    corners = np.array([q.p for q in frames])
    gap = np.min(np.linalg.norm(corners[:, None] - near[None], axis=2), axis=1)
    return [q for q, d in zip(frames, gap.tolist(), strict=True) if d < reach or id(q) in away]


def _completion_paper_floor(
    image: np.ndarray, reads: list[CornerRead]
) -> tuple[np.ndarray, float] | None:
    """The least paper whiteness of a second-look crop worth reading: ``COMPLETE_PAPER`` of
    the median of the cards read first (None before any card is read). Most of a light
    table's second-look frames lie on the table, darker or more coloured than the cards."""
    if not reads:
        return None
    gain = white_gain(image)
    paper = crop_whiteness(cut(image, [r.proposal for r in reads]), gain)
    return gain, COMPLETE_PAPER * float(np.median(paper))
