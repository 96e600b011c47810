"""A doubt model measured against the reader's own flags: which cards a player should check,
decided from what the reader knows of each card (``Detections.clues``) rather than thresholds.

    python -m companion.vision.training.doubt_model --fit cache/eval/610/labels.json \\
        cache/eval/611/labels.json --judge cache/eval/782/labels.json ...

Every photo is read as ``evaluate`` reads it (a table told its labels' layout). Each card read
is right or wrong as ``evaluate.doubts`` takes it (the surest reads of a code are its right
ones). A logistic regression is fitted on the ``--fit`` sets, its level set to the highest
that flags every wrong read in play there, and the flags it would give are counted on each
``--judge`` set beside the reader's own, as ``evaluate`` counts them.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from companion.vision.base.detections import (
    CLUES,
    COLOUR,
    READABLE_WIDTH,
    SECOND_LOOK,
    TWICE,
    Detections,
)
from companion.vision.detector import CardDetector
from companion.vision.layouts.expect import parse_expect
from companion.vision.layouts.gang import Grouping
from companion.vision.layouts.read import read_layout
from companion.vision.training.evaluate import (
    Doubts,
    doubts,
    expect_of,
    flag_line,
    told_apart,
)

__all__ = [
    "FEATURES",
    "Photo",
    "features",
    "fit",
    "judge",
    "level_of",
    "main",
    "scores",
    "wrong_reads",
]

FEATURES = (
    "confidence",  # log-odds
    *(c for c in CLUES if c != "width"),
    "ink_unknown",
    "log_width",
    "small",
    COLOUR,
    SECOND_LOOK,
    TWICE,
    "stray",
)
L2 = 1.0


@dataclass(frozen=True)
class Photo:
    """One labelled photo as read: its cards, grouping and labels."""

    detections: Detections
    groups: Grouping | None
    truth: list[str]
    partly: list[str]
    hidden: int
    hidden_cards: list[str]


def features(detections: Detections, groups: Grouping | None) -> np.ndarray:
    """(N, len(FEATURES)) what the reader knows of each card, unknown clues as 0."""
    n = len(detections)
    conf = np.clip(detections.confidence.astype(np.float64), 1e-4, 1 - 1e-4)
    clues = detections.clues.astype(np.float64)
    named = {c: clues[:, k] for k, c in enumerate(CLUES)}
    width = named.pop("width")
    stray = {seen.index for seen in groups.stray} if groups is not None else set()
    columns = [
        np.log(conf / (1 - conf)),
        *named.values(),
        np.isnan(named["ink_against"]).astype(np.float64),
        np.log(np.nan_to_num(width, nan=READABLE_WIDTH * 2) + 1.0),
        (np.nan_to_num(width, nan=READABLE_WIDTH) < READABLE_WIDTH).astype(np.float64),
        *(
            np.array([d in row for row in detections.doubts], np.float64)
            for d in (COLOUR, SECOND_LOOK, TWICE)
        ),
        np.array([i in stray for i in range(n)], np.float64),
    ]
    return np.asarray(np.nan_to_num(np.stack(columns, axis=1).reshape(n, len(FEATURES))))


def wrong_reads(photo: Photo) -> tuple[np.ndarray, np.ndarray]:
    """(N,) whether each card is a wrong read and (N,) whether it counts either way, as
    ``evaluate.doubts`` takes them: a read of a partly hidden card is neither."""
    rows, hidden, _ = told_apart(photo.detections, photo.truth, photo.partly)
    wrong = np.zeros(len(photo.detections), bool)
    counted = np.ones(len(photo.detections), bool)
    wrong[rows], counted[hidden] = True, False
    return wrong, counted


def fit(x: np.ndarray, y: np.ndarray, steps: int = 50) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A logistic regression by Newton's steps: weights (with the intercept last), and the
    features' mean and spread it standardises by."""
    mean, spread = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = np.column_stack([(x - mean) / spread, np.ones(len(x))])
    w = np.zeros(z.shape[1])
    penalty = np.eye(z.shape[1]) * L2
    penalty[-1, -1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) + penalty @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + penalty
        w -= np.linalg.solve(hessian, gradient)
    return w, mean, spread


def scores(x: np.ndarray, model: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    w, mean, spread = model
    return np.asarray(np.column_stack([(x - mean) / spread, np.ones(len(x))]) @ w)


def level_of(score: np.ndarray, wrong: np.ndarray) -> float:
    """The highest level that flags every wrong read (a score at or above it is flagged)."""
    return float(score[wrong].min()) if wrong.any() else float("inf")


def judge(photos: list[Photo], flags: list[np.ndarray] | None) -> Doubts:
    """The photos' flags counted as ``evaluate`` counts them: the reader's own (None) or
    ``flags`` (one array per photo) in place of its ``check``."""
    total = Doubts(0, 0, 0, 0, 0)
    for k, photo in enumerate(photos):
        det = photo.detections
        if flags is not None:
            det = replace(det, check=flags[k])
        total = total + doubts(
            det, photo.truth, photo.groups, photo.partly, photo.hidden, photo.hidden_cards
        )
    return total


def read_set(labels: Path, detector: CardDetector) -> list[Photo]:
    """Every photo of a labelled set read as ``evaluate`` reads it, told its layout."""
    photos = []
    for entry in json.loads(labels.read_text()):
        image = cv2.imread(str(labels.parent / entry["image"]), cv2.IMREAD_COLOR)
        if image is None:
            continue
        truth, layout = entry.get("groups"), entry.get("layout")
        # A table whose grouping cannot be answered is still read with its layout.
        expect = expect_of(truth) if truth else layout and parse_expect(layout)
        decks = int(entry.get("decks", 1))
        if truth or expect:
            table = read_layout(detector, image, expect, decks)
            det, groups = table.detections, table.grouping
        else:
            det, groups = detector.detect(image, decks=decks), None
        photos.append(
            Photo(
                det,
                groups,
                entry["cards"],
                entry.get("partly_hidden", []),
                int(entry.get("hidden", 0)),
                entry.get("hidden_cards", []),
            )
        )
    return photos


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fit", type=Path, nargs="+", required=True)
    parser.add_argument("--judge", type=Path, nargs="+", required=True)
    args = parser.parse_args(argv)
    detector = CardDetector(clues=True)
    sets = {labels: read_set(labels, detector) for labels in (*args.fit, *args.judge)}
    fitted = [p for labels in args.fit for p in sets[labels]]
    x = np.concatenate([features(p.detections, p.groups) for p in fitted])
    marks = [wrong_reads(p) for p in fitted]
    wrong = np.concatenate([w for w, _ in marks])
    counted = np.concatenate([c for _, c in marks])
    model = fit(x[counted], wrong[counted].astype(np.float64))
    in_play = x[:, FEATURES.index("stray")] == 0
    level = level_of(scores(x, model), wrong & in_play)
    for name, weight in zip((*FEATURES, "intercept"), model[0], strict=True):
        print(f"  weight {name}: {weight:+.3f}")
    print(f"level {level:.3f} (fit sets: {int((wrong & in_play).sum())} wrong reads in play)")
    for labels, photos in sets.items():
        flags = [scores(features(p.detections, p.groups), model) >= level for p in photos]
        print(flag_line(f"{labels.parent.name} reader", judge(photos, None)))
        print(flag_line(f"{labels.parent.name} model ", judge(photos, flags)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
