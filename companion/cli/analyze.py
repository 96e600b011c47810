"""``companion analyze``: replay a heist street by street and flag the biggest token mistakes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from companion.cli._io import read_json_input
from companion.cli._out import write_blocks, write_json, write_lines
from companion.cli._progress import on_terminal
from companion.cli.showdown import CARD_HELP, token_lines
from companion.engine.cards import format_cards
from companion.engine.gang.replay.limits import check_replayable
from companion.engine.gang.replay.odds import (
    Replay,
    Settings,
    Street,
    StreetOdds,
    replay_table,
    street_error,
    token_hands,
)
from companion.engine.gang.replay.records import StoodStreet
from companion.engine.gang.replay.words import (
    best_tokens_text,
    method_text,
    mistake_text,
    percent,
    stood_order_text,
    stood_token_lines,
    street_name,
    view_title,
)
from companion.engine.gang.showdown import check_tokens, form_hands
from companion.engine.gang.words import hand_label
from companion.errors import CompanionError, InputError
from companion.formats.heist import replay_to_json, tokens_by_street_from_json
from companion.formats.table import table_from_json
from companion.formats.token_moves import (
    checked_streets,
    merged_tokens,
    token_moves_from_json,
    tokens_with_moves,
)
from companion.messages import text

__all__ = ["register"]

JSON_HELP = """\
JSON output (one object per table; an array for an array of tables):
  {"hands": [{"id", "owner"}],
   "streets": [{"street": "preflop"|"flop"|"turn"|"river", "board": [cards known],
                "board2": [cards known of the second river] (two rivers only),
                "everyone": {"method": METHOD, "hands": [ODDS]},   knowing every hole card
                "own": {"hands": [ODDS + "method": METHOD]},        knowing only the hand's cards
                "tokens": {hand id: n} or null,
                "best_tokens": {"tokens": {hand id: n}, "p_open", "method": METHOD,
                                "complete": bool, "recorded_p_open": P or null, "text"},
                "stood": {"hands": [STOOD], "text", "tokens_text": [lines]}}],
   "mistakes": [{"street", "hand", "token", "most_likely", "p_most_likely", "p_token",
                 "own_p_token", "text"}]}   biggest first
  ODDS = {"id", "positions": [P(1), ..., P(N)], "expected", "most_likely"}; position 1 is the
  weakest (the first token), ties share their positions evenly.
  METHOD = {"exact": bool, "count": deals enumerated or samples drawn, "std_error": largest
  standard error of a probability (0 when exact), "seed": Monte Carlo seed or null, "text"}.
  best_tokens: knowing every hole card, the token assignment most likely to open the vault
  (revealed by token, no hand is weaker than one shown before it; ties either way) and that
  chance, p_open (its METHOD's std_error is p_open's); complete is false when the assignment is
  the best found but not proven best (too many tied final orders); recorded_p_open: the chance
  the tokens recorded at that street had, or null.
  stood: the hands as they stood at that street (pre-flop the hole cards alone, then with the
  river cards out; "on ne joue pas au potentiel"), weakest first, and the street's tokens judged
  by them. STOOD = {"id", "category", "cards": [the hand's cards], "lowest", "highest": the
  tokens that fit it (tied hands in any order), "token": n or null, "fits": bool,
  "should": the token it should have taken when its own does not fit, else null}.
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="replay a heist: each hand's chances of each final position, street by street",
        description="Read a table (same JSON as 'companion showdown', all hole cards revealed; "
        'optional "tokens_by_street": {"preflop": {...}, "flop": {...}, "turn": {...}, '
        '"river": {...}}) and print, for each street and hand, the exact chance of each final '
        "position over every way the river could have been completed from the unseen cards, "
        "and the chances given only that hand's own cards. The deck is 52 cards per deck plus "
        "every wild card seen at the table. Slow variants fall back to seeded Monte Carlo, "
        "with the sample count and standard error shown. Token mistakes are flagged when the "
        f"most likely position was at least 25 points likelier than the token taken. {CARD_HELP}",
        epilog=JSON_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="a JSON file, or - for standard input")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a report")
    parser.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the text")
    parser.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (default 0)")
    parser.add_argument(
        "--samples",
        type=int,
        default=Settings.samples,
        help=f"most Monte Carlo samples per answer (default {Settings.samples})",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=Settings.budget_s,
        help="seconds one answer may take on the general path before it samples "
        f"(default {Settings.budget_s})",
    )
    parser.set_defaults(handler=_run)


def _replay(
    raw: Any, settings: Settings, progress: Callable[[StreetOdds], None] | None = None
) -> Replay:
    table = table_from_json(raw)
    tokens = tokens_with_moves(table, raw, tokens_by_street_from_json(raw))
    return replay_table(table, tokens, settings, progress)


def _check(raw: Any, lang: str) -> list[str]:
    """Raise what ``_replay`` would raise on a wrong table or tokens, without replaying; the
    lines naming the table's token rule and its legal token moves."""
    table = table_from_json(raw)
    form_hands(table)
    check_replayable(table)
    recorded = tokens_by_street_from_json(raw)
    moves = checked_streets(table, token_moves_from_json(raw), recorded)
    for street, tokens in merged_tokens(recorded, moves).items():
        check_tokens(token_hands(table, Street(street), tokens), tokens)
    return token_lines(table, moves, lang)


def _progress(n: int, total: int, lang: str) -> Callable[[StreetOdds], None]:
    """A batch's progress on standard error output, one line per street (stdout is unchanged)."""

    def report(odds: StreetOdds) -> None:
        error = street_error(odds)
        line = text(
            "cli.analyze_progress" if error else "cli.analyze_progress_exact",
            lang,
            n=n,
            total=total,
            street=street_name(odds.street, lang),
            error=percent(error, lang, digits=2),
        )
        write_lines([line], sys.stderr)

    return report


def _line(words: str) -> str:
    """A report line under its street: indented, its first letter a capital."""
    return f"  {words[0].upper()}{words[1:]}"


def _stood_lines(stood: StoodStreet, lang: str) -> list[str]:
    """The street by the hands as they stood, and its tokens judged by them."""
    title = view_title("stood", lang)
    line = text("cli.analyze_stood_line", lang, title=title, order=stood_order_text(stood, lang))
    return [
        _line(line),
        *(f"    - {t}" for t in stood_token_lines(stood, lang)),
    ]


def _report(replay: Replay, lang: str) -> list[str]:
    labels = {h.id: hand_label(h.id, lang) for h in replay.hands}
    width = max(len(label) for label in labels.values())
    lines = []
    stood_at = {s.street: s for s in replay.stood}
    for odds in replay.streets:
        stood = stood_at.get(odds.street)
        board = format_cards(odds.board, pretty=True) or "—"
        if odds.board2:
            board += " / " + (format_cards(odds.board2, pretty=True) or "—")
        title = street_name(odds.street, lang).capitalize()
        lines.append(
            text(
                "cli.analyze_street",
                lang,
                street=title,
                board=board,
                method=method_text(odds.everyone[0].method, lang),
            )
        )
        # Positions among the street's hands (six-three-hands' pre-flop ranks four of six).
        header = " ".join(f"{k:>5}" for k in range(1, len(odds.everyone) + 1))
        extra = text("cli.analyze_columns", lang)
        lines.append(f"  {'':<{width}} {header}  {extra}")
        own = {h.hand_id: h for h in odds.own}
        for hand in odds.everyone:
            cells = " ".join(f"{percent(p, lang):>5}" for p in hand.positions)
            alone = own[hand.hand_id].most_likely
            token = odds.tokens.get(hand.hand_id, "") if odds.tokens else ""
            lines.append(
                f"  {labels[hand.hand_id]:<{width}} {cells}  {hand.expected:8.2f}  "
                f"{hand.most_likely:6}  {alone:5}  {token!s:>5}"
            )
        if odds.best is not None:
            best = best_tokens_text(odds.best, lang)
            title = view_title("odds", lang)
            line = text("cli.analyze_odds_line", lang, title=title, best=best)
            lines.append(_line(line))
        sampled = {h.method for h in odds.own if not h.method.exact}
        if sampled:
            method = max(sampled, key=lambda m: m.std_error)
            lines.append("  " + text("cli.analyze_alone", lang, method=method_text(method, lang)))
        if stood is not None:
            lines.extend(_stood_lines(stood, lang))
        lines.append("")
    if any(odds.tokens for odds in replay.streets):
        if replay.mistakes:
            lines.append(text("cli.analyze_mistakes", lang))
            lines.extend(f"  - {mistake_text(m, lang)}" for m in replay.mistakes)
        else:
            lines.append(text("cli.analyze_no_mistake", lang))
    while lines and not lines[-1]:
        lines.pop()
    return lines


MAX_SAMPLES = 1_000_000  # about 400 MB of deals on the numpy path; the default is 20,000
MAX_SEED = 2**32 - 1  # numpy's seeds are unsigned
MAX_BUDGET_S = 3600.0


def _check_limits(args: argparse.Namespace) -> None:
    """Refuse option values that cannot be honoured (a negative seed) or would exhaust the
    memory or the evening (a trillion samples), before any work starts."""
    if args.samples < 1 or not args.budget > 0:
        raise InputError("analyze.settings")
    if args.samples > MAX_SAMPLES:
        raise InputError("analyze.samples_limit", n=args.samples, limit=MAX_SAMPLES)
    if not 0 <= args.seed <= MAX_SEED:
        raise InputError("analyze.seed_range", seed=args.seed, limit=MAX_SEED)
    if not args.budget <= MAX_BUDGET_S:
        raise InputError("analyze.budget_limit", limit=int(MAX_BUDGET_S))


def _run(args: argparse.Namespace) -> int:
    _check_limits(args)
    settings = Settings(
        seed=args.seed,
        samples=args.samples,
        budget_s=args.budget,
        min_samples=min(Settings.min_samples, args.samples),
    )
    raw = read_json_input(args.file)
    batch = isinstance(raw, list)
    items = raw if batch else [raw]
    results = []
    headers = []
    # Every table is checked before any is replayed: a wrong one stops the batch at once, and
    # its error is the only line on stderr (no progress before it).
    for step in ("check", "replay"):
        for index, item in enumerate(items):
            try:
                if step == "check":
                    headers.append(_check(item, args.lang))
                else:
                    # A batch always says where it is; one table only to a person watching.
                    shown = batch or on_terminal(sys.stderr)
                    progress = _progress(index + 1, len(items), args.lang) if shown else None
                    results.append(_replay(item, settings, progress))
            except CompanionError as error:
                if not batch:
                    raise
                # In a batch, say which table is wrong.
                raise InputError("input.batch_table", n=index + 1, error=error.phrase) from None
    if args.json:
        out: Any = [replay_to_json(r, args.lang) for r in results]
        write_json(out if batch else out[0])
    else:
        write_blocks([*h, *_report(r, args.lang)] for h, r in zip(headers, results, strict=True))
    return 0
