"""``companion crib``: count a cribbage show, score a pegging card, or advise a discard.

    companion crib 4c 5d 6h Kc --starter 5s [--crib] [--json] [--lang en|fr]
    companion crib --photo IMG [--crib] [--json]  # hand in a row, the starter apart from it
    companion crib --batch FILE|- --json        # [{"hand", "starter", "crib"}] -> shows
    companion crib peg 5h 5d 5s [--end go]       # points for the last card of a count
    companion crib peg --batch FILE|- --json    # [[cards since the last reset]] -> points
    companion crib discard 5c 5d Jh Qs 4c 9h [--dealer]

"peg" and "discard" are read as the first of the positional words, which are cards otherwise.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.cli import _photo
from companion.cli._io import read_json_input
from companion.engine.cards import Card, parse_card, parse_cards
from companion.engine.cribbage.discard import DiscardAdvice, DiscardOption, advise_discard
from companion.engine.cribbage.score import Rule, ScoreItem, Show, score_peg, score_show
from companion.engine.cribbage.words import describe_advice, describe_peg, describe_show
from companion.errors import LANGUAGES, TableError
from companion.vision.layouts.cribbage import ShowPhoto, read_show

__all__ = ["register"]

MODES = ("peg", "discard")
_ENDS = {"go": Rule.GO, "last_card": Rule.LAST_CARD}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "crib",
        help="count a cribbage hand or crib, score pegging, advise a discard",
        description="Count a cribbage show with every combination listed; "
        "'crib peg ...' scores the last card of a count; 'crib discard ...' ranks discards.",
    )
    parser.add_argument(
        "cards",
        nargs="*",
        metavar="CARD",
        help="the 4 cards of the hand; or 'peg' then the count; or 'discard' then 6 dealt cards",
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
        "--end", choices=sorted(_ENDS), help="peg: the card also ends the count (go, last card)"
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
        raise TableError(
            f"give cards or --batch, not both ({given})",
            f"donnez des cartes ou --batch, pas les deux ({given})",
        )
    if mode == "peg":
        return _run_peg(args, words)
    if mode == "discard":
        return _run_discard(args, words)
    return _run_show(args, words)


# --- show ----------------------------------------------------------------------------------------


def _run_show(args: argparse.Namespace, words: list[str]) -> int:
    if args.photo is not None:
        return _run_photo(args, words)
    if args.batch is not None:
        shows = [_show_from_json(item, index) for index, item in _batch_items(args.batch)]
    else:
        if args.starter is None:
            raise TableError(
                "the starter is missing: add --starter CARD (e.g. --starter 5s)",
                "la carte de départ manque : ajoutez --starter CARTE (par ex. --starter 5s)",
            )
        hand = parse_cards(words, "the hand")
        starter = parse_card(args.starter, "--starter")
        shows = [score_show(hand, starter, crib=args.crib)]
    if args.json:
        results = [_show_json(show, args.lang) for show in shows]
        _print_json(results if args.batch is not None else results[0])
    else:
        print("\n\n".join("\n".join(describe_show(show, args.lang)) for show in shows))
    return 0


def _run_photo(args: argparse.Namespace, words: list[str]) -> int:
    others = [
        text
        for text, given in (
            (" ".join(words), words),
            ("--starter", args.starter),
            ("--batch", args.batch),
        )
        if given
    ]
    if others:
        raise TableError(
            f"--photo reads the cards itself: drop {', '.join(others)}",
            f"--photo lit les cartes lui-même : retirez {', '.join(others)}",
        )
    photo = read_show(_photo.read_photo(args.photo, args.model), str(args.photo))
    show = score_show(photo.cards, photo.starter.card, crib=args.crib)
    if args.json:
        _print_json({**_show_json(show, args.lang), "photo": _photo_json(args.photo, photo)})
    else:
        print(
            "\n".join([_photo_line(args.photo, photo, args.lang), *describe_show(show, args.lang)])
        )
    return 0


def _photo_line(path: Path, photo: ShowPhoto, lang: str) -> str:
    hand = " ".join(seen.card.pretty() for seen in photo.hand)
    starter = photo.starter.card.pretty()
    note = _photo.unsure_note(photo.seen, lang)
    if lang == "fr":
        return (
            f"{path} : main lue {hand}, carte de départ {starter} (la carte à part du rang){note}"
        )
    return f"{path}: read hand {hand}, starter {starter} (the card apart from the row){note}"


def _photo_json(path: Path, photo: ShowPhoto) -> dict[str, Any]:
    return {
        "image": str(path),
        "hand": [_photo.seen_json(seen) for seen in photo.hand],
        "starter": _photo.seen_json(photo.starter),
    }


def _show_from_json(item: object, index: int) -> Show:
    if not isinstance(item, dict) or "hand" not in item or "starter" not in item:
        raise _bad_item(index, 'an object {"hand": [4 cards], "starter": card, "crib": bool}')
    crib = item.get("crib", False)
    if not isinstance(crib, bool):
        raise _bad_item(index, '"crib" true or false')
    where = f"batch item {index}"
    hand = _read_cards(item["hand"], f"{where}, hand")
    starter = _read_cards(item["starter"], f"{where}, starter")
    if len(starter) != 1:
        raise _bad_item(index, "one starter card")
    return score_show(hand, starter[0], crib=crib)


def _show_json(show: Show, lang: str) -> dict[str, Any]:
    lines = describe_show(show, lang)
    return {
        "hand": [str(card) for card in show.hand],
        "starter": str(show.starter),
        "crib": show.crib,
        "total": show.total,
        "fifteens": show.fifteens,
        "pairs": show.pairs,
        "runs": show.runs,
        "flush": show.flush,
        "nobs": show.nobs,
        # describe_show gives a header, then one line per item, then the total.
        "items": [
            _item_json(item, line) for item, line in zip(show.items, lines[1:], strict=False)
        ],
    }


def _item_json(item: ScoreItem, text: str) -> dict[str, Any]:
    return {
        "rule": item.rule.value,
        "points": item.points,
        "cards": [str(card) for card in item.cards],
        "text": text,
    }


# --- pegging -------------------------------------------------------------------------------------


def _run_peg(args: argparse.Namespace, words: list[str]) -> int:
    if args.batch is not None:
        counts = [_count_from_json(item, index) for index, item in _batch_items(args.batch)]
    else:
        if not words:
            raise TableError(
                "give the cards played since the last reset, e.g. crib peg 5h 5d 5s",
                "donnez les cartes jouées depuis la dernière remise à zéro, ex. crib peg 5h 5d 5s",
            )
        end = _ENDS[args.end] if args.end else None
        counts = [(parse_cards(words, "the count"), end)]
    scored = [(cards, score_peg(cards, end)) for cards, end in counts]
    if args.json:
        results = [_peg_json(cards, items, args.lang) for cards, items in scored]
        _print_json(results if args.batch is not None else results[0])
    else:
        blocks = ["\n".join(describe_peg(cards, items, args.lang)) for cards, items in scored]
        print("\n\n".join(blocks))
    return 0


def _count_from_json(item: object, index: int) -> tuple[tuple[Card, ...], Rule | None]:
    where = f"batch item {index}"
    if isinstance(item, dict):
        end = item.get("end")
        if "cards" not in item or (end is not None and end not in _ENDS):
            raise _bad_item(index, 'a list of cards, or {"cards": [...], "end": "go"|"last_card"}')
        return _read_cards(item["cards"], where), _ENDS[end] if end else None
    return _read_cards(item, where), None


def _peg_json(cards: Sequence[Card], items: Sequence[ScoreItem], lang: str) -> dict[str, Any]:
    lines = describe_peg(cards, items, lang)
    return {
        "points": sum(item.points for item in items),
        "reasons": [_item_json(item, line) for item, line in zip(items, lines, strict=False)],
    }


# --- discard -------------------------------------------------------------------------------------


def _run_discard(args: argparse.Namespace, words: list[str]) -> int:
    if args.batch is not None:
        raise TableError(
            "crib discard takes the 6 dealt cards, not --batch",
            "crib discard prend les 6 cartes reçues, pas --batch",
        )
    advice = advise_discard(parse_cards(words, "the deal"), dealer=args.dealer)
    if args.json:
        _print_json(_advice_json(advice))
    else:
        print("\n".join(describe_advice(advice, args.lang, top=5)))
    return 0


def _advice_json(advice: DiscardAdvice) -> dict[str, Any]:
    def option(entry: DiscardOption) -> dict[str, Any]:
        return {
            "discard": [str(card) for card in entry.discard],
            "keep": [str(card) for card in entry.keep],
            "hand": float(entry.hand),
            "crib": float(entry.crib),
            "net": float(entry.net),
        }

    return {
        "dealt": [str(card) for card in advice.dealt],
        "dealer": advice.dealer,
        "by_net": [option(entry) for entry in advice.by_net],
        "by_hand": [option(entry) for entry in advice.by_hand],
    }


# --- shared --------------------------------------------------------------------------------------


def _batch_items(source: str) -> list[tuple[int, object]]:
    """The JSON array of a batch file (``-`` is stdin), numbered from 1 for messages."""
    data = read_json_input(source)
    if not isinstance(data, list):
        raise TableError(
            f"{source}: expected a JSON array", f"{source} : un tableau JSON est attendu"
        )
    return list(enumerate(data, start=1))


def _read_cards(value: object, where: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_cards(value, where)
    if isinstance(value, list):
        return parse_cards([item if isinstance(item, str) else repr(item) for item in value], where)
    raise TableError(
        f"{where}: expected cards, got {value!r}", f"{where} : cartes attendues, pas {value!r}"
    )


def _bad_item(index: int, expected: str) -> TableError:
    return TableError(
        f"batch item {index}: expected {expected}", f"élément {index} du lot : attendu {expected}"
    )


def _print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False))
