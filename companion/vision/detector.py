"""``CardDetector``: corner proposals read by three models into the cards of a photo.

Each candidate corner (``proposals``) is cut from the full-resolution image into a small
canonical crop and read by the ONNX classifier (13 ranks + "no index", 4 suits). Crops make
small indices in big photos sharp, and the "no index" class turns the classifier into the
verifier of the proposals. The crops that may hold an index are read again by a wider reader
trained on indices only, and the whole card seen from that corner by the face reader. A doubtful
read is read again at nearby frames, and a crop without card paper is no card. Corners read as
no index get a second look (``completions``), and the reads are merged into cards (``merging``).

The reader knows no table: told a layout, ``layouts.read`` combines its looks (``first_look``,
``second_look``, ``read_contrasted``, ``merge``) to look again where the read does not fit.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.engine.cards import Card, parse_card
from companion.errors import ModelLoadError
from companion.vision import geometry
from companion.vision.completions import (
    beside,
    between,
    completions,
    unread_faces,
    unread_outlines,
)
from companion.vision.court import (
    COURT_RANKS,
    PIP_FRAMES,
    SUIT_UNSURE,
    CourtSuit,
    court_suit,
    opposite_frame,
    pip_frames,
)
from companion.vision.detections import Detections
from companion.vision.gate import DEFAULT_GATE, Gate
from companion.vision.image import MIN_IMAGE_SIDE
from companion.vision.ink import RED_SUITS, contradicts, ink_reads
from companion.vision.light import balanced
from companion.vision.merging import (
    COLOUR,
    COURT,
    MODELS,
    SAME_CORNER,
    SECOND_LOOK,
    SURE,
    CornerRead,
    merge_reads,
)
from companion.vision.outlines import DEFAULT_OUTLINES, OutlineModel
from companion.vision.paper import crop_whiteness, white_gain
from companion.vision.proposals import Proposal, propose_corners, work_factor
from companion.vision.reader import Look
from companion.vision.sessions import DEFAULT_FACE, DEFAULT_MODEL, DEFAULT_READER, load_model
from companion.vision.spots import DEFAULT_SPOTS, SpotModel

if TYPE_CHECKING:
    from onnxruntime import InferenceSession

__all__ = [
    "CardDetector",
    "PAPER_MAX_SATURATION",
    "READ_THRESHOLD",
    "paper_saturation",
    "paper_saturations",
    "reframes",
]

# Overlapping cards' outlines put some corners further off than the reader learned to frame.
REFRAME_FLOOR = 0.4  # index probability (1 - p(no index)) from which a read is doubtful
REFRAME_VOTES = 3  # nearby frames (of 16) that must give the same code
_TURNS = (-0.3, -0.2, -0.1, 0.1, 0.2, 0.3)  # radians: about 6, 11 and 17 degrees
_SHIFTS = ((0.04, 0.0), (-0.04, 0.0), (0.0, 0.04), (0.0, -0.04))  # card widths along u, v
_SCALES = (0.88, 1.12)
# A card seen at a slant is foreshortened along one edge (about 37 or 50 degrees from overhead).
_SQUASHES = (0.8, 0.65)
# Card paper is grey or lightly tinted; coloured cloth can look like an index to the reader.
PAPER_MAX_SATURATION = 0.55
# The second reader saw index crops only: averaged with the corner model, unclear stays unclear.
READER_WEIGHT = 0.5
FACE_WEIGHT = 0.5
# Least confidence (rank x suit probability) of a read kept as a card.
READ_THRESHOLD = 0.4
# Most second-look frames on a light table lie on the table: less white than the cards, unread.
COMPLETE_PAPER = 0.5
# Ink of the other colour's suit: the readers' surest suit of the ink's colour, if this likely.
COLOUR_SUPPORT = 0.05
# A second look told where to look also reads beyond the cards (card widths): strays lie there.
AWAY = 0.0
# ... and the frames within this many card widths of the points it was told.
NEAR_SHORT = 2.5
# Rounds of the second look beside the cards read: a row may miss two cards in a row.
BESIDE_ROUNDS = 2
# Spot frames kept: within this share of the lone cards' width (spots' widths are rough).
SPOT_WIDTH = 0.25
# Where a proposal frames a spot's corner alike (distance, edge cosine, log width), it suffices.
SPOT_NEAR = 0.1
SPOT_TURN = 0.985
SPOT_SCALE = 0.15
# Reads down to this confidence are kept as spare reads: a told table's gaps may take them.
LOOK_AGAIN = 0.2
# Lightness stretched in tiles (CLAHE): light tables, glare and shade hide outlines from levels.
CONTRAST_CLIP = 3.0
CONTRAST_TILES = 8


def _turn(vec: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * vec[0] - s * vec[1], s * vec[0] + c * vec[1]])


def reframes(q: Proposal, foreshortened: bool = True) -> list[Proposal]:
    """Frames near ``q``: turned about its corner, shifted along its edges, rescaled, and
    (``foreshortened``) shortened along one edge: their ``u`` or ``v`` is not a unit vector."""
    out = [Proposal(q.p, _turn(q.u, a), _turn(q.v, a), q.s) for a in _TURNS]
    out += [Proposal(q.p + (du * q.u + dv * q.v) * q.s, q.u, q.v, q.s) for du, dv in _SHIFTS]
    out += [Proposal(q.p, q.u, q.v, q.s * f) for f in _SCALES]
    for f in _SQUASHES if foreshortened else ():
        out += [Proposal(q.p, q.u, q.v * f, q.s), Proposal(q.p, q.u * f, q.v, q.s)]
    return out


def _unit(q: Proposal) -> Proposal:
    """``q`` with unit edge vectors: the corner a foreshortened frame was read at, as merging
    and the second look measure corners (the face reader cuts the card as foreshortened).
    A frame whose edges are unit already is ``q`` itself: the live reader finds the frames to
    follow by the reads made at them."""
    nu, nv = float(np.linalg.norm(q.u)), float(np.linalg.norm(q.v))
    if abs(nu - 1.0) < 1e-9 and abs(nv - 1.0) < 1e-9:
        return q
    return Proposal(q.p, q.u / nu, q.v / nv, q.s)


def _cut(
    image: np.ndarray,
    frames: list[Proposal],
    extent: geometry.Extent = geometry.CORNER,
    scale: float = 1.0,
) -> np.ndarray:
    """The crops of ``frames`` from ``image``, whose pixels are ``scale`` of the frames'."""
    p = np.array([q.p for q in frames], np.float64).reshape(-1, 2) * scale
    u = np.array([q.u for q in frames], np.float64).reshape(-1, 2)
    v = np.array([q.v for q in frames], np.float64).reshape(-1, 2)
    s = np.array([q.s for q in frames], np.float64) * scale
    return geometry.crop_corners(image, p, u, v, s, extent)


def _margin(p: np.ndarray) -> np.ndarray:
    """(N,) each row's best probability less its second."""
    if p.shape[1] < 2:
        return np.zeros(len(p))
    top = np.partition(p, -2, axis=1)
    return np.asarray(top[:, -1] - top[:, -2])


def _sharpness(crops: np.ndarray) -> np.ndarray:
    """(N,) log(1 + variance of the Laplacian) of BGR crops' grey: low for a soft index."""
    out = np.zeros(len(crops))
    for k, crop in enumerate(crops):
        grey = cv2.cvtColor(np.ascontiguousarray(crop, np.uint8), cv2.COLOR_BGR2GRAY)
        out[k] = np.log1p(float(cv2.Laplacian(grey, cv2.CV_32F).var()))
    return out


def paper_saturations(crops: np.ndarray) -> np.ndarray:
    """Median saturation (0..1) of the brighter 40 % of each crop's pixels: its paper, if a
    card. ``crops`` is (N, H, W, 3) BGR."""
    n = len(crops)
    if n == 0:
        return np.zeros(0)
    hsv = cv2.cvtColor(
        np.ascontiguousarray(crops).reshape(-1, crops.shape[2], 3), cv2.COLOR_BGR2HSV
    ).reshape(n, -1, 3)
    value, saturation = hsv[:, :, 2], hsv[:, :, 1].astype(np.int16)
    bright = value >= np.percentile(value, 60, axis=1)[:, None]
    # Each crop's median over its bright pixels: the others sort past every saturation.
    ranked = np.sort(np.where(bright, saturation, 256), axis=1)
    count = bright.sum(axis=1)
    rows = np.arange(n)
    middle = (ranked[rows, (count - 1) // 2] + ranked[rows, count // 2]) / 2.0
    return np.asarray(middle / 255.0)


def paper_saturation(crop: np.ndarray) -> float:
    """Median saturation (0..1) of the brighter 40 % of a crop's pixels: its paper, if a card."""
    return float(paper_saturations(crop[None])[0])


class CardDetector:
    """``CardDetector().detect(image_bgr)`` -> ``Detections``: the cards, with their outlines."""

    def __init__(
        self,
        model_path: Path | str = DEFAULT_MODEL,
        threshold: float = READ_THRESHOLD,
        threads: int = 2,
        reframe: bool = True,
        reader_path: Path | str | None = DEFAULT_READER,
        complete: bool = True,
        face_path: Path | str | None = DEFAULT_FACE,
        outline_path: Path | str | None = DEFAULT_OUTLINES,
        gate_path: Path | str | None = DEFAULT_GATE,
        spot_path: Path | str | None = DEFAULT_SPOTS,
        spots_only: bool = False,
        clues: bool = False,
        courts: bool = False,
    ) -> None:
        """``model_path`` finds indices among the corner crops and reads them;
        ``reader_path`` (None: none) reads again the crops that may hold an index, and
        ``face_path`` (None: none) reads the whole card seen from those corners;
        ``outline_path`` (None: none) outlines the cards the whiteness levels miss;
        ``gate_path`` (None: none) tells which crops ``model_path`` need not read;
        ``spot_path`` (None: none) marks the index corners on the whole frame, a frame each
        beside the whiteness levels' corners; ``spots_only``: those frames alone (a webcam
        frame read quicker; with ``complete=False`` and no outline model, the quick read of
        ``benchmarks/vision_latency.py``). ``reframe``: whether doubtful reads
        are framed again; ``complete``: whether a frame gets its second looks (the corners
        its rejected ones imply, those beside its cards, its unread faces, and for a told
        layout, the contrast-stretched frame). ``clues``: whether each card keeps
        ``Detections.clues`` (for ``training/doubt_model.py``; no decision reads them, so the
        app's reads skip measuring them). ``courts``: whether a court card's suit, unsure at
        its index, is read again from the pip beside the index and its other index corner
        (``court``; measured and not kept: ``docs/journal.md``, the twenty-fifth session)."""
        self._session, self.ranks, self.suits = load_model(model_path, threads)
        self._cards = _card_table(self.ranks, self.suits, str(model_path))
        self._reader: InferenceSession | None = None
        self._face: InferenceSession | None = None
        if reader_path is not None:
            self._reader, ranks, suits = load_model(reader_path, threads)
            if (ranks, suits) != (self.ranks, self.suits):
                raise ModelLoadError(str(reader_path), "its classes differ from the corner model's")
        if face_path is not None:
            self._face, ranks, suits = load_model(face_path, threads, geometry.FACE)
            if (ranks, suits) != (self.ranks, self.suits):
                raise ModelLoadError(str(face_path), "its classes differ from the corner model's")
        self._outlines = OutlineModel(outline_path, threads) if outline_path is not None else None
        self._gate = Gate(gate_path, threads) if gate_path is not None else None
        self.spots = SpotModel(spot_path, threads) if spot_path is not None else None
        self.spots_only = spots_only and self.spots is not None
        self.clues = clues
        self.courts = courts
        self.threshold = threshold
        self.reframe = reframe
        self.complete = complete

    def classify(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rank (N, 14: ranks + no index) and suit (N, 4) probabilities of BGR crops, by the
        corner model (the crops the gate stops: surely no index, suits even)."""
        if len(crops) == 0:
            return np.zeros((0, len(self.ranks) + 1)), np.zeros((0, len(self.suits)))
        crops = np.asarray(crops, np.float32)
        if self._gate is None:
            rank, suit = self._session.run(None, {"crops": crops})
            return rank, suit
        # A crop the gate stops is read as surely no index, as the corner model would.
        rows = np.flatnonzero(self._gate.passes(crops))
        rank = np.zeros((len(crops), len(self.ranks) + 1), np.float32)
        rank[:, -1] = 1.0
        suit = np.full((len(crops), len(self.suits)), 1.0 / len(self.suits), np.float32)
        if len(rows):
            rank[rows], suit[rows] = self._session.run(None, {"crops": crops[rows]})
        return rank, suit

    def read_again(
        self, crops: np.ndarray, rank: np.ndarray, suit: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``rank`` and ``suit`` averaged with the reader's where the corner model reads an
        index (it alone says whether a crop holds one)."""
        rows = np.flatnonzero(rank.argmax(axis=1) < len(self.ranks))
        second = self._reader_reads(crops, rows)
        if second is None:
            return rank, suit
        return _blend(rank, suit, rows, *second, READER_WEIGHT)

    def _reader_reads(
        self, crops: np.ndarray, rows: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray] | None:
        if self._reader is None or len(rows) == 0:
            return None
        rank2, suit2 = self._reader.run(None, {"crops": crops[rows].astype(np.float32)})
        return rank2, suit2

    def read_face(
        self,
        image: np.ndarray,
        proposals: list[Proposal],
        rank: np.ndarray,
        suit: np.ndarray,
        pyramid: list[np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """``rank`` and ``suit`` averaged with the face reader's where the corner model reads an
        index: the whole card, seen from that corner, shows pips and pictures several times
        larger than the index. ``pyramid`` (``image`` and its halvings so far) is extended as
        needed, so a second call on the same frame halves it no more."""
        rows = np.flatnonzero(rank.argmax(axis=1) < len(self.ranks))
        face = self._face_reads(image, proposals, rows, pyramid)
        if face is None:
            return rank, suit
        return _blend(rank, suit, rows, *face, FACE_WEIGHT)

    def _face_reads(
        self,
        image: np.ndarray,
        proposals: list[Proposal],
        rows: np.ndarray,
        pyramid: list[np.ndarray] | None,
    ) -> tuple[np.ndarray, np.ndarray] | None:
        if self._face is None or len(rows) == 0:
            return None
        # Halved once for all cards (until a crop pixel spans about 1.5): shrinking each costs more.
        (x0, x1), _ = geometry.FACE
        pixel = float(np.median([proposals[i].s for i in rows])) * (x1 - x0) / geometry.CROP_W
        pyramid = pyramid if pyramid is not None else [image]
        halvings = max(0, round(np.log2(pixel / 1.5)))
        while len(pyramid) <= halvings:
            pyramid.append(cv2.pyrDown(pyramid[-1]))
        small, f = pyramid[halvings], 0.5**halvings
        crops = _cut(small, [proposals[i] for i in rows], geometry.FACE, f).astype(np.float32)
        rank2, suit2 = self._face.run(None, {"crops": crops})
        return rank2, suit2

    def read_corners(self, image: np.ndarray) -> list[CornerRead]:
        """Every proposal read as a card, before merging (a frame in coloured light balanced
        first, as ``detect`` does)."""
        return self._corner_reads(balanced(image))[0]

    def _corner_reads(self, image: np.ndarray) -> tuple[list[CornerRead], list[CornerRead]]:
        """The corners read as cards, and the spare reads under the read threshold (down to
        ``LOOK_AGAIN``) that a table short of a card may take."""
        look = self._look(image)
        return self.split(look.reads + self.second_look(look))

    def first_look(self, image: np.ndarray) -> Look:
        """The first look at a BGR image: its proposals read once each. A frame in strongly
        coloured or dim light is balanced first (``light.balanced``); ``Look.image`` is the
        frame as read."""
        if (
            image is None
            or image.ndim != 3
            or image.shape[2] != 3
            or min(image.shape[:2]) < MIN_IMAGE_SIDE
        ):
            raise ValueError(
                f"detect() expects a BGR image of shape (H, W, 3), at least {MIN_IMAGE_SIDE} px"
            )
        return self._look(balanced(image))

    def _look(self, image: np.ndarray) -> Look:
        """``first_look`` of a frame balanced already."""
        outlines, width = None, None  # read alone, the spots give no mask for unread faces
        if self.spots_only and self.spots is not None:
            proposals = self.spots.frames(image)
        else:
            outlines = None if self._outlines is None else _Remembered(self._outlines, self.spots)
            proposals, width = propose_corners(image, outlines=outlines)
            proposals += _unproposed(self._spotted(image, outlines, width), proposals)
        pyramid = [image]
        reads, rejected = self._read(image, proposals, pyramid)
        faces = None if outlines is None else outlines.mask
        return Look(image, proposals, pyramid, reads, rejected, faces, width)

    def _spotted(
        self, image: np.ndarray, outlines: _Remembered | None, width: float | None
    ) -> list[Proposal]:
        """The spot model's frames beside the levels' corners, in ``image``'s pixels: read on
        the work frame alongside the outline model where there is one (a 24-megapixel photo
        is shrunk once). Where the lone cards give a typical ``width``, the spots of a card
        far larger than the model learned (a phone held over one card: spots on its pips at
        a table card's width) are left out, and the others framed at that width: the spots'
        widths are rougher."""
        if self.spots is None:
            return []
        if outlines is None or outlines.mask is None:
            spotted = self.spots.frames(image)
        else:
            spotted = [
                _enlarged(q, image.shape[1] / outlines.mask.shape[1]) for q in outlines.spotted
            ]
        if width is None:
            return spotted
        return [
            Proposal(q.p, q.u, q.v, width)
            for q in spotted
            if abs(q.s - width) <= SPOT_WIDTH * width
        ]

    def second_look(
        self, look: Look, near: np.ndarray | None = None, cascades: bool = False
    ) -> list[CornerRead]:
        """Reads of the frames the first look's rejected corners imply (``completions``) and
        of those beside its cards (``beside``); with ``cascades`` (hands of three cards or
        more), of those between two cards that may be a cascade's ends (``between``).
        ``near`` (points, pixels): only the frames near them or away from the cards read
        surely (where stray cards lie); empty: only the latter. Nothing without ``complete``."""
        if not self.complete:
            return []
        image = look.image
        sure = [r for r in look.reads if r.confidence >= self.threshold]
        floor = _completion_paper_floor(image, sure)
        frames = completions(look.rejected, sure, look.proposals)
        frames += beside(sure, look.proposals + frames)
        if cascades:
            frames += between(sure, look.proposals + frames)
        if look.faces is not None:
            frames += unread_faces(look.faces, image.shape[1] / look.faces.shape[1], sure)
        if near is not None:
            frames = _looked_for(frames, sure, near)
        more, _ = self._read(image, frames, look.pyramid, paper_floor=floor, doubts=(SECOND_LOOK,))
        if near is not None and len(near) == 0:
            return more
        # A card found beside another has a neighbour of its own: a row missing two in a row.
        tried, found = look.proposals + frames, more
        for _ in range(BESIDE_ROUNDS - 1):
            new = [r for r in found if r.confidence >= self.threshold]
            frames = beside(new, tried, sure)
            if near is not None:
                frames = _looked_for(frames, sure, near)
            if not frames:
                break
            found, _ = self._read(
                image, frames, look.pyramid, paper_floor=floor, doubts=(SECOND_LOOK,)
            )
            more, tried, sure = more + found, tried + frames, sure + new
        return more

    def split(self, reads: list[CornerRead]) -> tuple[list[CornerRead], list[CornerRead]]:
        """The reads as sure as the read threshold, and the others as spare second looks."""
        sure = [r for r in reads if r.confidence >= self.threshold]
        spare = [
            replace(r, doubts=tuple(dict.fromkeys((*r.doubts, SECOND_LOOK))))
            for r in reads
            if r.confidence < self.threshold
        ]
        return sure, spare

    def read_frames(self, image: np.ndarray, frames: list[Proposal]) -> list[CornerRead]:
        """``frames`` read as cards once each, neither framed again nor looked at twice: the
        live reader brings its own frames (cards followed from earlier frames, whose next
        frames are the second look). ``image`` comes balanced for its light already
        (``light.balanced``): the live reader balances each frame once, for its proposals too."""
        reads, _ = self._read(image, frames, [image], reframe=False, threshold=self.threshold)
        return reads

    def _read(
        self,
        image: np.ndarray,
        proposals: list[Proposal],
        pyramid: list[np.ndarray],
        reframe: bool | None = None,
        paper_floor: tuple[np.ndarray, float] | None = None,
        threshold: float | None = None,
        doubts: tuple[str, ...] = (),
    ) -> tuple[list[CornerRead], list[Proposal]]:
        """The proposals read as cards (surer than ``threshold``, by default ``LOOK_AGAIN``),
        and those read as no index. Each read carries what makes it doubtful: ``doubts``,
        and its own (``_read_doubts``). ``reframe``: whether doubtful reads are framed again
        (None: as the detector was made). With ``paper_floor`` (a white gain and a
        whiteness), crops whose paper is less white are left unread: they count neither as
        cards nor as rejected corners."""
        threshold = min(self.threshold, LOOK_AGAIN) if threshold is None else threshold
        crops = _cut(image, proposals)
        if paper_floor is not None and len(proposals):
            keep = np.flatnonzero(crop_whiteness(crops, paper_floor[0]) >= paper_floor[1])
            proposals, crops = [proposals[i] for i in keep.tolist()], crops[keep]
        rank_p, suit_p = self.classify(crops)
        if self.reframe if reframe is None else reframe:
            proposals, crops, rank_p, suit_p = self._reframe_doubtful(
                image, proposals, crops, rank_p, suit_p
            )
        n_ranks = len(self.ranks)
        rows = np.flatnonzero(rank_p.argmax(axis=1) < n_ranks)
        # Each model's own read of the index crops, to tell where they disagree.
        codes = [(rank_p[rows, :n_ranks].argmax(axis=1), suit_p[rows].argmax(axis=1))]
        second = self._reader_reads(crops, rows)
        if second is not None:
            codes.append((second[0][:, :n_ranks].argmax(axis=1), second[1].argmax(axis=1)))
            rank_p, suit_p = _blend(rank_p, suit_p, rows, *second, READER_WEIGHT)
        face = self._face_reads(image, proposals, rows, pyramid)
        if face is not None:
            codes.append((face[0][:, :n_ranks].argmax(axis=1), face[1].argmax(axis=1)))
            rank_p, suit_p = _blend(rank_p, suit_p, rows, *face, FACE_WEIGHT)
        r, s = rank_p.argmax(axis=1), suit_p.argmax(axis=1)
        every = np.arange(len(proposals))
        index = r < n_ranks
        confidence = rank_p[every, r] * suit_p[every, s]
        sure = np.flatnonzero(index & (confidence >= threshold))
        paper = sure[paper_saturations(crops[sure]) <= PAPER_MAX_SATURATION]
        disagree = np.zeros(len(proposals), bool)
        for rank_m, suit_m in codes:
            disagree[rows] |= (rank_m != r[rows]) | (suit_m != s[rows])
        courts = self._court_suits(image, proposals, paper, r, suit_p) if self.courts else {}
        inks, redness = ink_reads(crops[paper], lean=self.clues)
        if self.clues:
            sharpness = _sharpness(crops[paper])
            rank_margin, suit_margin = _margin(rank_p[:, :n_ranks]), _margin(suit_p)
        reads = []
        for j, (i, ink) in enumerate(zip(paper.tolist(), inks.tolist(), strict=True)):
            found = list(doubts)
            suit, conf = int(s[i]), float(confidence[i])
            court = courts.get(i)
            if court is not None and court.disputed:
                found.append(COURT)
            if court is not None and court.suit != suit:
                suit, conf = court.suit, min(conf, float(rank_p[i, r[i]]) * court.suit_p)
            if contradicts(self.suits[suit], ink):
                found.append(COLOUR)
                suit, conf = self._suit_of_colour(suit_p[i], ink, suit, rank_p[i, r[i]], conf)
            if disagree[i]:
                found.append(MODELS)
            clues: tuple[float, ...] = ()
            if self.clues:
                at, red = int(np.searchsorted(rows, i)), float(redness[j])
                clues = (
                    float(sum(int(rm[at]) == r[i] and int(sm[at]) == suit for rm, sm in codes)),
                    float(rank_margin[i]),
                    float(suit_margin[i]),
                    red if self.suits[suit] not in RED_SUITS else -red,
                    float(sharpness[j]),
                    float(proposals[i].s),
                )
            reads.append(
                CornerRead(
                    self._cards[r[i]][suit],
                    conf,
                    _unit(proposals[i]),
                    tuple(dict.fromkeys(found)),
                    clues,
                )
            )
        return reads, [proposals[i] for i in np.flatnonzero(~index).tolist()]

    def _court_suits(
        self,
        image: np.ndarray,
        proposals: list[Proposal],
        rows: np.ndarray,
        rank: np.ndarray,
        suit_p: np.ndarray,
    ) -> dict[int, CourtSuit]:
        """The suit of each court read among ``rows`` whose suit is unsure at its index, read
        also from the pip beside the index and from the card's other index corner (``court``):
        the reader reads the pips, and the corner model with the reader the other corner."""
        n_ranks = len(self.ranks)
        unsure = [
            i
            for i in rows.tolist()
            if rank[i] < n_ranks
            and self.ranks[rank[i]] in COURT_RANKS
            and float(suit_p[i].max()) < SUIT_UNSURE
        ]
        if not unsure or self._reader is None:
            return {}
        k = len(PIP_FRAMES)
        pips = _cut(image, [f for i in unsure for f in pip_frames(proposals[i])])
        _, pip_p = self._reader.run(None, {"crops": pips.astype(np.float32)})
        across = _cut(image, [opposite_frame(proposals[i]) for i in unsure])
        far_rank, far_suit = self.read_again(across, *self.classify(across))
        out = {}
        for j, i in enumerate(unsure):
            same_rank = int(far_rank[j].argmax()) == rank[i]
            out[i] = court_suit(
                suit_p[i],
                pip_p[j * k : (j + 1) * k],
                far_suit[j] if same_rank else None,
            )
        return out

    def _suit_of_colour(
        self, suit_p: np.ndarray, ink: int, suit: int, rank_p: float, confidence: float
    ) -> tuple[int, float]:
        """The suit the ink's colour allows that the readers favour, with the read's
        confidence, when they give it some weight; else the suit read, unchanged."""
        allowed = [k for k, name in enumerate(self.suits) if not contradicts(name, ink)]
        best = max(allowed, key=lambda k: float(suit_p[k]))
        if float(suit_p[best]) < COLOUR_SUPPORT:
            return suit, confidence
        return best, min(confidence, rank_p * float(suit_p[best]))

    def _reframe_doubtful(
        self,
        image: np.ndarray,
        proposals: list[Proposal],
        crops: np.ndarray,
        rank_p: np.ndarray,
        suit_p: np.ndarray,
    ) -> tuple[list[Proposal], np.ndarray, np.ndarray, np.ndarray]:
        """Doubtful reads (with their frames and crops) replaced by the surest read among
        nearby frames."""
        n_ranks = len(self.ranks)
        index_p = 1.0 - rank_p[:, n_ranks]
        confidence = rank_p[:, :n_ranks].max(axis=1, initial=0.0) * suit_p.max(axis=1, initial=0.0)
        doubtful = (index_p >= REFRAME_FLOOR) & (confidence < SURE)
        doubtful = np.flatnonzero(doubtful & ~_read_surely_elsewhere(proposals, confidence))
        if len(doubtful) == 0:
            return proposals, crops, rank_p, suit_p
        frames = [reframes(proposals[i]) for i in doubtful]
        flat = [f for group in frames for f in group]
        near = _cut(image, flat)
        r2, s2 = self.classify(near)
        k = len(frames[0])
        proposals, crops = list(proposals), crops.copy()
        rank_p, suit_p = rank_p.copy(), suit_p.copy()
        for j, i in enumerate(doubtful):
            rr, ss = r2[j * k : (j + 1) * k], s2[j * k : (j + 1) * k]
            conf = rr[:, :n_ranks].max(axis=1) * ss.max(axis=1) * (rr.argmax(axis=1) < n_ranks)
            best = int(np.argmax(conf))
            code = (rr[best].argmax(), ss[best].argmax())
            # A texture looks like an index at one lucky frame, a misframed index at several.
            mean = (
                (rank_p[i] + rr.sum(axis=0))[:n_ranks].argmax(),
                (suit_p[i] + ss.sum(axis=0)).argmax(),
            )
            votes = int(np.sum((rr.argmax(axis=1) == code[0]) & (ss.argmax(axis=1) == code[1])))
            if conf[best] > confidence[i] and votes >= REFRAME_VOTES and mean == code:
                proposals[i], crops[i] = frames[j][best], near[j * k + best]
                rank_p[i], suit_p[i] = rr[best], ss[best]
        return proposals, crops, rank_p, suit_p

    def detect(self, image: np.ndarray, decks: int = 1) -> Detections:
        """The cards read on a BGR image, one row per card, surest place of each (up to
        ``decks`` places per card), after the first look and the whole second look. Told a
        table's layout, ``layouts.read.read_layout`` looks again where the read does not fit."""
        look = self.first_look(image)
        sure, _ = self.split(look.reads + self.second_look(look))
        return self.finish(look, self.merge(sure, look.shape, decks))

    def merge(self, reads: list[CornerRead], shape: tuple[int, int], decks: int = 1) -> Detections:
        """Corner reads merged into cards on a frame of ``shape`` (height, width): one read
        per physical corner, then ``decks`` places per card (``merging``)."""
        return merge_reads(reads, shape, decks)

    def finish(self, look: Look, found: Detections) -> Detections:
        """``found`` (the cards read after ``look``) with the card faces the outline model saw
        on the look's frame where no card of ``found`` lies (``Detections.unread``)."""
        if look.faces is None:
            return found
        scale = look.image.shape[1] / look.faces.shape[1]
        unread = unread_outlines(look.faces, scale, np.asarray(found.quads), look.width)
        return replace(found, unread=unread)

    def with_unread(self, image: np.ndarray, read: Detections) -> Detections:
        """``read`` (cards read on the BGR ``image`` elsewhere: the live reader's fused read of
        recent frames) with the card faces the outline model sees on ``image`` where none of
        its cards lies (``Detections.unread``), as ``detect`` gives them. Unchanged without an
        outline model or a card read."""
        if self._outlines is None or not len(read):
            return read
        h, w = image.shape[:2]
        f = work_factor(image.shape)  # the frame the proposals' card mask is made at
        size = (max(1, round(w * f)), max(1, round(h * f)))
        mask = self._outlines.card_mask(balanced(image), size)
        return replace(read, unread=unread_outlines(mask, w / size[0], np.asarray(read.quads)))

    def read_contrasted(
        self, image: np.ndarray, near: tuple[list[CornerRead], np.ndarray] | None = None
    ) -> list[CornerRead]:
        """Reads (down to ``LOOK_AGAIN``, each a second look) of the corners proposed on
        ``image`` with its local contrast stretched (CLAHE on the lightness); the crops are
        cut from ``image`` itself. ``near`` (the cards read, and points): only the corners
        near those points or away from those cards (``_looked_for``)."""
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
        clahe = cv2.createCLAHE(CONTRAST_CLIP, (CONTRAST_TILES, CONTRAST_TILES))
        lab[:, :, 0] = clahe.apply(np.ascontiguousarray(lab[:, :, 0]))
        proposals, _ = propose_corners(cv2.cvtColor(lab, cv2.COLOR_LAB2BGR))
        if near is not None:
            proposals = _looked_for(proposals, *near)
        reads, _ = self._read(image, proposals, [image], doubts=(SECOND_LOOK,))
        return reads


class _Remembered:
    """The outline model, keeping the last card-face mask it gave (the proposals' work frame):
    the second look frames the faces no card read covers (``completions.unread_faces``). With
    a spot model, the spots of the same work frame too, found in the same worker thread."""

    def __init__(self, model: OutlineModel, spots: SpotModel | None = None) -> None:
        self.model = model
        self.spots = spots
        self.mask: np.ndarray | None = None
        self.spotted: list[Proposal] = []  # in the work frame's pixels

    def card_mask(self, image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        self.mask = self.model.card_mask(image, size)
        if self.spots is not None:
            self.spotted = self.spots.frames(image)
        return self.mask


def _enlarged(q: Proposal, scale: float) -> Proposal:
    """``q``, found on a frame shrunk by ``1 / scale``, in the full frame's pixels (pixel
    centres to pixel centres)."""
    return Proposal((q.p + 0.5) * scale - 0.5, q.u, q.v, q.s * scale)


def _unproposed(spotted: list[Proposal], proposals: list[Proposal]) -> list[Proposal]:
    """The spot frames that no proposal frames alike (``SPOT_NEAR``, ``SPOT_TURN``,
    ``SPOT_SCALE``): where the levels framed the corner well, their frame follows the card's
    own outline and a spot a pixel or two off would only compete with it."""
    if not spotted or not proposals:
        return spotted
    points = np.array([q.p for q in proposals])
    edges = np.array([q.u / np.linalg.norm(q.u) for q in proposals])
    widths = np.array([q.s for q in proposals])
    scales = np.log(widths)
    kept = []
    for q in spotted:
        near = np.hypot(*(points - q.p).T) < SPOT_NEAR * widths
        alike = np.abs(scales - np.log(q.s)) < SPOT_SCALE
        if not np.any(near & alike & (edges @ q.u > SPOT_TURN)):
            kept.append(q)
    return kept


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


def _read_surely_elsewhere(proposals: list[Proposal], confidence: np.ndarray) -> np.ndarray:
    """(N,) bool: whether another frame at the same corner (as ``merging`` counts one) is read
    at least ``SURE``. Merging keeps the surest read of a corner, so a doubtful read there
    is not framed again (speed; see ``REFRAME_FLOOR``)."""
    sure = np.flatnonzero(confidence >= SURE)
    if len(sure) == 0 or len(proposals) == 0:
        return np.zeros(len(proposals), bool)
    p = np.array([q.p for q in proposals])
    u = np.array([q.u for q in proposals])
    s = np.array([q.s for q in proposals])
    near = np.linalg.norm(p[:, None] - p[None, sure], axis=2) < SAME_CORNER * np.minimum(
        s[:, None], s[None, sure]
    )
    return np.asarray((near & (u @ u[sure].T > 0.8)).any(axis=1) & (confidence < SURE))


def _completion_paper_floor(
    image: np.ndarray, reads: list[CornerRead]
) -> tuple[np.ndarray, float] | None:
    """The least paper whiteness of a second-look crop worth reading: ``COMPLETE_PAPER`` of
    the median of the cards read first (None before any card is read). Most of a light
    table's second-look frames lie on the table, darker or more coloured than the cards."""
    if not reads:
        return None
    gain = white_gain(image)
    paper = crop_whiteness(_cut(image, [r.proposal for r in reads]), gain)
    return gain, COMPLETE_PAPER * float(np.median(paper))


def _blend(
    rank: np.ndarray,
    suit: np.ndarray,
    rows: np.ndarray,
    rank2: np.ndarray,
    suit2: np.ndarray,
    weight: float,
) -> tuple[np.ndarray, np.ndarray]:
    """``rank`` and ``suit`` with ``rows`` averaged with a second read (weight ``weight``) of
    the same crops. The second reader knows no "no index": the index probability stays."""
    n = rank.shape[1] - 1
    rank, suit = rank.copy(), suit.copy()
    ranks_only = rank2[:, :n] / np.maximum(rank2[:, :n].sum(axis=1, keepdims=True), 1e-9)
    rank[rows, :n] = weight * ranks_only * (1.0 - rank[rows, n:]) + (1 - weight) * rank[rows, :n]
    suit[rows] = weight * suit2 + (1 - weight) * suit[rows]
    return rank, suit


def _card_table(ranks: str, suits: str, where: str) -> tuple[tuple[Card, ...], ...]:
    """The card of each (rank class, suit class) of a model: its class names read once."""
    return tuple(tuple(parse_card(rank + suit, where) for suit in suits) for rank in ranks)
