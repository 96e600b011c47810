"""Measure the back finder, or the back check, on a labelled image set, and the reads it
would remove.

    python -m companion.vision.training.back_eval cache/eval/1701/labels.json --reads
    python -m companion.vision.training.back_eval cache/eval/1701/labels.json \
        --check cache/bc/check2.onnx --cache cache/bc/reads/1701

Rendered sets written with ``scenes --backs`` label every back (``backs``, ``backs_shown``),
the face-down hands (``face_down``) and the face-up cards' outlines (``face_quads``): a back's
pixels in view are its outline less the later backs' and the face-up cards'. Counted:

- backs found: of the backs half in view or more, those with half their pixels in view or more
  inside the found backs' outlines; the same per face-down hand (its backs' pixels together);
- false backs: found backs with less than half of their outline on backs in view, and of those
  the ones lying mostly on face-up cards;
- with ``--reads``, the card reader's reads (as ``evaluate`` reads a table: with its layout)
  lying mostly on backs in view (phantoms), those ``backs.on_backs`` flags (removed), and the
  reads elsewhere it flags (faces that would be lost; none may be).

With ``--check MODEL``, the back check judges the reads instead (``backs.back_rows``: the
doubted reads, by the area round their index crop), and the reads are counted also by where
they were read: at a corner on backs in view (its index crop half or more on them), and at a
corner on a face-up card; ``--cache DIR`` keeps each photo's reads to judge them again.

A set without back labels (the real photos) counts the found backs per photo and the reads
they would remove; ``--draw DIR`` writes each photo with its found backs outlined. ``--told``
gives the finder the cards' width, as the reader will: the read cards' (``--reads``), else the
labelled face-up cards' (both the median of the outlines' shorter sides).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.bench.cpu import describe_cpu
from companion.vision.backs import (
    BACK_CHECK,
    BACK_LEVEL,
    DEFAULT_BACKS,
    ON_BACK,
    Back,
    BackCheck,
    BackModel,
    back_rows,
    find_backs,
    on_backs,
)
from companion.vision.layouts.expect import parse_expect
from companion.vision.layouts.read import read_layout
from companion.vision.training.evaluate import expect_of

if TYPE_CHECKING:
    from companion.vision.detector import CardDetector

__all__ = ["BackCount", "back_pixels", "card_width", "count_image", "main", "share_on"]

FOUND = 0.5  # the share of a back's pixels in view that found backs must cover
SHOWN = 0.5  # backs less in view than this count neither way


@dataclass
class BackCount:
    """Counts over photos; ``+`` adds them."""

    photos: int = 0
    backs: int = 0
    backs_found: int = 0
    hands: int = 0
    hands_found: int = 0
    found: int = 0
    false: int = 0
    false_on_faces: int = 0
    false_on_courts: int = 0
    photos_with_false: int = 0
    reads: int = 0
    phantoms: int = 0
    phantoms_removed: int = 0
    faces_removed: int = 0
    right_removed: int = 0
    read_on_backs: int = 0
    read_on_backs_removed: int = 0
    read_on_faces: int = 0
    read_on_faces_removed: int = 0

    def __add__(self, other: BackCount) -> BackCount:
        return BackCount(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


def back_pixels(entry: dict[str, Any], shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """An entry's backs in view, as an int32 map of each pixel's back (index + 1, 0 for none),
    and its face-up cards' pixels (uint8: 2 on a court card's, 1 on another's, where the
    labels give codes): the backs laid in order, the face-up cards over."""
    ids = np.zeros(shape, np.int32)
    for k, quad in enumerate(entry.get("backs", []), start=1):
        cv2.fillConvexPoly(ids, np.round(np.array(quad) * 16).astype(np.int32), k, shift=4)
    faces = np.zeros(shape, np.uint8)
    codes = entry.get("face_codes", [])
    for k, quad in enumerate(entry.get("face_quads", [])):
        court = k < len(codes) and codes[k][0] in "JQK"
        points = np.round(np.array(quad) * 16).astype(np.int32)
        cv2.fillConvexPoly(faces, points, 2 if court else 1, shift=4)
    ids[faces > 0] = 0
    return ids, faces


def _filled(backs: list[Back], shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    for back in backs:
        cv2.fillPoly(mask, [np.round(back.outline * 16).astype(np.int32)], 1, shift=4)
    return mask


def share_on(quads: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """For each outline of ``quads`` (N x 4 x 2), the share of its area on ``mask``'s pixels."""
    shares = np.zeros(len(quads))
    for i, quad in enumerate(np.asarray(quads, np.float64)):
        one = np.zeros(mask.shape, np.uint8)
        cv2.fillConvexPoly(one, np.round(quad * 16).astype(np.int32), 1, shift=4)
        shares[i] = float(np.sum(mask[one > 0] > 0)) / max(1, int(np.sum(one)))
    return shares


def count_image(
    entry: dict[str, Any],
    backs: list[Back],
    shape: tuple[int, int],
    reads: tuple[np.ndarray, list[str]] | None = None,
    removed: np.ndarray | None = None,
    index_quads: np.ndarray | None = None,
) -> BackCount:
    """One photo's counts: its labels ``entry``, the ``backs`` found, its ``shape`` and, where
    the reader read it, its ``reads``' outlines and codes; ``removed``: which reads the back
    check takes for backs (else those ``on_backs`` of the found backs)."""
    count = BackCount(photos=1, found=len(backs))
    ids, faces = back_pixels(entry, shape)
    found = _filled(backs, shape)
    shown = entry.get("backs_shown", [])
    for k in range(len(entry.get("backs", []))):
        pixels = ids == k + 1
        if shown[k] >= SHOWN and pixels.any():
            count.backs += 1
            count.backs_found += float(np.mean(found[pixels] > 0)) >= FOUND
    for hand in entry.get("face_down", {}).values():
        pixels = np.isin(ids, [k + 1 for k in hand])
        if pixels.any() and max(shown[k] for k in hand) >= SHOWN:
            count.hands += 1
            count.hands_found += float(np.mean(found[pixels] > 0)) >= FOUND
    for back in backs:
        one = _filled([back], shape) > 0
        if float(np.mean(ids[one] > 0)) < FOUND:
            count.false += 1
            count.false_on_faces += float(np.mean(faces[one] > 0)) >= FOUND
            count.false_on_courts += float(np.mean(faces[one] == 2)) >= FOUND
    count.photos_with_false = int(count.false > 0)
    if reads is not None and len(reads[0]):
        quads, codes = reads
        on_truth = share_on(quads, (ids > 0).astype(np.uint8)) >= ON_BACK
        if removed is None:
            removed = on_backs(quads, backs)
        count.reads = len(quads)
        count.phantoms = int(np.sum(on_truth))
        count.phantoms_removed = int(np.sum(on_truth & removed))
        count.faces_removed = int(np.sum(~on_truth & removed))
        lost = [code for code, k in zip(codes, ~on_truth & removed, strict=True) if k]
        count.right_removed = sum(code in entry["cards"] for code in lost)
        if index_quads is not None:  # where each read was read: its index crop
            known = np.isfinite(index_quads).all(axis=(1, 2))
            safe = np.where(known[:, None, None], index_quads, 0.0)
            read_on_backs = known & (share_on(safe, (ids > 0).astype(np.uint8)) >= ON_BACK)
            read_on_faces = known & (share_on(safe, (faces > 0).astype(np.uint8)) >= ON_BACK)
            count.read_on_backs = int(np.sum(read_on_backs))
            count.read_on_backs_removed = int(np.sum(read_on_backs & removed))
            count.read_on_faces = int(np.sum(read_on_faces))
            count.read_on_faces_removed = int(np.sum(read_on_faces & removed))
    return count


def card_width(quads: np.ndarray) -> float:
    """The median of the outlines' shorter sides, as ``Detections.card_width`` measures it."""
    edges = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    return float(np.median(np.minimum(edges[:, 0], edges[:, 1])))


def _read(
    detector: CardDetector, image: np.ndarray, entry: dict[str, Any]
) -> dict[str, np.ndarray]:
    """The reader's cards of one photo, read with its layout as ``evaluate`` reads it: their
    outlines, codes, doubts and index crops."""
    truth = entry.get("groups")
    layout = entry.get("layout")
    expect = expect_of(truth) if truth else layout and parse_expect(layout)
    cards = read_layout(detector, image, expect or None, int(entry.get("decks", 1))).detections
    return {
        "quads": np.asarray(cards.quads),
        "codes": np.array([str(c) for c in cards.cards], dtype=str),
        "check": np.asarray(cards.check),
        "index_quads": np.asarray(cards.index_quads),
    }


def _draw(image: np.ndarray, backs: list[Back], path: Path) -> None:
    out = image.copy()
    scale = 1600 / max(out.shape[:2])
    out = cv2.resize(out, None, fx=min(1.0, scale), fy=min(1.0, scale))
    for back in backs:
        pts = np.round(back.outline * min(1.0, scale)).astype(np.int32)
        cv2.polylines(out, [pts], True, (0, 255, 0), 3)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("labels", type=Path)
    parser.add_argument("--model", type=Path, default=DEFAULT_BACKS)
    parser.add_argument("--reads", action="store_true", help="read every photo with the reader")
    parser.add_argument("--draw", type=Path, default=None, help="write the photos, backs drawn")
    parser.add_argument("--verbose", action="store_true", help="a line per photo")
    parser.add_argument("--told", action="store_true", help="tell the finder the cards' width")
    parser.add_argument("--level", type=float, default=BACK_LEVEL, help="a back pixel from")
    parser.add_argument(
        "--check", type=Path, default=None, help="a back check model: judge the reads with it"
    )
    parser.add_argument("--check-level", type=float, default=BACK_CHECK, help="a back from")
    parser.add_argument(
        "--cache", type=Path, default=None, help="keep each photo's reads here, read them back"
    )
    args = parser.parse_args(argv)
    entries = json.loads(args.labels.read_text())
    check = None if args.check is None else BackCheck(args.check)
    model = BackModel(args.model) if check is None else None
    detector = None
    if args.reads or check is not None:
        from companion.vision.detector import CardDetector  # slow to load; only for the reads

        detector = CardDetector()
    total, by_source = BackCount(), dict[str, BackCount]()
    times: dict[str, list[float]] = {"backs": [], "read": []}
    for entry in entries:
        image = cv2.imread(str(args.labels.parent / entry["image"]), cv2.IMREAD_COLOR)
        if image is None:
            print(f"{entry['image']}: unreadable, skipped", file=sys.stderr)
            continue
        reads, width, removed = None, None, None
        kept: dict[str, np.ndarray] = {}
        if detector is not None:
            saved = None if args.cache is None else args.cache / f"{Path(entry['image']).stem}.npz"
            if saved is not None and saved.exists():
                kept = dict(np.load(saved))
            else:
                start = time.perf_counter()
                kept = _read(detector, image, entry)
                times["read"].append(time.perf_counter() - start)
                if saved is not None:
                    saved.parent.mkdir(parents=True, exist_ok=True)
                    np.savez(saved, allow_pickle=False, **kept)
            reads = (kept["quads"], [str(c) for c in kept["codes"]])
            width = card_width(reads[0]) if len(reads[0]) else None
        elif entry.get("face_quads"):
            width = card_width(np.array(entry["face_quads"]))
        start = time.perf_counter()
        backs: list[Back] = []
        if check is not None and kept:
            removed = back_rows(image, kept["check"], kept["index_quads"], check, args.check_level)
        elif model is not None:
            backs = find_backs(image, model, width if args.told else None, args.level)
        times["backs"].append(time.perf_counter() - start)
        index_quads = kept.get("index_quads")
        count = count_image(entry, backs, image.shape[:2], reads, removed, index_quads)
        if removed is not None and reads is not None and removed.any():
            gone = [code for code, k in zip(reads[1], removed, strict=True) if k]
            print(f"  {entry['image']}: removed {' '.join(gone)}")
        total = total + count
        source = str(entry.get("source", "all"))
        by_source[source] = by_source.get(source, BackCount()) + count
        missed = model is not None and count.backs_found < count.backs  # no finder: none found
        if args.verbose or count.false or count.faces_removed or missed:
            print(f"  {entry['image']}: {count}")
        if args.draw is not None:
            _draw(image, backs, args.draw / Path(entry["image"]).with_suffix(".png").name)
    print(f"CPU: {describe_cpu()}")
    for name, count in [("all", total), *sorted(by_source.items())]:
        print(f"{name}: {json.dumps(vars(count))}")
    t = total
    print(
        f"backs found {t.backs_found}/{t.backs}, face-down hands found {t.hands_found}/{t.hands}, "
        f"false backs {t.false} ({t.false_on_faces} on face-up cards, {t.false_on_courts} on "
        f"court cards) in {t.photos_with_false} "
        f"of {t.photos} photos; reads {t.reads}, on backs {t.phantoms}, of them removed "
        f"{t.phantoms_removed}; reads elsewhere removed {t.faces_removed} "
        f"({t.right_removed} right); read at a corner on backs {t.read_on_backs}, of them "
        f"removed {t.read_on_backs_removed}; read at a corner on a face {t.read_on_faces}, "
        f"of them removed {t.read_on_faces_removed}"
    )
    for name, values in times.items():
        if values:
            ms = 1000 * np.array(values)
            print(f"{name}: median {np.median(ms):.1f} ms, p90 {np.percentile(ms, 90):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
