"""What the shipped models read on a labelled photo set, as plain JSON, to compare runs.

    python -m companion.vision.training.snapshot LABELS.json --out reads.json
    python -m companion.vision.training.snapshot LABELS.json --against reads.json

Each photo is read twice: without a layout, and with the layout its labels give (table scenes);
a read keeps its cards, boxes (rounded to a pixel), doubts, and the grouping of the table. A
new version of OpenCV, onnxruntime or numpy, or a change to the reader, that changes any read
shows up as a difference (``--against`` prints each one and exits 1).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.vision.base.detections import Detections
from companion.vision.base.image import load_image
from companion.vision.detector import CardDetector
from companion.vision.layouts.expect import Expect
from companion.vision.layouts.gang import Grouping
from companion.vision.layouts.places import SeenCard
from companion.vision.layouts.read import read_layout
from companion.vision.training.evaluate import expect_of

__all__ = ["differences", "main", "snapshot"]

Snapshot = dict[str, Any]


def _reads(found: Detections) -> list[dict[str, Any]]:
    return [
        {
            "card": str(card),
            "box": [round(float(v)) for v in found.xyxy[i]],
            "check": bool(found.check[i]),
            "doubts": list(found.doubts[i]),
        }
        for i, card in enumerate(found.cards)
    ]


def _names(cards: Sequence[SeenCard]) -> list[str]:
    return [str(seen.card) for seen in cards]


def _grouping(groups: Grouping) -> dict[str, Any]:
    return {
        "river": _names(groups.river),
        "hands": [_names(hand) for hand in groups.hands],
        "stray": _names(groups.stray),
        "missing": None if groups.missing is None else groups.missing.to_json(),
        "extra": None if groups.extra is None else groups.extra.to_json(),
    }


def _read(detector: CardDetector, path: Path, expect: Expect | None) -> dict[str, Any]:
    table = read_layout(detector, load_image(path), expect)
    return {"reads": _reads(table.detections), "grouping": _grouping(table.grouping)}


def snapshot(labels: Path, detector: CardDetector | None = None) -> Snapshot:
    """Every photo of ``labels`` read without and (table scenes) with its layout."""
    detector = detector or CardDetector()
    out: Snapshot = {}
    for entry in json.loads(labels.read_text()):
        path = labels.parent / entry["image"]
        groups = entry.get("groups")
        out[entry["image"]] = {
            "free": _read(detector, path, None),
            "told": _read(detector, path, expect_of(groups)) if groups else None,
        }
    return out


def differences(old: Snapshot, new: Snapshot) -> list[str]:
    """One line per photo and reading whose result changed between ``old`` and ``new``."""
    lines = []
    for image in sorted(set(old) | set(new)):
        for how in ("free", "told"):
            before = (old.get(image) or {}).get(how)
            after = (new.get(image) or {}).get(how)
            if before != after:
                lines.append(f"{image} ({how}): {json.dumps(before)} -> {json.dumps(after)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("labels", type=Path)
    parser.add_argument("--out", type=Path, help="write the snapshot here")
    parser.add_argument("--against", type=Path, help="compare with a snapshot written before")
    args = parser.parse_args(argv)
    new = snapshot(args.labels)
    if args.out:
        args.out.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
    if args.against:
        changed = differences(json.loads(args.against.read_text()), new)
        for line in changed:
            print(line)
        print(f"{len(changed)} reads changed of {2 * len(new)}")
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
