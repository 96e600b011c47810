"""Measure the card reader on a labelled image set.

    python -m companion.vision.training.evaluate LABELS.json [--model models/card_corners.onnx]

``LABELS.json`` is a list of ``{"image", "cards", "groups"}`` (images relative to the file);
synthetic sets also list ``partly_hidden`` cards, which count neither way (``score_cards``).
Prints card-level precision, recall and F1 (multiset match per image), the exact-grouping rate
on table scenes (river and every hand right), each read with the layout its labels give
(``expect_of``; a table with an index hidden, whose grouping cannot be answered, is still
read with its ``layout``), the silent errors (``doubts``), the flags as the shares a doubt is
judged by, for the whole set and each source (``flag_line``: right cards flagged, wrong reads
flagged, silent errors), how often a wrong read's true code is among its alternatives
(``offered``), and the latency per image size (median and 90th percentile).
``--light B,G,R``, ``--tilt DEG``, ``--motion L`` and ``--webcam SIDE`` read every photo in a
coloured or dim light, seen more steeply, smeared, or as a webcam streams it (``views``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path

import cv2
import numpy as np

from companion.bench.cpu import describe_cpu
from companion.errors import CompanionError
from companion.vision.base.detections import READABLE_WIDTH, Detections
from companion.vision.base.image import MIN_IMAGE_SIDE
from companion.vision.base.sessions import DEFAULT_FACE, DEFAULT_MODEL, DEFAULT_READER
from companion.vision.corner_reads.gate import DEFAULT_GATE
from companion.vision.detector import CardDetector
from companion.vision.layouts.expect import Expect, parse_expect
from companion.vision.layouts.gang import Grouping
from companion.vision.layouts.read import read_layout
from companion.vision.proposals.outlines import DEFAULT_OUTLINES
from companion.vision.proposals.spots import DEFAULT_SPOTS
from companion.vision.training.views import (
    in_light,
    light_argument,
    motion_argument,
    smeared,
    tilted,
    webcam,
    webcam_argument,
)

__all__ = [
    "Offered",
    "Doubts",
    "Misreads",
    "Score",
    "doubts",
    "expect_of",
    "flag_line",
    "grouping_exact",
    "main",
    "misreads",
    "offered",
    "score_cards",
    "told_apart",
]


@dataclass(frozen=True)
class Score:
    true_pos: int
    false_pos: int
    false_neg: int
    not_counted: int = 0  # reads of partly hidden cards, neither right nor extra

    @property
    def precision(self) -> float:
        return self.true_pos / max(1, self.true_pos + self.false_pos)

    @property
    def recall(self) -> float:
        return self.true_pos / max(1, self.true_pos + self.false_neg)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def __add__(self, other: Score) -> Score:
        return Score(
            self.true_pos + other.true_pos,
            self.false_pos + other.false_pos,
            self.false_neg + other.false_neg,
            self.not_counted + other.not_counted,
        )


def score_cards(found: list[str], truth: list[str], partly: Sequence[str] = ()) -> Score:
    """Multiset match of one image's reads against its labels.

    ``partly`` lists cards whose index is only partly in view (the synthetic sets' labels say
    which): a read of one of them is neither right nor extra, and not reading it is no miss.
    """
    f, t = Counter(found), Counter(truth)
    tp = sum((f & t).values())
    unmatched = f - t
    partly_read = unmatched & Counter(partly)
    return Score(
        tp, sum((unmatched - partly_read).values()), sum(t.values()) - tp, sum(partly_read.values())
    )


def grouping_exact(groups: Grouping, truth: dict[str, list[str] | None]) -> bool:
    """River as a set and hands as a set of sets, all equal to the labels."""
    river = truth.get("table") or []
    hands = [frozenset(v) for k, v in truth.items() if k != "table" and v]
    read_river, read_hands = _codes(groups)
    return (
        set(read_river) == set(river)
        and len(read_river) == len(river)
        and Counter(frozenset(h) for h in read_hands) == Counter(hands)
    )


def expect_of(truth: dict[str, list[str] | None]) -> Expect:
    """The layout a table scene's labels give: its river, and its hands of the largest size."""
    hands = [v for k, v in truth.items() if k != "table" and v]
    return Expect(
        len(truth.get("table") or []), len(hands), max((len(h) for h in hands), default=2)
    )


@dataclass(frozen=True)
class Doubts:
    """How honest an image's flags are: ``silent`` wrong or missed cards that nothing points
    to, and right cards flagged for a check among all right cards."""

    silent: int
    right_flagged: int
    right: int
    wrong_flagged: int
    wrong: int

    def __add__(self, other: Doubts) -> Doubts:
        return Doubts(
            self.silent + other.silent,
            self.right_flagged + other.right_flagged,
            self.right + other.right,
            self.wrong_flagged + other.wrong_flagged,
            self.wrong + other.wrong,
        )

    @property
    def right_share(self) -> float:
        """The share of right cards flagged for a check: doubts the players find needless."""
        return self.right_flagged / max(1, self.right)

    @property
    def wrong_share(self) -> float:
        """The share of wrong reads flagged for a check: doubts that catch an error."""
        return self.wrong_flagged / max(1, self.wrong)


def flag_line(name: str, found: Doubts) -> str:
    """One set's flags as the shares a doubt is judged by, and its silent errors."""
    return (
        f"{name}: right cards flagged {found.right_flagged}/{found.right} "
        f"({found.right_share:.1%}), wrong reads flagged {found.wrong_flagged}/{found.wrong} "
        f"({found.wrong_share:.1%}), silent errors {found.silent}"
    )


def doubts(
    detections: Detections,
    truth: list[str],
    groups: Grouping | None = None,
    partly: Sequence[str] = (),
    hidden: int = 0,
    hidden_cards: Sequence[str] = (),
) -> Doubts:
    """Silent errors of one image: a wrong read with no ``check`` that is not ``stray``, and a
    missed card that no flagged or stray wrong read stands for (a misread card is one wrong
    read and one miss: checking the read fixes both) and that neither a ``missing`` count nor
    an ``unread`` card face reports (without boxes, each unread face stands for one miss).

    Which read of a code is the wrong one cannot be told without boxes: the surest reads of a
    code are taken as its right ones, the least sure as the extra ones. ``hidden`` cards of
    the layout (their index out of view) are the first a ``missing`` count stands for, less
    those of ``hidden_cards`` (their codes) read all the same from a partly hidden index.
    """
    stray = {seen.index for seen in groups.stray} if groups is not None else set()
    left = Counter(truth)
    right = right_flagged = wrong = wrong_flagged = told = 0
    partly_left = Counter(partly)
    hidden_left = Counter(hidden_cards)
    for i in sorted(range(len(detections)), key=lambda i: -float(detections.confidence[i])):
        code, flagged = str(detections.cards[i]), bool(detections.check[i])
        if left[code] > 0:
            left[code] -= 1
            right += 1
            right_flagged += flagged
        elif partly_left[code] > 0:
            partly_left[code] -= 1
            if hidden_left[code] > 0:
                hidden_left[code] -= 1
                hidden -= 1
        else:
            wrong += 1
            wrong_flagged += flagged
            told += flagged or i in stray
    missed = sum(left.values())
    counted = 0
    if groups is not None and groups.missing is not None:
        counted = max(0, groups.missing.river + sum(groups.missing.hands) - max(0, hidden))
    # An unread card face may be the very card a missing count reports: the larger tells.
    counted = max(counted, len(detections.unread))
    silent = (wrong - told) + max(0, missed - told - counted)
    return Doubts(silent, right_flagged, right, wrong_flagged, wrong)


COURTS = frozenset("JQK")


@dataclass(frozen=True)
class Misreads:
    """An image's wrong reads by what was misread, each paired with a missed card of the same
    rank (a suit misread) or the same suit (a rank misread); ``other``: neither."""

    colour: int = 0  # a red suit read as a black one or the reverse
    suit: int = 0  # a suit of the same colour (spades for clubs)
    rank: int = 0
    other: int = 0  # no missed card alike: an extra read, or rank and suit both wrong
    courts: int = 0  # of ``colour`` and ``suit``: a jack, queen or king

    def __add__(self, other: Misreads) -> Misreads:
        return Misreads(
            self.colour + other.colour,
            self.suit + other.suit,
            self.rank + other.rank,
            self.other + other.other,
            self.courts + other.courts,
        )


def misreads(found: Sequence[str], truth: Sequence[str]) -> Misreads:
    """What each wrong read of an image misread: suits first, then ranks, then the rest."""
    extra = list((Counter(found) - Counter(truth)).elements())
    missed = Counter(truth) - Counter(found)
    kinds = Counter[str]()
    unpaired: list[str] = []
    for code in extra:
        alike = [m for m in missed.elements() if m[:-1] == code[:-1]]
        if not alike:
            unpaired.append(code)
            continue
        match = next((m for m in alike if _red(m) == _red(code)), alike[0])
        missed[match] -= 1
        kinds["suit" if _red(match) == _red(code) else "colour"] += 1
        kinds["courts"] += code[0] in COURTS
    for code in unpaired:
        rank_of = next((m for m in missed.elements() if m[-1] == code[-1]), None)
        if rank_of is not None:
            missed[rank_of] -= 1
        kinds["rank" if rank_of is not None else "other"] += 1
    return Misreads(**kinds)


@dataclass(frozen=True)
class Offered:
    """Whether the wrong reads' alternatives hold their true codes: ``wrong`` reads, ``paired``
    of them standing for a missed card, and of those, how many have its code among their top
    2, top 3 and all their alternatives (``within``); the same on the photos with one wrong
    read and one card missed, where the pair is sure (``sole``, ``sole_top2``, ``sole_top3``);
    ``most``, the largest sum of a read's confidence and its alternatives' probabilities."""

    wrong: int = 0
    paired: int = 0
    top2: int = 0
    top3: int = 0
    within: int = 0
    sole: int = 0
    sole_top2: int = 0
    sole_top3: int = 0
    most: float = 0.0

    def __add__(self, other: Offered) -> Offered:
        counts = {f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        return Offered(**{**counts, "most": max(self.most, other.most)})

    def line(self, name: str) -> str:
        def share(n: int, of: int) -> str:
            return f"{n}/{of} ({n / max(1, of):.0%})"

        return (
            f"{name}: true code of a wrong read among its top 2 alternatives "
            f"{share(self.top2, self.paired)}, top 3 {share(self.top3, self.paired)}, any "
            f"{share(self.within, self.paired)} ({self.paired} of {self.wrong} wrong reads stand "
            f"for a missed card; with one wrong read and one card missed: top 2 "
            f"{share(self.sole_top2, self.sole)}, top 3 {share(self.sole_top3, self.sole)}); "
            f"read + alternatives at most {self.most:.4f}"
        )


def told_apart(
    detections: Detections, truth: Sequence[str], partly: Sequence[str] = ()
) -> tuple[list[int], list[int], Counter[str]]:
    """The rows of an image's wrong reads and of its reads of partly hidden cards, surest
    first, as ``doubts`` takes them (the surest reads of a code are its right ones), and the
    labelled cards no read gives."""
    left, partly_left = Counter(truth), Counter(partly)
    wrong, hidden = [], []
    for i in sorted(range(len(detections)), key=lambda i: -float(detections.confidence[i])):
        code = str(detections.cards[i])
        if left[code] > 0:
            left[code] -= 1
        elif partly_left[code] > 0:
            partly_left[code] -= 1
            hidden.append(i)
        else:
            wrong.append(i)
    return wrong, hidden, left


def offered(detections: Detections, truth: Sequence[str], partly: Sequence[str] = ()) -> Offered:
    """How the alternatives of one image's wrong reads hold their true codes. The wrong reads
    are those ``doubts`` counts (the surest reads of a code are its right ones); each is paired
    with a missed card as ``misreads`` pairs them (the same rank, then the same suit, then any),
    without looking at its alternatives."""
    wrong, _, left = told_apart(detections, truth, partly)
    missed = list(left.elements())
    sole = len(wrong) == len(missed) == 1
    hits = Counter[str]()
    for i in wrong:
        code = str(detections.cards[i])
        match = next(
            (m for m in missed if m[:-1] == code[:-1]),
            next((m for m in missed if m[-1] == code[-1]), missed[0] if missed else None),
        )
        if match is None:
            continue
        missed.remove(match)
        codes = [str(a.card) for a in detections.alternatives[i]]
        hits["paired"] += 1
        hits["top2"] += match in codes[:2]
        hits["top3"] += match in codes[:3]
        hits["within"] += match in codes
        hits["sole"] += sole
        hits["sole_top2"] += sole and match in codes[:2]
        hits["sole_top3"] += sole and match in codes[:3]
    sums = [
        float(c) + sum(a.probability for a in row)
        for c, row in zip(detections.confidence, detections.alternatives, strict=True)
    ]
    return Offered(len(wrong), most=max(sums, default=0.0), **hits)


def _red(code: str) -> bool:
    return code[-1] in "hd"


def stray_unread(codes: Sequence[str], truth: Sequence[str], stray: Sequence[str]) -> int:
    """The labelled ``stray`` cards (off the table, not in play) that no read gives: a silent
    error among them leaves the verdict as it is, and no ``missing`` count can report it. Of
    a code laid twice (two decks), one in play and one stray, a copy missed counts as the one
    in play."""
    laid = Counter(truth)
    short = laid - Counter(codes)
    return sum(max(0, short[code] - (laid[code] - n)) for code, n in Counter(stray).items())


def _codes(groups: Grouping) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The river's and the hands' card codes, as the labels write them."""
    river = tuple(str(seen.card) for seen in groups.river)
    return river, tuple(tuple(str(seen.card) for seen in hand) for hand in groups.hands)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("labels", type=Path)
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument(
        "--reader", default=str(DEFAULT_READER), help="second-stage reader model, or 'none'"
    )
    parser.add_argument("--face", default=str(DEFAULT_FACE), help="face reader model, or 'none'")
    parser.add_argument(
        "--outlines", default=str(DEFAULT_OUTLINES), help="outline model, or 'none'"
    )
    parser.add_argument(
        "--gate", default=str(DEFAULT_GATE), help="gate before the corner model, or 'none'"
    )
    parser.add_argument("--spots", default=str(DEFAULT_SPOTS), help="spot model, or 'none'")
    parser.add_argument(
        "--spots-only", action="store_true", help="read the spot model's frames alone"
    )
    parser.add_argument(
        "--second-look", default="yes", choices=("yes", "no"), help="look again where unsure"
    )
    parser.add_argument(
        "--reframe", default="yes", choices=("yes", "no"), help="frame doubtful reads again"
    )
    parser.add_argument(
        "--courts",
        default="no",
        choices=("yes", "no"),
        help="read an unsure court card's suit also from the pip beside its index and its "
        "other index corner (not the app's default)",
    )
    parser.add_argument("--source", default=None, help="only images whose source is this")
    parser.add_argument("--verbose", action="store_true", help="print every image's errors")
    parser.add_argument(
        "--no-expect", action="store_true", help="read table scenes without their layout"
    )
    parser.add_argument(
        "--decks", type=int, default=1, help="decks in play where the labels do not say"
    )
    parser.add_argument(
        "--light",
        type=light_argument,
        default=None,
        help="read every photo in this light: B,G,R gains, e.g. 0.3,0.35,1",
    )
    parser.add_argument(
        "--tilt",
        type=float,
        default=0.0,
        help="read every photo as seen this many degrees more steeply (its top receding)",
    )
    parser.add_argument(
        "--motion",
        type=motion_argument,
        default=0.0,
        help="read every photo smeared sideways by this share of its long side, e.g. 0.005 "
        "(a hand that moved while the shutter was open)",
    )
    parser.add_argument(
        "--webcam",
        type=webcam_argument,
        default=0,
        help="read every photo as a webcam streams it at this long side in pixels, e.g. 960: "
        "shrunk, softened, noisy and JPEG-compressed",
    )
    args = parser.parse_args(argv)
    if not -80.0 < args.tilt < 80.0:
        parser.error(f"--tilt takes degrees between -80 and 80: got {args.tilt}")

    entries = json.loads(args.labels.read_text())
    if args.source:
        entries = [e for e in entries if e.get("source") == args.source]
    try:
        detector = CardDetector(
            args.model,
            reader_path=None if args.reader == "none" else args.reader,
            face_path=None if args.face == "none" else args.face,
            outline_path=None if args.outlines == "none" else args.outlines,
            gate_path=None if args.gate == "none" else args.gate,
            spot_path=None if args.spots == "none" else args.spots,
            spots_only=args.spots_only,
            complete=args.second_look == "yes",
            reframe=args.reframe == "yes",
            courts=args.courts == "yes",
        )
    except CompanionError as error:
        print(f"evaluate: {error.message()}", file=sys.stderr)
        return 2
    total = Score(0, 0, 0)
    honesty = Doubts(0, 0, 0, 0, 0)
    silent_on_tables = 0  # of honesty.silent: on table scenes (read with their layout)
    silent_unanswerable = 0  # of those: tables whose grouping the labels cannot answer
    silent_stray = 0  # of honesty.silent: stray cards (off the table) not read at all
    by_source: dict[str, Score] = {}
    flags_by_source: dict[str, Doubts] = {}
    tables = exact = 0
    kinds = Misreads()
    alternatives = Offered()
    unread = unread_photos = unread_idle = 0  # faces, photos with some, photos missing none
    # Photos said to hold cards too small to read surely, and those read with no error, for the
    # photos said so and the others: whether the warning points at the photos read wrongly.
    small = Counter[str]()
    small_score = {"small": Score(0, 0, 0), "other": Score(0, 0, 0)}
    latency: dict[str, list[float]] = {}
    for entry in entries:
        image = cv2.imread(str(args.labels.parent / entry["image"]), cv2.IMREAD_COLOR)
        if image is not None and args.light is not None:
            image = in_light(image, args.light)
        if image is not None and args.tilt:
            image = tilted(image, args.tilt)
        if image is not None and args.motion:
            image = smeared(image, args.motion, 0.0)
        if image is not None and args.webcam:
            image = webcam(image, args.webcam)
        if image is None or min(image.shape[:2]) < MIN_IMAGE_SIDE:
            print(f"{entry['image']}: unreadable, counted as all missed")
            score = Score(0, 0, len(entry["cards"]))
        else:
            truth = entry.get("groups")
            expect = None
            if not args.no_expect:
                # A table whose grouping cannot be answered is still read with its layout.
                layout = entry.get("layout")
                expect = expect_of(truth) if truth else layout and parse_expect(layout)
            start = time.perf_counter()
            decks = int(entry.get("decks", args.decks))
            groups: Grouping | None = None
            if truth or expect:
                table = read_layout(detector, image, expect, decks)
                detections, groups = table.detections, table.grouping
            else:
                detections = detector.detect(image, decks=decks)
            elapsed = time.perf_counter() - start
            key = f"{image.shape[1]}x{image.shape[0]}"
            latency.setdefault(key, []).append(elapsed)
            codes = [str(card) for card in detections.cards]
            score = score_cards(codes, entry["cards"], entry.get("partly_hidden", []))
            kinds = kinds + misreads(codes, entry["cards"] + entry.get("partly_hidden", []))
            alternatives = alternatives + offered(
                detections, entry["cards"], entry.get("partly_hidden", [])
            )
            if truth and groups is not None:
                tables += 1
                ok = grouping_exact(groups, truth)
                exact += ok
                if args.verbose and not ok:
                    river, hands = _codes(groups)
                    stray = [str(seen.card) for seen in groups.stray]
                    print(f"  grouping {entry['image']}: river {river} hands {hands} stray {stray}")
            partly, hidden = entry.get("partly_hidden", []), int(entry.get("hidden", 0))
            found = doubts(
                detections, entry["cards"], groups, partly, hidden, entry.get("hidden_cards", ())
            )
            if len(detections.unread):
                unread += len(detections.unread)
                unread_photos += 1
                unread_idle += score.false_neg == 0
            honesty = honesty + found
            source = entry.get("source", "all")
            flags_by_source[source] = flags_by_source.get(source, Doubts(0, 0, 0, 0, 0)) + found
            said = "small" if detections.small_cards() else "other"
            small[said] += 1
            small[f"{said} right"] += not (score.false_pos or score.false_neg)
            small_score[said] = small_score[said] + score
            silent_on_tables += found.silent if groups is not None else 0
            silent_unanswerable += found.silent if groups is not None and not truth else 0
            silent_stray += min(
                found.silent, stray_unread(codes, entry["cards"], entry.get("stray", []))
            )
            if args.verbose and found.silent:
                print(f"  {entry['image']}: {found.silent} silent error(s)")
            if args.verbose and (score.false_pos or score.false_neg):
                extra = Counter(codes) - Counter(entry["cards"])
                missed = Counter(entry["cards"]) - Counter(codes)
                print(
                    f"  {entry['image']}: missed {sorted(missed.elements())} "
                    f"extra {sorted(extra.elements())}"
                )
        total = total + score
        source = entry.get("source", "all")
        by_source[source] = by_source.get(source, Score(0, 0, 0)) + score

    print(f"images: {len(entries)}  cards: {total.true_pos + total.false_neg}")
    print(f"precision {total.precision:.4f}  recall {total.recall:.4f}  F1 {total.f1:.4f}")
    for source, score in sorted(by_source.items()):
        print(
            f"  {source}: precision {score.precision:.4f}  recall {score.recall:.4f}  "
            f"F1 {score.f1:.4f}  ({score.true_pos} right, {score.false_pos} extra, "
            f"{score.false_neg} missed)"
        )
    if total.not_counted:
        print(
            f"  not counted: {total.not_counted} reads of partly hidden cards "
            "(index 50-90 % in view)"
        )
    if tables:
        how = "without" if args.no_expect else "with"
        print(
            f"grouping exact: {exact}/{tables} table scenes ({exact / tables:.2%}), "
            f"{how} their layout (--expect)"
        )
    print(flag_line("flags", honesty))
    print(
        f"wrong reads: {kinds.colour} of the other colour's suit, {kinds.suit} of the same "
        f"colour's ({kinds.courts} of these two on courts), {kinds.rank} of the rank, "
        f"{kinds.other} else"
    )
    if len(flags_by_source) > 1:
        for source, found in sorted(flags_by_source.items()):
            print(f"  {flag_line(source, found)}")
    print(alternatives.line("alternatives"))
    print(
        f"silent errors: {honesty.silent}  (wrong reads flagged: {honesty.wrong_flagged}/"
        f"{honesty.wrong}; right cards flagged: {honesty.right_flagged}/{honesty.right}"
        f" = {honesty.right_flagged / max(1, honesty.right):.1%})"
    )
    if honesty.silent:
        # Photos read without a layout have no missing count to report a missed card.
        print(
            f"  silent errors on table scenes: {silent_on_tables} ({silent_unanswerable} where "
            f"an index is hidden, read with their layout only); in loose photos: "
            f"{honesty.silent - silent_on_tables}; of all, stray cards (off the table, not in "
            f"play) not read: {silent_stray}"
        )
    if unread:
        print(
            f"unread card faces reported: {unread} on {unread_photos} photos "
            f"({unread_idle} of them with no card missed)"
        )
    if small["small"]:
        print(
            f"cards said too small to read surely (median width under {READABLE_WIDTH:.0f} px) "
            f"on {small['small']} of {small['small'] + small['other']} photos: "
            f"{small['small right']} of them read with no error (F1 "
            f"{small_score['small'].f1:.4f}, recall {small_score['small'].recall:.4f}), "
            f"{small['other right']} of the {small['other']} others (F1 "
            f"{small_score['other'].f1:.4f}, recall {small_score['other'].recall:.4f})"
        )
    for key, values in sorted(latency.items()):
        ms = np.array(values) * 1000
        print(
            f"latency {key}: p50 {np.median(ms):.0f} ms, p90 {np.percentile(ms, 90):.0f} ms, "
            f"max {ms.max():.0f} ms over {len(values)} images"
        )
    if latency:
        print(f"latency measured on: {describe_cpu()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
