"""Measure the card reader on a labelled image set.

    python -m companion.vision.training.evaluate LABELS.json [--model models/card_corners.onnx]

``LABELS.json`` is a list of ``{"image", "cards", "groups"}`` (images relative to the file);
synthetic sets also list ``partly_hidden`` cards, which count neither way (``score_cards``).
Prints card-level precision, recall and F1 (multiset match per image), the exact-grouping rate
on table scenes (river and every hand right) and the latency per image size.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.vision.detector import CardDetector
from companion.vision.image import MIN_IMAGE_SIDE
from companion.vision.layouts.gang import Grouping, read_table
from companion.vision.sessions import DEFAULT_FACE, DEFAULT_MODEL, DEFAULT_READER

__all__ = ["Score", "score_cards", "grouping_exact", "main"]


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
    parser.add_argument("--source", default=None, help="only images whose source is this")
    parser.add_argument("--verbose", action="store_true", help="print every image's errors")
    args = parser.parse_args(argv)

    entries = json.loads(args.labels.read_text())
    if args.source:
        entries = [e for e in entries if e.get("source") == args.source]
    try:
        detector = CardDetector(
            args.model,
            reader_path=None if args.reader == "none" else args.reader,
            face_path=None if args.face == "none" else args.face,
        )
    except CompanionError as error:
        print(f"evaluate: {error.message()}", file=sys.stderr)
        return 2
    total = Score(0, 0, 0)
    by_source: dict[str, Score] = {}
    tables = exact = 0
    latency: dict[str, list[float]] = {}
    for entry in entries:
        image = cv2.imread(str(args.labels.parent / entry["image"]), cv2.IMREAD_COLOR)
        if image is None or min(image.shape[:2]) < MIN_IMAGE_SIDE:
            print(f"{entry['image']}: unreadable, counted as all missed")
            score = Score(0, 0, len(entry["cards"]))
        else:
            start = time.perf_counter()
            detections = detector.detect(image)
            elapsed = time.perf_counter() - start
            key = f"{image.shape[1]}x{image.shape[0]}"
            latency.setdefault(key, []).append(elapsed)
            codes = [str(card) for card in detections.cards]
            score = score_cards(codes, entry["cards"], entry.get("partly_hidden", []))
            if entry.get("groups"):
                tables += 1
                groups = read_table(detections)
                ok = grouping_exact(groups, entry["groups"])
                exact += ok
                if args.verbose and not ok:
                    river, hands = _codes(groups)
                    print(f"  grouping {entry['image']}: river {river} hands {hands}")
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
        print(f"grouping exact: {exact}/{tables} table scenes ({exact / tables:.2%})")
    for key, values in sorted(latency.items()):
        print(
            f"latency {key}: median {np.median(values) * 1000:.0f} ms, "
            f"max {np.max(values) * 1000:.0f} ms over {len(values)} images"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
