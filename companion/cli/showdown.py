"""``companion showdown``: order the hands of a table and judge the vault."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from companion.cli._io import read_json_input
from companion.cli._out import write_blocks, write_json
from companion.engine.gang.showdown import Showdown, run_showdown
from companion.engine.gang.table import Table
from companion.engine.gang.tokens import TokenRule
from companion.engine.gang.words import describe, hand_label
from companion.errors import CompanionError, InputError
from companion.formats.table import showdown_to_json, table_from_json, tokens_from_json
from companion.formats.token_moves import (
    CheckedStreet,
    checked_streets,
    token_moves_from_json,
)
from companion.messages import text

__all__ = ["register", "CARD_HELP"]

CARD_HELP = (
    "Cards: ranks 2-9, T or 10, J Q K A (French R=roi, D=dame, V=valet also accepted), suits "
    "s h d c or ♠ ♥ ♦ ♣, case-insensitive, separated by spaces or commas; * is a wild card, "
    "*s *h *d *c are wild cards bound to a suit (tarot knights)."
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "showdown",
        help="order the hands of a table of The Gang and say whether the vault opens",
        description="Read a table (JSON object, or an array of them) and print each hand, the "
        "correct token order and, when tokens are given, the vault's verdict. " + CARD_HELP,
    )
    parser.add_argument("file", help="a JSON file, or - for standard input")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a report")
    parser.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the text")
    parser.set_defaults(handler=_run)


@dataclass(frozen=True)
class _Solved:
    """A table's showdown, its token rule and its streets' checked token moves."""

    result: Showdown
    table: Table
    moves: tuple[CheckedStreet, ...]


def _solve(raw: Any, index: int | None) -> _Solved:
    try:
        table = table_from_json(raw)
        tokens = tokens_from_json(raw.get("tokens"))
        recorded = {"river": tokens} if tokens is not None else {}
        moves = checked_streets(table, token_moves_from_json(raw), recorded)
        for street in moves:
            if tokens is None and street.street.value == "river":
                tokens = street.result.holdings
        return _Solved(run_showdown(table, tokens), table, moves)
    except CompanionError as error:
        if index is None:
            raise
        raise InputError("input.batch_table", n=index + 1, error=error.phrase) from None


def token_lines(table: Table, moves: tuple[CheckedStreet, ...], lang: str) -> list[str]:
    """The table's token rule when it is not the base one, and each street's legal moves."""
    rule = table.rules.tokens
    lines = []
    if rule is not TokenRule.BASE:
        lines.append(text("cli.token_rule", lang, explanation=rule.explanation))
    for street in moves:
        where = text(f"words.street.{street.street.value}", lang)
        name = rule.name_phrase
        lines.append(
            text("cli.token_moves_legal", lang, street=where, n=len(street.moves), rule=name)
        )
    return lines


def _json(solved: _Solved, lang: str) -> dict[str, Any]:
    out = showdown_to_json(solved.result, lang)
    if solved.table.rules.tokens is not TokenRule.BASE:
        out["token_rule"] = solved.table.rules.tokens.value
    if solved.moves:
        out["token_moves"] = {s.street.value: s.result.holdings for s in solved.moves}
    return out


def _report(solved: _Solved, lang: str) -> list[str]:
    result = solved.result
    lines = [*token_lines(solved.table, solved.moves, lang), text("cli.showdown_title", lang)]
    by_id = {h.id: h for h in result.hands}
    for position, group in enumerate(result.order, start=1):
        for hand_id in group:
            hand = by_id[hand_id]
            line = text(
                "cli.showdown_hand",
                lang,
                position=position,
                hand=hand_label(hand_id, lang),
                value=describe(hand.value, lang),
                best=hand.value.best,
            )
            lines.append(line + (text("cli.showdown_tie", lang) if len(group) > 1 else ""))
    if result.dog is not None:
        value = describe(result.dog, lang)
        lines.append(text("cli.showdown_dog", lang, value=value, best=result.dog.best))
    if result.verdict is not None:
        if result.verdict.opens:
            lines.append(text("cli.showdown_opens", lang))
        else:
            lines.append(text("cli.showdown_alarm", lang))
            for failure in result.verdict.failures:
                reason = failure.reason(lang)
                lines.append(text("cli.showdown_failure", lang, token=failure.token, reason=reason))
    return lines


def _run(args: argparse.Namespace) -> int:
    raw = read_json_input(args.file)
    batch = isinstance(raw, list)
    results = [_solve(item, i) for i, item in enumerate(raw)] if batch else [_solve(raw, None)]
    if args.json:
        documents = [_json(r, args.lang) for r in results]
        write_json(documents if batch else documents[0])
    else:
        write_blocks(_report(r, args.lang) for r in results)
    return 0
