"""``CornerReader``: corner frames read as cards by three models.

Each frame is cut from the full-resolution image into a small canonical crop and read by the
ONNX classifier (13 ranks + "no index", 4 suits). Crops make small indices in big photos sharp,
and the "no index" class turns the classifier into the verifier of the proposals. The crops
that may hold an index are read again by a wider reader trained on indices only, and the whole
card seen from that corner by the face reader. A doubtful read is read again at nearby frames
(``reframe``), a crop without card paper is no card, and the index ink's colour checks the suit
(``ink``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.engine.cards import Card, parse_card
from companion.errors import ModelLoadError
from companion.vision.base import geometry
from companion.vision.base.alternatives import ALTERNATIVES, Alternative, capped, likeliest
from companion.vision.base.detections import COLOUR, COURT, MODELS
from companion.vision.base.paper import crop_whiteness, paper_saturations
from companion.vision.base.sessions import DEFAULT_FACE, DEFAULT_MODEL, DEFAULT_READER, load_model
from companion.vision.corner_reads.court import (
    COURT_RANKS,
    PIP_FRAMES,
    SUIT_UNSURE,
    CourtSuit,
    court_suit,
    opposite_frame,
    pip_frames,
)
from companion.vision.corner_reads.crops import cut
from companion.vision.corner_reads.gate import DEFAULT_GATE, Gate
from companion.vision.corner_reads.ink import RED_SUITS, contradicts, ink_reads
from companion.vision.corner_reads.reads import CornerRead
from companion.vision.corner_reads.reframe import reframe_doubtful
from companion.vision.proposals import Proposal

if TYPE_CHECKING:
    from onnxruntime import InferenceSession

__all__ = [
    "LOOK_AGAIN",
    "PAPER_MAX_SATURATION",
    "READ_THRESHOLD",
    "CornerReader",
]

# Least confidence (rank x suit probability) of a read kept as a card.
READ_THRESHOLD = 0.4
# Reads down to this confidence are kept as spare reads: a told table's gaps may take them.
LOOK_AGAIN = 0.2
# Card paper is grey or lightly tinted; coloured cloth can look like an index to the reader.
PAPER_MAX_SATURATION = 0.55
# The second reader saw index crops only: averaged with the corner model, unclear stays unclear.
READER_WEIGHT = 0.5
FACE_WEIGHT = 0.5
# Ink of the other colour's suit: the readers' surest suit of the ink's colour, if this likely.
COLOUR_SUPPORT = 0.05
# Alternatives a corner read keeps: two beyond a card's, for the codes the decks cannot hold
# again (``alternatives.plausible``, once the cards are merged).
CORNER_ALTERNATIVES = ALTERNATIVES + 2


class CornerReader:
    """``CornerReader().read(image, frames, pyramid)`` -> the frames read as cards
    (``CornerRead``), and those read as no index."""

    def __init__(
        self,
        model_path: Path | str = DEFAULT_MODEL,
        reader_path: Path | str | None = DEFAULT_READER,
        face_path: Path | str | None = DEFAULT_FACE,
        gate_path: Path | str | None = DEFAULT_GATE,
        threshold: float = READ_THRESHOLD,
        reframe: bool = True,
        clues: bool = False,
        courts: bool = False,
        threads: int = 2,
    ) -> None:
        """``model_path`` finds indices among the corner crops and reads them;
        ``reader_path`` (None: none) reads again the crops that may hold an index, and
        ``face_path`` (None: none) reads the whole card seen from those corners;
        ``gate_path`` (None: none) tells which crops ``model_path`` need not read.
        ``threshold``: the least confidence of a read kept as a card; ``reframe``: whether
        doubtful reads are framed again; ``clues``: whether each read keeps its clues
        (``detections.CLUES``); ``courts``: whether a court card's suit, unsure at its index,
        is read again beyond it (``court``)."""
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
        self._gate = Gate(gate_path, threads) if gate_path is not None else None
        self.threshold = threshold
        self.reframe = reframe
        self.clues = clues
        self.courts = courts

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
        crops = cut(small, [proposals[i] for i in rows], geometry.FACE, f).astype(np.float32)
        rank2, suit2 = self._face.run(None, {"crops": crops})
        return rank2, suit2

    def read_frames(self, image: np.ndarray, frames: list[Proposal]) -> list[CornerRead]:
        """``frames`` read as cards once each, neither framed again nor looked at twice: the
        live reader brings its own frames (cards followed from earlier frames, whose next
        frames are the second look). ``image`` comes balanced for its light already
        (``light.balanced``): the live reader balances each frame once, for its proposals too."""
        reads, _ = self.read(image, frames, [image], reframe=False, threshold=self.threshold)
        return reads

    def read(
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
        and its own (the readers disagreeing, the ink's colour, a court's suit). ``reframe``:
        whether doubtful reads are framed again (None: as the reader was made). With
        ``paper_floor`` (a white gain and a whiteness), crops whose paper is less white are
        left unread: they count neither as cards nor as rejected corners."""
        threshold = min(self.threshold, LOOK_AGAIN) if threshold is None else threshold
        crops = cut(image, proposals)
        if paper_floor is not None and len(proposals):
            keep = np.flatnonzero(crop_whiteness(crops, paper_floor[0]) >= paper_floor[1])
            proposals, crops = [proposals[i] for i in keep.tolist()], crops[keep]
        rank_p, suit_p = self.classify(crops)
        if self.reframe if reframe is None else reframe:
            proposals, crops, rank_p, suit_p = reframe_doubtful(
                self.classify, image, proposals, crops, rank_p, suit_p
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
        # One code more than kept: the read's own is among them (unless the ink or a court's
        # pip moved its suit).
        next_codes = likeliest(rank_p[paper, :n_ranks], suit_p[paper], CORNER_ALTERNATIVES + 1)
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
            card = self._cards[r[i]][suit]
            reads.append(
                CornerRead(
                    card,
                    conf,
                    _unit(proposals[i]),
                    tuple(dict.fromkeys(found)),
                    clues,
                    self._alternatives(card, conf, *(column[j] for column in next_codes)),
                    proposals[i],
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
        pips = cut(image, [f for i in unsure for f in pip_frames(proposals[i])])
        _, pip_p = self._reader.run(None, {"crops": pips.astype(np.float32)})
        across = cut(image, [opposite_frame(proposals[i]) for i in unsure])
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

    def _alternatives(
        self, card: Card, confidence: float, ranks: np.ndarray, suits: np.ndarray, p: np.ndarray
    ) -> tuple[Alternative, ...]:
        """The codes of classes ``ranks`` and ``suits`` (likeliest first, probabilities ``p``)
        other than ``card``, at most ``CORNER_ALTERNATIVES``, summing with ``confidence`` to
        at most 1."""
        found = [
            Alternative(self._cards[k][m], float(q))
            for k, m, q in zip(ranks.tolist(), suits.tolist(), p.tolist(), strict=True)
            if self._cards[k][m] != card
        ]
        return capped(found[:CORNER_ALTERNATIVES], confidence)

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


def _unit(q: Proposal) -> Proposal:
    """``q`` with unit edge vectors: the corner a foreshortened frame was read at, as merging
    and the second look measure corners (the face reader cuts the card as foreshortened).
    A frame whose edges are unit already is ``q`` itself: the live reader finds the frames to
    follow by the reads made at them."""
    nu, nv = float(np.linalg.norm(q.u)), float(np.linalg.norm(q.v))
    if abs(nu - 1.0) < 1e-9 and abs(nv - 1.0) < 1e-9:
        return q
    return Proposal(q.p, q.u / nu, q.v / nv, q.s)


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
