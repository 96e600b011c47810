"""``companion detect IMG [IMG ...] [--json] [--expect R+NxK] [--decks 2] [--annotate OUT_DIR]``:
read the cards in photos.

One entry per image; an image that cannot be read gets an ``error`` entry and the batch goes on
(every good image is printed, and the command exits 1).
Each card has ``check`` (true: the reader is not sure of it, a player should look), ``doubts``
(why: ``unsure``, ``colour``, ``models``, ``second_look``, ``twice``), ``alternatives`` (its
next likely codes, likeliest first, each with its probability ``p``) and the crops it was read
from (``index_quad``, ``face_quad``: four corners in image pixels from the crop's top left,
null where unknown); ``groups`` has the river, the hands, ``stray`` (cards read but not in
play: cut by the photo's edge, or past the expected hands) and, with ``--expect``, ``missing``
and ``extra`` (cards short and over: the river, then each expected hand) and ``gaps`` (per
place short of cards: ``hand``, null for the river, ``count`` and the ``places`` where they
should lie, ``x``, ``y`` and ``radius`` in image pixels with the ``quad`` they would have
there where known; no place: anywhere). ``unread`` lists the card faces seen where no card was
read (``box`` and ``quad``, image pixels): a card whose index the reader could not read, which
no count points at in a photo read without ``--expect``. ``card_width`` is the read cards'
median width in image pixels, and ``small_cards`` says it is under ``READABLE_WIDTH`` (50 px):
indices that small are often misread, so the photo should be taken closer. The plain text says
the same in words, with the two likeliest alternatives of each card to check.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2

from companion.cli._out import write_json_text, write_lines
from companion.errors import ImageDecodeError, InputError
from companion.messages import text
from companion.messages.numbers import numbers
from companion.vision.base.detections import READABLE_WIDTH, Detections
from companion.vision.base.image import load_image
from companion.vision.layouts.expect import parse_expect
from companion.vision.layouts.gang import Grouping
from companion.vision.layouts.gaps import Gap

# Alternatives the plain text gives per card to check (the JSON has them all).
SAID_ALTERNATIVES = 2


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "detect",
        help="read the cards in table photos",
        description="Read the cards in table photos. Each card read carries 'check' (true: "
        "not sure, look at it) and its 'doubts'; the groups give the river, the hands, 'stray' "
        "cards (not in play: cut by the photo's edge, or past the expected hands) and, with "
        "--expect, 'missing' and 'extra' counts per place; 'unread' lists the card faces seen "
        "where no card was read; 'small_cards' says the cards are too small in the photo "
        f"(median 'card_width' under {READABLE_WIDTH:.0f} px) to be read surely.",
    )
    parser.add_argument("images", nargs="+", type=Path, metavar="IMG")
    parser.add_argument("--json", action="store_true", help="print a JSON array")
    parser.add_argument(
        "--annotate",
        type=Path,
        metavar="OUT_DIR",
        help="write each photo with the reads drawn on it",
    )
    parser.add_argument(
        "--expect",
        metavar="R+NxK",
        default=None,
        help="what the table holds, e.g. 5+4x2 (a river of five, four hands of two; 5+0x2: a "
        "river only): the reader looks again where the read falls short (cards it adds there "
        "are to check) and reports groups.missing and groups.extra",
    )
    parser.add_argument(
        "--decks",
        type=int,
        choices=(1, 2),
        default=1,
        help="decks in play: with 2, a card may be read twice at two places; with 1 (default) "
        "a card is reported once, and a second read of it elsewhere makes it one to check",
    )
    parser.add_argument("--model", type=Path, default=None, help="ONNX model (default: shipped)")
    parser.add_argument("--lang", choices=("en", "fr"), default="en")
    parser.set_defaults(handler=run)


def _groups_json(groups: Grouping) -> dict[str, Any]:
    out: dict[str, Any] = {
        "river": [str(seen.card) for seen in groups.river],
        "hands": [[str(seen.card) for seen in hand] for hand in groups.hands],
        "stray": [str(seen.card) for seen in groups.stray],
        "confidence": groups.confidence,
    }
    if groups.missing is not None and groups.extra is not None:
        out["missing"] = groups.missing.to_json()
        out["extra"] = groups.extra.to_json()
        out["gaps"] = [_gap_json(gap) for gap in groups.gaps]
    return out


def _gap_json(gap: Gap) -> dict[str, Any]:
    return {
        "hand": gap.hand,
        "count": gap.count,
        "places": [
            {
                "x": round(place.x, 1),
                "y": round(place.y, 1),
                "radius": round(place.radius, 1),
                "quad": None if place.quad is None else _points(place.quad),
            }
            for place in gap.places
        ],
    }


def _points(quad: Any) -> list[list[float]] | None:
    """A quad's corners rounded to a tenth of a pixel; None where unknown (NaN)."""
    points = [[round(float(x), 1), round(float(y), 1)] for x, y in quad]
    return None if any(v != v for point in points for v in point) else points


def _cards_json(det: Detections) -> list[dict[str, Any]]:
    return [
        {
            "card": str(card),
            "confidence": round(float(det.confidence[i]), 3),
            "check": bool(det.check[i]),
            "doubts": list(det.doubts[i]),
            "box": [round(float(v), 1) for v in det.xyxy[i]],
            "alternatives": [
                {"card": str(a.card), "p": round(a.probability, 4)} for a in det.alternatives[i]
            ],
            "index_quad": _points(det.index_quads[i]),
            "face_quad": _points(det.face_quads[i]),
        }
        for i, card in enumerate(det.cards)
    ]


def _annotate_folder(folder: Path) -> None:
    """Make the ``--annotate`` folder now, before any image is read: a file of that name or a
    folder that cannot be made is said in one line, not found out after the first image."""
    if folder.exists() and not folder.is_dir():
        raise InputError("detect.annotate_not_folder", path=str(folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(
            "detect.annotate_unwritable", path=str(folder), reason=error.strerror or str(error)
        ) from None


def run(args: argparse.Namespace) -> int:
    from companion.vision import CardDetector, draw_reads
    from companion.vision.layouts.read import read_layout

    expect = parse_expect(args.expect) if args.expect is not None else None
    if args.annotate:
        _annotate_folder(args.annotate)
    detector = CardDetector(args.model) if args.model else CardDetector()
    results: list[dict[str, Any]] = []
    for path in args.images:
        entry: dict[str, Any] = {"image": str(path)}
        try:
            image = load_image(path)
        except ImageDecodeError as error:
            entry["error"] = error.message(args.lang)
            entry["cards"] = []
            entry["groups"] = {"river": [], "hands": [], "stray": []}
            entry["unread"] = []
            entry["card_width"] = None
            entry["small_cards"] = False
            results.append(entry)
            continue
        table = read_layout(detector, image, expect, args.decks)
        det, groups = table.detections, table.grouping
        entry["cards"] = _cards_json(det)
        entry["groups"] = _groups_json(groups)
        entry["unread"] = [
            {
                "box": [round(float(v), 1) for v in (*quad.min(axis=0), *quad.max(axis=0))],
                "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad],
            }
            for quad in det.unread
        ]
        width = det.card_width()
        entry["card_width"] = None if width is None else round(width, 1)
        entry["small_cards"] = det.small_cards()
        if args.annotate:
            target = args.annotate / f"{path.stem}_cards.jpg"
            if not cv2.imwrite(str(target), draw_reads(image, det)):
                # The reads are still good: say the picture was not written, and go on.
                entry["annotate_error"] = text(
                    "detect.annotate_unwritable", args.lang, path=str(target), reason="?"
                )
        results.append(entry)
    if args.json:
        # One image per line: a valid JSON array that stays readable for long batches.
        lines = ",\n ".join(json.dumps(entry, ensure_ascii=False) for entry in results)
        write_json_text(f"[{lines}]")
    else:
        write_lines(line for entry in results for line in _text_lines(entry, args.lang))
    # Every good photo is printed; the status still tells a script that one was not read.
    return 1 if any("error" in entry for entry in results) else 0


def _text_lines(entry: dict[str, Any], lang: str) -> list[str]:
    """The plain text of one image's entry."""
    if "error" in entry:
        return [entry["error"]]  # it names the file itself
    if not entry["cards"]:
        return [text("cli.detect_none", lang, image=entry["image"]), *_doubt_lines(entry, lang)]
    groups = entry["groups"]
    line = text(
        "cli.detect_line",
        lang,
        image=entry["image"],
        river=" ".join(groups["river"]),
        hands=" | ".join(" ".join(h) for h in groups["hands"]),
        confidence=groups["confidence"],
    )
    return [line, *_doubt_lines(entry, lang)]


def _doubt_lines(entry: dict[str, Any], lang: str) -> list[str]:
    """The plain text's words for what a player should look at: cards too small in the photo,
    cards to check, stray cards, card faces seen but not read, and cards missing or over
    against ``--expect``."""
    groups = entry["groups"]
    lines = []
    if entry["small_cards"]:
        lines.append(
            text("vision.detect_small", lang, px=round(entry["card_width"]), need=READABLE_WIDTH)
        )
    doubtful = [c for c in entry["cards"] if c["check"]]
    if doubtful:
        lines.append(text("vision.detect_check", lang, cards=" ".join(c["card"] for c in doubtful)))
        instead = [_instead(c, lang) for c in doubtful if c["alternatives"]]
        if instead:
            lines.append(
                text(
                    "vision.detect_alternatives",
                    lang,
                    reads=text("vision.detect_alternatives_join", lang).join(instead),
                )
            )
    if groups["stray"]:
        lines.append(text("vision.detect_stray", lang, cards=" ".join(groups["stray"])))
    if entry["unread"]:
        lines.append(text("vision.detect_unread", lang, n=len(entry["unread"])))
    for key, counts in (("vision.detect_missing", "missing"), ("vision.detect_extra", "extra")):
        fit = groups.get(counts)
        if fit and (fit["river"] or any(fit["hands"])):
            lines.append(text(key, lang, river=fit["river"], hands=sum(fit["hands"])))
    return lines


def _instead(card: dict[str, Any], lang: str) -> str:
    """A card to check and its likeliest alternatives: ``Kd → 8d 17% · Jd 0.3%``."""
    shown = numbers(lang)

    def likely(p: float) -> str:
        return shown.percent(p, 0 if p >= 0.1 else 1)

    said = card["alternatives"][:SAID_ALTERNATIVES]
    return f"{card['card']} → " + " · ".join(f"{a['card']} {likely(a['p'])}" for a in said)
