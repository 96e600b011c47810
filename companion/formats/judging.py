"""A saved heist's token fits, from its deal (the JSON table the game log keeps) and tokens.

This is the judge the game log's stats and exports are given (``storage.figures.Judge``):
the log keeps JSON and never imports the engine, so the engine's order reaches it here.
A heist saved without a deal, or with one that no longer reads, is not judged (no fits); a
deal whose street-by-street tokens do not read is judged at the showdown only.

A saved heist never changes, and History judges every heist of the log each time it is read
again (a heist saved, a night closed): each deal is judged once per process (200 nights: 2 s
the first time, 0.2 s after; ``benchmarks/history_figures.py``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from companion.engine.gang.judging import TokenFit, token_fits
from companion.errors import CompanionError
from companion.formats.heist import tokens_by_street_from_json
from companion.formats.table import table_from_json
from companion.formats.token_moves import tokens_with_moves

__all__ = ["judge_deal"]


def judge_deal(deal: Mapping[str, Any] | None, tokens: Mapping[str, int]) -> tuple[TokenFit, ...]:
    """Each hand's final token against the showdown, then each street recorded in the deal
    (``tokens_by_street``, or the tokens its ``token_moves`` leave)."""
    if deal is None:
        return ()
    return _judged(json.dumps(_plain(deal)), json.dumps(dict(tokens)))


@functools.lru_cache(maxsize=8192)
def _judged(deal_text: str, tokens_text: str) -> tuple[TokenFit, ...]:
    raw, tokens = json.loads(deal_text), json.loads(tokens_text)
    try:
        table = table_from_json(raw)
        final = token_fits(table, tokens)
    except CompanionError:
        return ()
    try:
        streets = tokens_with_moves(table, raw, tokens_by_street_from_json(raw))
        return token_fits(table, tokens, streets) if streets else final
    except CompanionError:
        return final


def _plain(value: Any) -> Any:
    """The log's read-only JSON as plain dicts and lists, as the table format reads it."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value
