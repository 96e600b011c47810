"""``companion log``: read the game log from a terminal (nights, stats) and export it.

companion log nights [--data DIR] [--lang fr]
companion log stats [--data DIR]
companion log export json [--night N] [--out FILE]
companion log export csv --out DIR [--night N]      (writes nights.csv and heists.csv)
companion log bgstats --night N [--out FILE]        (a won or lost night as a BG Stats play)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.messages import named, text
from companion.storage import InvalidRecordError, SqliteGameLog, Stats
from companion.storage.bgstats import create_play_link, night_play

__all__ = ["register"]


def _rate(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.0f}%"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("log", help="game nights: list, stats, export")
    parser.add_argument("--data", type=Path, default=None, help="data folder (default: yours)")
    parser.add_argument("--lang", choices=("en", "fr"), default="en")
    actions = parser.add_subparsers(dest="action", required=True)
    actions.add_parser("nights", help="every game night, newest first")
    actions.add_parser("stats", help="win rates, streaks, hardest variants")
    export = actions.add_parser("export", help="a night or everything: JSON, CSV or zip")
    export.add_argument("format", choices=("json", "csv", "zip"))
    export.add_argument("--night", type=int, default=None, help="only this night")
    export.add_argument("--out", type=Path, default=None, help="JSON file / CSV folder")
    bgstats = actions.add_parser("bgstats", help="a won or lost night as a BG Stats play")
    bgstats.add_argument("--night", type=int, required=True, help="the night to push")
    bgstats.add_argument("--out", type=Path, default=None, help="also write the play's JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    with SqliteGameLog.in_folder(args.data) as log:
        if args.action == "nights":
            _print_nights(log, lang)
        elif args.action == "stats":
            _print_stats(log.stats(), lang)
        elif args.action == "bgstats":
            _bgstats(log, args.night, args.out, lang)
        elif args.format == "json":
            document = log.export_json(args.night)
            if args.out is None:
                print(document)
            else:
                args.out.write_text(document + "\n", encoding="utf-8")
                _say(lang, "wrote", path=args.out)
        elif args.format == "zip":
            if args.out is None:
                raise InvalidRecordError("log.zip_needs_file", field="--out")
            with args.out.open("wb") as file:
                log.export_archive(file, args.night)
            _say(lang, "wrote", path=args.out)
        else:
            if args.out is None:
                raise InvalidRecordError("log.csv_needs_folder", field="--out")
            tables = log.export_csv(args.night)
            args.out.mkdir(parents=True, exist_ok=True)
            for name, body in (("nights.csv", tables.nights), ("heists.csv", tables.heists)):
                (args.out / name).write_text(body, encoding="utf-8", newline="")
                _say(lang, "wrote", path=args.out / name)
    return 0


def _bgstats(log: SqliteGameLog, night: int, out: Path | None, lang: str) -> None:
    """The play's link to open on the phone; its JSON written to ``out`` when given."""
    play = night_play(log, night, lang)
    if out is not None:
        out.write_text(json.dumps(play, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        _say(lang, "wrote", path=out)
    print(create_play_link(play))


def _say(lang: str, key: str, **params: object) -> None:
    print(text(f"cli.log_{key}", lang, **params))


def _print_nights(log: SqliteGameLog, lang: str) -> None:
    statuses = log.list_nights()
    if not statuses:
        _say(lang, "none")
    for status in statuses:
        night = status.night
        _say(
            lang,
            "line",
            id=night.id,
            date=night.created_at.astimezone().strftime("%Y-%m-%d %H:%M"),  # local time
            variant=named(f"variant.{night.variant}", night.variant),
            players=", ".join(night.players),
            vaults=status.vaults,
            alarms=status.alarms,
            outcome=text(f"log.outcome_{night.outcome.value}", lang),
        )


def _print_stats(stats: Stats, lang: str) -> None:
    overall = stats.overall
    won, lost, abandoned = overall.won, overall.lost, overall.abandoned
    _say(lang, "overall", won=won, lost=lost, abandoned=abandoned, rate=_rate(overall.win_rate))
    by_group = {", ".join(stats.group_names[key]): record for key, record in stats.by_group.items()}
    for title, table in (("variant", stats.by_variant), ("group", by_group)):
        _say(lang, title)
        for name, record in table.items():
            rate = _rate(record.win_rate)
            _say(lang, "row", name=name, won=record.won, lost=record.lost, rate=rate)
    nights, heists = stats.night_streaks, stats.heist_streaks
    _say(
        lang,
        "streaks",
        nights_won=nights.longest_wins,
        nights_lost=nights.longest_losses,
        vaults=heists.longest_wins,
        alarms=heists.longest_losses,
    )
    _say(lang, "hardest")
    for item in stats.hardest_variants:
        rate = _rate(item.vault_rate)
        _say(
            lang,
            "hard_row",
            variant=item.variant,
            vaults=item.vaults,
            heists=item.heists,
            rate=rate,
        )
