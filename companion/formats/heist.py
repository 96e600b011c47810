"""The heist JSON of ``companion analyze``: the tokens recorded street by street in, the
replay (each street's odds, best tokens and the token mistakes) out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.gang.replay.records import HandOdds, Method, Replay, StoodStreet, Street
from companion.engine.gang.replay.words import (
    best_tokens_text,
    method_text,
    mistake_text,
    stood_order_text,
    stood_token_lines,
)
from companion.errors import InputError, shortened
from companion.formats.table import tokens_from_json

__all__ = ["tokens_by_street_from_json", "replay_to_json"]


def tokens_by_street_from_json(raw: Any) -> dict[str, dict[str, int]]:
    """The recorded tokens per street; a final ``tokens`` object counts as the river's."""
    recorded = raw.get("tokens_by_street")
    if recorded is None:
        recorded = {}
    if not isinstance(recorded, Mapping):
        raise InputError("json.tokens_by_street_object")
    names = [s.value for s in Street]
    result: dict[str, dict[str, int]] = {}
    for street, tokens in recorded.items():
        if street not in names:
            raise InputError(
                "json.street_unknown", street=shortened(repr(street)), streets=tuple(names)
            )
        parsed = tokens_from_json(tokens)
        if parsed is not None:
            result[street] = parsed
    final = tokens_from_json(raw.get("tokens"))
    if final is not None:
        result.setdefault("river", final)
    return result


def _method_json(method: Method, lang: str) -> dict[str, Any]:
    return {
        "exact": method.exact,
        "count": method.count,
        "std_error": method.std_error,
        "seed": method.seed,
        "text": method_text(method, lang),
    }


def _odds_json(hand: HandOdds) -> dict[str, Any]:
    return {
        "id": hand.hand_id,
        "positions": list(hand.positions),
        "expected": hand.expected,
        "most_likely": hand.most_likely,
    }


def _stood_json(stood: StoodStreet, lang: str) -> dict[str, Any]:
    return {
        "hands": [
            {
                "id": h.hand.id,
                "category": h.hand.value.category.label,
                "cards": [str(c) for c in h.hand.value.best],
                "lowest": h.lowest,
                "highest": h.highest,
                "token": h.token,
                "fits": h.agrees,
                "should": h.should,
            }
            for h in stood.hands
        ],
        "text": stood_order_text(stood, lang),
        "tokens_text": list(stood_token_lines(stood, lang)),
    }


def replay_to_json(replay: Replay, lang: str = "en") -> dict[str, Any]:
    """The output object of ``companion analyze --json`` (see ``JSON_HELP``)."""
    streets = []
    stood_at = {s.street: s for s in replay.stood}
    for odds in replay.streets:
        item: dict[str, Any] = {"street": odds.street.value, "board": [str(c) for c in odds.board]}
        if odds.board2:
            item["board2"] = [str(c) for c in odds.board2]
        item["everyone"] = {
            "method": _method_json(odds.everyone[0].method, lang),
            "hands": [_odds_json(h) for h in odds.everyone],
        }
        item["own"] = {
            "hands": [{**_odds_json(h), "method": _method_json(h.method, lang)} for h in odds.own]
        }
        item["tokens"] = dict(odds.tokens) if odds.tokens is not None else None
        if odds.best is not None:
            item["best_tokens"] = {
                "tokens": dict(odds.best.tokens),
                "p_open": odds.best.p_open,
                "method": _method_json(odds.best.method, lang),
                "complete": odds.best.complete,
                "recorded_p_open": odds.best.recorded_p_open,
                "text": best_tokens_text(odds.best, lang),
            }
        if odds.street in stood_at:
            item["stood"] = _stood_json(stood_at[odds.street], lang)
        streets.append(item)
    mistakes = [
        {
            "street": m.street.value,
            "hand": m.hand_id,
            "token": m.token,
            "most_likely": m.most_likely,
            "p_most_likely": m.p_most_likely,
            "p_token": m.p_token,
            "own_p_token": m.own_p_token,
            "text": mistake_text(m, lang),
        }
        for m in replay.mistakes
    ]
    return {
        "hands": [{"id": h.id, "owner": h.owner} for h in replay.hands],
        "streets": streets,
        "mistakes": mistakes,
    }
