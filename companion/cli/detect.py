"""``companion detect IMG [IMG ...] [--json] [--annotate OUT_DIR]``: read the cards in photos.

One entry per image; an image that cannot be read gets an ``error`` entry and the batch goes on.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import ImageDecodeError
from companion.vision.detector import refuse_too_small

MESSAGES = {
    "en": {"none": "no cards found", "river": "river", "hands": "hands", "conf": "confidence"},
    "fr": {
        "none": "aucune carte trouvée",
        "river": "tableau",
        "hands": "mains",
        "conf": "confiance",
    },
}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("detect", help="read the cards in table photos")
    parser.add_argument("images", nargs="+", type=Path, metavar="IMG")
    parser.add_argument("--json", action="store_true", help="print a JSON array")
    parser.add_argument(
        "--annotate",
        type=Path,
        metavar="OUT_DIR",
        help="write each photo with the reads drawn on it",
    )
    parser.add_argument("--model", type=Path, default=None, help="ONNX model (default: shipped)")
    parser.add_argument("--lang", choices=("en", "fr"), default="en")
    parser.set_defaults(handler=run)


def load_image(path: Path) -> np.ndarray:
    """Decode ``path`` as a BGR image, or raise ``ImageDecodeError`` naming it."""
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as error:
        raise ImageDecodeError(str(path), error.strerror or "cannot open") from error
    if data.size == 0:
        raise ImageDecodeError(str(path), "empty file")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None:
        raise ImageDecodeError(str(path), "not an image format OpenCV can decode")
    return refuse_too_small(image, str(path))


def annotate(image: np.ndarray, read: Any) -> np.ndarray:
    """A copy of ``image`` with each card's outline and code drawn on it."""
    out = image.copy()
    thick = max(2, round(max(image.shape[:2]) / 600))
    for code, conf, quad in zip(
        read.detections.codes, read.detections.confidence, read.detections.quads, strict=True
    ):
        colour = (0, 200, 0) if conf >= 0.8 else (0, 200, 255)
        cv2.polylines(out, [quad.astype(np.int32)], True, colour, thick, cv2.LINE_AA)
        x, y = quad.mean(axis=0)
        cv2.putText(
            out,
            f"{code} {conf:.2f}",
            (int(x) - 20 * thick, int(y)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.6 * thick,
            (255, 0, 255),
            thick,
            cv2.LINE_AA,
        )
    return out


def run(args: argparse.Namespace) -> int:
    from companion.vision import CardDetector

    detector = CardDetector(args.model) if args.model else CardDetector()
    results: list[dict[str, Any]] = []
    for path in args.images:
        entry: dict[str, Any] = {"image": str(path)}
        try:
            image = load_image(path)
        except ImageDecodeError as error:
            entry["error"] = error.message(args.lang)
            entry["cards"] = []
            entry["groups"] = {"river": [], "hands": []}
            results.append(entry)
            continue
        read = detector.detect(image)
        det = read.detections
        entry["cards"] = [
            {
                "card": code,
                "confidence": round(float(conf), 3),
                "box": [round(float(v), 1) for v in box],
            }
            for code, conf, box in zip(det.codes, det.confidence, det.xyxy, strict=True)
        ]
        entry["groups"] = {
            "river": list(read.groups.river),
            "hands": [list(h) for h in read.groups.hands],
            "confidence": read.groups.confidence,
        }
        if args.annotate:
            args.annotate.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.annotate / f"{path.stem}_cards.jpg"), annotate(image, read))
        results.append(entry)
    if args.json:
        # One image per line: a valid JSON array that stays readable for long batches.
        lines = ",\n ".join(json.dumps(entry, ensure_ascii=False) for entry in results)
        print(f"[{lines}]")
    else:
        words = MESSAGES[args.lang]
        for entry in results:
            if "error" in entry:
                print(f"{entry['image']}: {entry['error']}")
            elif not entry["cards"]:
                print(f"{entry['image']}: {words['none']}")
            else:
                groups = entry["groups"]
                hands = " | ".join(" ".join(h) for h in groups["hands"])
                print(
                    f"{entry['image']}: {words['river']} {' '.join(groups['river'])}; "
                    f"{words['hands']} {hands} ({words['conf']} {groups['confidence']:.2f})"
                )
    return 0
