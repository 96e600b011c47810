"""The cribbage JSON of ``companion crib --batch`` and ``--json``: shows, pegging counts,
discard advice, the cut for the first deal. Errors name the batch item and what was expected there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine.cards import Card, parse_cards
from companion.engine.cribbage.cut import DealCut, first_dealer
from companion.engine.cribbage.discard import DiscardAdvice, DiscardOption
from companion.engine.cribbage.score import Rule, ScoreItem, Show, score_show
from companion.engine.cribbage.words import describe_peg, describe_show
from companion.errors import InputError, shortened
from companion.formats.reading import key_names
from companion.messages import Phrase, phrase

__all__ = [
    "PEG_ENDS",
    "cards_from_json",
    "show_from_json",
    "show_to_json",
    "count_from_json",
    "peg_to_json",
    "advice_to_json",
    "cut_to_json",
]

PEG_ENDS = {"go": Rule.GO, "last_card": Rule.LAST_CARD}
_SHOW_KEYS = frozenset({"hand", "starter", "crib"})
_COUNT_KEYS = frozenset({"cards", "end"})


def _bad_item(index: int, expected: str) -> InputError:
    return InputError("crib.batch_item", n=index, expected=phrase(f"crib.expected_{expected}"))


def cards_from_json(value: object, where: Phrase) -> tuple[Card, ...]:
    """Cards given as one string or a list of card strings."""
    if isinstance(value, str):
        return parse_cards(value, where)
    if isinstance(value, list):
        return parse_cards([item if isinstance(item, str) else repr(item) for item in value], where)
    raise InputError("crib.cards_expected", where=where, value=shortened(repr(value)))


def _known_keys(item: dict[str, Any], index: int, keys: frozenset[str]) -> None:
    """Refuse a key the batch format does not have (a misspelt "stater" is not ignored)."""
    unknown = set(item) - keys
    if unknown:
        raise InputError("crib.unknown_fields", n=index, fields=key_names(unknown))


def show_from_json(item: object, index: int) -> Show:
    """The show of batch item ``index`` (from 1): ``{"hand", "starter", "crib"}``."""
    if not isinstance(item, dict) or "hand" not in item or "starter" not in item:
        raise _bad_item(index, "show")
    _known_keys(item, index, _SHOW_KEYS)
    crib = item.get("crib", False)
    if not isinstance(crib, bool):
        raise _bad_item(index, "crib_flag")
    hand = cards_from_json(item["hand"], phrase("crib.item_hand", n=index))
    starter = cards_from_json(item["starter"], phrase("crib.item_starter", n=index))
    if len(starter) != 1:
        raise _bad_item(index, "one_starter")
    return score_show(hand, starter[0], crib=crib)


def _item_json(item: ScoreItem, text: str) -> dict[str, Any]:
    return {
        "rule": item.rule.value,
        "points": item.points,
        "cards": [str(card) for card in item.cards],
        "text": text,
    }


def show_to_json(show: Show, lang: str) -> dict[str, Any]:
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


def count_from_json(item: object, index: int) -> tuple[tuple[Card, ...], Rule | None]:
    """Batch item ``index`` of ``crib peg``: the cards of a count, and how it ends, if it does."""
    where = phrase("crib.item", n=index)
    if isinstance(item, dict):
        end = item.get("end")
        # A list or an object as ``end`` cannot be looked up (unhashable): refused as well.
        if "cards" not in item or (
            end is not None and (not isinstance(end, str) or end not in PEG_ENDS)
        ):
            raise _bad_item(index, "count")
        _known_keys(item, index, _COUNT_KEYS)
        return cards_from_json(item["cards"], where), PEG_ENDS[end] if end else None
    return cards_from_json(item, where), None


def peg_to_json(cards: Sequence[Card], items: Sequence[ScoreItem], lang: str) -> dict[str, Any]:
    lines = describe_peg(cards, items, lang)
    return {
        "points": sum(item.points for item in items),
        "reasons": [_item_json(item, line) for item, line in zip(items, lines, strict=False)],
    }


def advice_to_json(advice: DiscardAdvice) -> dict[str, Any]:
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


def cut_to_json(cuts: Sequence[DealCut]) -> dict[str, Any]:
    """Each cut's two cards and who it makes dealer (players 1 and 2; null: a tie), and the
    first dealer (null while the last cut is a tie)."""

    def player(dealer: int | None) -> int | None:
        return None if dealer is None else dealer + 1

    return {
        "cuts": [
            {"cards": [str(card) for card in cut.cards], "dealer": player(cut.dealer)}
            for cut in cuts
        ],
        "dealer": player(first_dealer(cuts)),
    }
