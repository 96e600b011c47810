"""``companion crib``: count a cribbage show, score a pegging card, or advise a discard.

    companion crib 4c 5d 6h Kc --starter 5s [--crib] [--json] [--lang en|fr]
    companion crib --photo IMG [--crib] [--json]  # hand in a row, the starter apart from it
    companion crib --batch FILE|- --json        # [{"hand", "starter", "crib"}] -> shows
    companion crib peg 5h 5d 5s [--end go]       # points for the last card of a count
    companion crib peg --batch FILE|- --json    # [[cards since the last reset]] -> points
    companion crib discard 5c 5d Jh Qs 4c 9h [--dealer]
    companion crib cut 7h 7d Kc Qs               # the cut for the first deal, two cards a cut

"peg", "discard" and "cut" are read as the first of the positional words, which are cards
otherwise.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.cli import _photo
from companion.cli._io import read_json_input
from companion.engine.cards import parse_card, parse_cards
from companion.engine.cribbage.cut import cut_for_deal
from companion.engine.cribbage.discard import advise_discard
from companion.engine.cribbage.score import score_peg, score_show
from companion.engine.cribbage.words import (
    describe_advice,
    describe_cut,
    describe_peg,
    describe_show,
)
from companion.errors import LANGUAGES, InputError
from companion.formats.crib import (
    PEG_ENDS,
    advice_to_json,
    count_from_json,
    cut_to_json,
    peg_to_json,
    show_from_json,
    show_to_json,
)
from companion.messages import phrase, text
from companion.vision.layouts.cribbage import ShowPhoto, read_show

__all__ = ["register"]

MODES = ("peg", "discard", "cut")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "crib",
        help="count a cribbage hand or crib, score pegging, advise a discard",
        description="Count a cribbage show with every combination listed; "
        "'crib peg ...' scores the last card of a count; 'crib discard ...' ranks discards; "
        "'crib cut ...' says who deals first from the cut (the lower card deals, ace low; "
        "a tie cuts again): player 1's card, then player 2's, for each cut.",
    )
    parser.add_argument(
        "cards",
        nargs="*",
        metavar="CARD",
        help="the 4 cards of the hand; or 'peg' then the count; or 'discard' then 6 dealt cards; "
        "or 'cut' then two cards a cut (player 1's, player 2's)",
    )
    parser.add_argument("--starter", metavar="CARD", help="the starter (cut) card")
    parser.add_argument("--crib", action="store_true", help="count as the crib (5-card flush only)")
    parser.add_argument("--batch", metavar="FILE", help="a JSON array to count; '-' reads stdin")
    parser.add_argument(
        "--photo",
        type=Path,
        metavar="IMG",
        help="read the show from a photo: the 4 hand cards side by side in a row, the starter "
        "apart from the row (e.g. above it, on the deck)",
    )
    parser.add_argument("--model", type=Path, metavar="ONNX", help=_photo.MODEL_HELP)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the text")
    parser.add_argument(
        "--end", choices=sorted(PEG_ENDS), help="peg: the card also ends the count (go, last card)"
    )
    parser.add_argument(
        "--dealer", action="store_true", help="discard: the crib is yours (default: theirs)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    words: list[str] = list(args.cards)
    mode = words[0].lower() if words and words[0].lower() in MODES else "show"
    if mode != "show":
        words = words[1:]
    if args.batch is not None and words:
        given = f"{' '.join(words)}, --batch {args.batch}"
        raise InputError("crib.cards_or_batch", given=given)
    if mode == "peg":
        return _run_peg(args, words)
    if mode == "discard":
        return _run_discard(args, words)
    if mode == "cut":
        return _run_cut(args, words)
    return _run_show(args, words)


# --- show ----------------------------------------------------------------------------------------


def _run_show(args: argparse.Namespace, words: list[str]) -> int:
    if args.photo is not None:
        return _run_photo(args, words)
    if args.batch is not None:
        shows = [show_from_json(item, index) for index, item in _batch_items(args.batch)]
    else:
        if args.starter is None:
            raise InputError("crib.starter_missing")
        hand = parse_cards(words, phrase("place.hand_cards"))
        starter = parse_card(args.starter, "--starter")
        shows = [score_show(hand, starter, crib=args.crib)]
    if args.json:
        results = [show_to_json(show, args.lang) for show in shows]
        _print_json(results if args.batch is not None else results[0])
    else:
        print("\n\n".join("\n".join(describe_show(show, args.lang)) for show in shows))
    return 0


def _run_photo(args: argparse.Namespace, words: list[str]) -> int:
    others = [
        option
        for option, given in (
            (" ".join(words), words),
            ("--starter", args.starter),
            ("--batch", args.batch),
        )
        if given
    ]
    if others:
        raise InputError("crib.photo_and_cards", options=tuple(others))
    photo = read_show(_photo.read_photo(args.photo, args.model), str(args.photo))
    show = score_show(photo.cards, photo.starter.card, crib=args.crib)
    if args.json:
        _print_json({**show_to_json(show, args.lang), "photo": _photo_json(args.photo, photo)})
    else:
        print(
            "\n".join([_photo_line(args.photo, photo, args.lang), *describe_show(show, args.lang)])
        )
    return 0


def _photo_line(path: Path, photo: ShowPhoto, lang: str) -> str:
    hand = " ".join(seen.card.pretty() for seen in photo.hand)
    starter = photo.starter.card.pretty()
    note = _photo.unsure_note(photo.seen, lang)
    return text("cli.crib_photo", lang, path=str(path), hand=hand, starter=starter) + note


def _photo_json(path: Path, photo: ShowPhoto) -> dict[str, Any]:
    return {
        "image": str(path),
        "hand": [_photo.seen_json(seen) for seen in photo.hand],
        "starter": _photo.seen_json(photo.starter),
    }


# --- pegging -------------------------------------------------------------------------------------


def _run_peg(args: argparse.Namespace, words: list[str]) -> int:
    if args.batch is not None:
        counts = [count_from_json(item, index) for index, item in _batch_items(args.batch)]
    else:
        if not words:
            raise InputError("crib.peg_cards_missing")
        end = PEG_ENDS[args.end] if args.end else None
        counts = [(parse_cards(words, phrase("place.count")), end)]
    scored = [(cards, score_peg(cards, end)) for cards, end in counts]
    if args.json:
        results = [peg_to_json(cards, items, args.lang) for cards, items in scored]
        _print_json(results if args.batch is not None else results[0])
    else:
        blocks = ["\n".join(describe_peg(cards, items, args.lang)) for cards, items in scored]
        print("\n\n".join(blocks))
    return 0


# --- discard -------------------------------------------------------------------------------------


def _run_discard(args: argparse.Namespace, words: list[str]) -> int:
    if args.batch is not None:
        raise InputError("crib.discard_batch")
    advice = advise_discard(parse_cards(words, phrase("place.deal")), dealer=args.dealer)
    if args.json:
        _print_json(advice_to_json(advice))
    else:
        print("\n".join(describe_advice(advice, args.lang, top=5)))
    return 0


# --- the cut for the first deal ------------------------------------------------------------------


def _run_cut(args: argparse.Namespace, words: list[str]) -> int:
    if args.batch is not None:
        raise InputError("crib.cut_batch")
    cuts = cut_for_deal(parse_cards(words, phrase("place.cut_cards")))
    if args.json:
        _print_json(cut_to_json(cuts))
    else:
        print("\n".join(describe_cut(cuts, args.lang)))
    return 0


# --- shared --------------------------------------------------------------------------------------


def _batch_items(source: str) -> list[tuple[int, object]]:
    """The JSON array of a batch file (``-`` is stdin), numbered from 1 for messages."""
    data = read_json_input(source)
    if not isinstance(data, list):
        raise InputError("crib.batch_array", source=source)
    return list(enumerate(data, start=1))


def _print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False))
