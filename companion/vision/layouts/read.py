"""A table of The Gang read told its layout: a pipe of the detector's looks, each taking the
``Look`` before it, and the table grouped between them against the ``Expect`` (``GroupedCards``).

Without a layout the detector's whole read is grouped. Told one: the first look's cards are
grouped; the second look goes near the places short of cards (away from the table only, where
a stray card may lie, when nothing is short); spare reads then fill the gaps; a table still
short gets the contrast-stretched look, whose reads fill the gaps again; the faces left unread
are added. The callers (the app, ``companion detect``, the evaluation) use the grouping
returned: none groups the cards again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from companion.vision.base import geometry
from companion.vision.layouts.gang import Grouping, group_table
from companion.vision.merging import merge_reads

if TYPE_CHECKING:  # types only: the layout step loads no model
    from companion.vision.base.detections import Detections
    from companion.vision.corner_reads import CornerRead, Look
    from companion.vision.layouts.expect import Expect

__all__ = [
    "LOOK_AGAIN_TRIES",
    "SPARE_WIDTH",
    "TableLooks",
    "GroupedCards",
    "fill_gaps",
    "grouped",
    "read_layout",
]

# Spare reads tried in a told table's gaps, surest first: past these, a gap is left to the players.
LOOK_AGAIN_TRIES = 12
# Cards are one size and a steep view halves them at most: a spare read this much wider is none.
SPARE_WIDTH = 3.0


class TableLooks(Protocol):
    """What reading a table asks of the detector (``CardDetector``): its whole read, and the
    looks it is made of, each returning the ``Look`` it was given with more reads (or that
    same ``Look`` when none)."""

    def detect(self, image: np.ndarray, decks: int = 1) -> Detections:
        """The cards read on a BGR image, up to ``decks`` places per card."""
        ...

    def first_look(self, image: np.ndarray) -> Look:
        """The first look at a BGR image (checked, then balanced for its light)."""
        ...

    def second_look(
        self, look: Look, near: np.ndarray | None = None, cascades: bool = False
    ) -> Look:
        """``look`` with its second look's reads: ``near`` (points) only near them or away from
        its cards; ``cascades``: also between a cascade's ends."""
        ...

    def contrasted_look(self, look: Look, near: np.ndarray | None = None) -> Look:
        """``look`` with the contrast-stretched frame's reads as spare reads."""
        ...

    def finish(self, look: Look, found: Detections) -> Detections:
        """``found`` with the card faces ``look`` saw where no card lies."""
        ...


@dataclass(frozen=True)
class GroupedCards:
    """The cards read on a photo and their grouping into the river, hands and stray cards."""

    detections: Detections
    grouping: Grouping


def grouped(found: Detections, expect: Expect | None = None) -> GroupedCards:
    """``found`` (read whole already: the detector's, or the webcam's fused read) grouped."""
    return GroupedCards(found, group_table(found, expect))


def read_layout(
    detector: TableLooks, image: np.ndarray, expect: Expect | None = None, decks: int = 1
) -> GroupedCards:
    """The cards on a BGR ``image`` (up to ``decks`` places per card) and their grouping;
    told the table's layout ``expect``, the detector looks again where the read does not fit."""
    if expect is None:
        return grouped(detector.detect(image, decks=decks))
    look = detector.first_look(image)
    first = _merged(look, expect, decks)
    # Fits already: looked at again only beyond its cards; short where cards lie: near them.
    # Hands of three cards or more may lie in a cascade: the cards between its ends too.
    again = detector.second_look(
        look, near=short_places(first.grouping), cascades=expect.per_hand > 2
    )
    if again is not look:  # more read: the table grouped again
        first = _merged(again, expect, decks)
    table = fill_gaps(first, again, expect, decks)
    if short(table.grouping):
        # Still short: the corners outlined on the contrast-stretched frame, near the short places.
        contrasted = detector.contrasted_look(again, near=short_places(table.grouping))
        if contrasted is not again:
            table = fill_gaps(first, contrasted, expect, decks)
    return GroupedCards(detector.finish(look, table.detections), table.grouping)


def _merged(look: Look, expect: Expect, decks: int) -> GroupedCards:
    """The sure reads of ``look`` merged into cards (``decks`` places per card) and grouped."""
    return grouped(merge_reads(look.sure, look.shape, decks), expect)


def short_places(groups: Grouping) -> np.ndarray | None:
    """Where a table read with its layout lacks cards: the centres (N, 2) of the cards of each
    place short of a card and of the stray cards (empty when none is short). None when a
    short place has no card read (a hand or the river not found): it could be anywhere."""
    if fits_as_read(groups):
        return np.zeros((0, 2))
    missing = groups.missing
    if missing is None or not missing:
        return None
    places = [groups.river] if missing.river else []
    for i, count in enumerate(missing.hands):
        if count:
            places.append(groups.hands[i] if i < len(groups.hands) else ())
    if any(len(place) == 0 for place in places):
        return None
    # A stray card may be a short hand's other card: grouped as a hand once its partner is read.
    places.append(groups.stray)
    return np.array([[seen.x, seen.y] for place in places for seen in place], np.float64)


def fits_as_read(groups: Grouping) -> bool:
    """Whether a table holds what was expected, no card short or over (stray cards aside: a
    second look adds cards, it takes none away)."""
    return groups.missing is not None and not groups.missing and not groups.extra


def short(groups: Grouping) -> int:
    """Cards missing against the expected table."""
    missing = groups.missing
    return 0 if missing is None else missing.river + sum(missing.hands)


def fill_gaps(table: GroupedCards, look: Look, expect: Expect, decks: int) -> GroupedCards:
    """``table`` (the sure reads of ``look`` merged, grouped against ``expect``) with spare
    reads of ``look`` added, surest first, each one only if the table then fits ``expect``
    better (a hand short of a card, a river of four, a hand not found). A spare read of a card
    already read is left out, and so is one where a card was read (``on_a_card``) unless it is
    as sure as the look's threshold and its corner is none of that card's (the card under
    another in a hand laid nearly square on it), and one framed at a width no card of the
    table has (``SPARE_WIDTH``)."""
    found, groups = table.detections, table.grouping
    if groups.misfit == 0 or not look.spare:
        return table
    sure = look.sure
    width = float(np.median([r.proposal.s for r in sure])) if sure else None
    taken = list(sure)
    tried = 0
    for read in sorted(look.spare, key=lambda r: -r.confidence):
        if groups.misfit == 0 or tried >= LOOK_AGAIN_TRIES:
            break
        if on_a_card(read, found, width, look.threshold) or (
            decks == 1 and read.card in found.cards
        ):
            continue
        if width is not None and not 1 / SPARE_WIDTH < read.proposal.s / width < SPARE_WIDTH:
            continue
        tried += 1
        trial = grouped(merge_reads([*taken, read], look.shape, decks), expect)
        if trial.grouping.misfit < groups.misfit:
            taken.append(read)
            found, groups = trial.detections, trial.grouping
    return GroupedCards(found, groups)


def on_a_card(read: CornerRead, found: Detections, width: float | None, threshold: float) -> bool:
    """Whether ``read`` lies where a card of ``found`` was read (its card's middle within half a
    card ``width`` of that card's) and is a read card's corner read again (within
    ``SAME_CORNER`` widths of a corner of a read outline) or less sure than ``threshold``.
    A lower card nearly covered by the upper one (a hand of two squared up, a cascade's tight
    end) shows its index corner away from the upper card's corners: a sure read there is a
    card."""
    if width is None or len(found) == 0:
        return False
    q = read.proposal
    place = geometry.card_quad(q.p, q.u, q.v, q.s).mean(axis=0)
    if float(np.min(np.linalg.norm(found.centres - place, axis=1))) >= 0.5 * width:
        return False
    corners = np.asarray(found.quads).reshape(-1, 2)
    own = float(np.min(np.linalg.norm(corners - q.p, axis=1))) < geometry.SAME_CORNER * width
    return own or read.confidence < threshold
