"""``companion log``: read the game log from a terminal (nights, stats) and export it.

companion log nights [--data DIR] [--lang fr]
companion log stats [--data DIR]                    (and how each player judged their hand)
companion log export json [--night N] [--out FILE]
companion log export csv --out DIR [--night N]      (writes nights.csv and heists.csv)
companion log export zip --out FILE [--night N]     (the JSON, both CSV tables and the photos)
companion log bgstats --night N [--out FILE]        (a won or lost night as a BG Stats play)
companion log image --heist N --out FILE.png        (heist N of the newest night, or of
                   [--night M]                       night M, as a picture to share)

``--data`` and ``--lang`` go before the action or after it (``companion log --data DIR
nights`` is the same command).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, BinaryIO

from companion.cli._io import bounded_int, write_bytes, write_whole
from companion.cli._out import write_json_text, write_lines
from companion.cli._progress import Progress
from companion.formats.judging import judge_deal
from companion.messages import text
from companion.messages.variants import variant_words
from companion.share.picture import heist_picture
from companion.storage import (
    InvalidRecordError,
    NotFoundError,
    PlayerJudging,
    SqliteGameLog,
    Stats,
)
from companion.storage.bgstats import create_play_link, night_play
from companion.storage.rows import heist_key
from companion.storage.stats import night_token_rule

__all__ = ["register"]

MAX_ID = 2**63 - 1  # SQLite's largest row id


def _rate(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.0f}%"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("log", help="game nights: list, stats, export")
    _shared_options(parser, None, "en")
    # The same options after the action too (``log nights --data DIR``); given there, they
    # win, and left out they keep what was given before the action.
    shared = argparse.ArgumentParser(add_help=False)
    _shared_options(shared, argparse.SUPPRESS, argparse.SUPPRESS)
    actions = parser.add_subparsers(dest="action", required=True)

    def action(name: str, help: str) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = actions.add_parser(name, help=help, parents=[shared])
        return made

    action("nights", "every game night, newest first")
    action("stats", "win rates, streaks, hardest variants")
    export = action("export", "a night or everything: JSON, CSV or zip")
    export.add_argument("format", choices=("json", "csv", "zip"))
    export.add_argument(
        "--night", type=bounded_int(1, MAX_ID), default=None, help="only this night"
    )
    export.add_argument("--out", type=Path, default=None, help="JSON file / CSV folder")
    bgstats = action("bgstats", "a won or lost night as a BG Stats play")
    bgstats.add_argument(
        "--night", type=bounded_int(1, MAX_ID), required=True, help="the night to push"
    )
    bgstats.add_argument("--out", type=Path, default=None, help="also write the play's JSON")
    image = action("image", "a heist as a PNG picture: photo, reads, verdict, reasons")
    image.add_argument(
        "--heist",
        type=bounded_int(1, MAX_ID),
        required=True,
        help="the heist's number in its night (1, 2, ...)",
    )
    image.add_argument(
        "--night", type=bounded_int(1, MAX_ID), default=None, help="the night (default: newest)"
    )
    image.add_argument("--out", type=Path, required=True, help="the PNG file to write")
    parser.set_defaults(handler=run)


def _shared_options(parser: argparse.ArgumentParser, data: Any, lang: Any) -> None:
    parser.add_argument("--data", type=Path, default=data, help="data folder (default: yours)")
    parser.add_argument("--lang", choices=("en", "fr"), default=lang)


def run(args: argparse.Namespace) -> int:
    """Read the log; damaged rows are named on standard error and the command exits 1."""
    lang = args.lang
    if args.action in ("export", "bgstats", "image") and args.out is not None:
        _check_out(getattr(args, "format", "png"), args.out)
    with SqliteGameLog.in_folder(args.data, for_reading=True) as log:
        if args.action == "nights":
            _print_nights(log, lang)
        elif args.action == "stats":
            _print_stats(log.stats(), lang)
            _print_judging(log.figures(judge_deal).players, lang)
        elif args.action == "bgstats":
            _bgstats(log, args.night, args.out, lang)
        elif args.action == "image":
            _image(log, args.heist, args.night, args.out, lang)
        else:
            _export(log, args, lang)
        damaged = log.damaged_records()
    write_lines((f"companion: {error.message(lang)}" for error in damaged), sys.stderr)
    return 1 if damaged else 0


def _check_out(format: str, out: Path) -> None:
    """Refuse an --out of the wrong kind before anything is read or written."""
    if format == "csv" and out.exists() and not out.is_dir():
        raise InvalidRecordError("log.out_is_file", field="--out", path=str(out))
    if format != "csv" and out.is_dir():
        raise InvalidRecordError(
            "log.out_is_folder", field="--out", path=str(out), format=format.upper()
        )


def _export(log: SqliteGameLog, args: argparse.Namespace, lang: str) -> None:
    if args.format == "json":
        document = log.export_json(args.night, judge_deal)
        if args.out is None:
            write_json_text(document)
        else:
            write_bytes(args.out, (document + "\n").encode("utf-8"))
            _say(lang, "wrote", path=args.out)
    elif args.format == "zip":
        if args.out is None:
            raise InvalidRecordError("log.zip_needs_file", field="--out")
        with Progress() as progress:

            def photos(n: int, total: int) -> None:
                progress.show(text("cli.zip_progress", lang, n=n, total=total), now=n == total)

            def archive(file: BinaryIO) -> int:
                return log.export_archive(file, args.night, photos, judge_deal)

            write_whole(args.out, archive)
        _say(lang, "wrote", path=args.out)
    else:
        if args.out is None:
            raise InvalidRecordError("log.csv_needs_folder", field="--out")
        tables = log.export_csv(args.night, judge_deal)
        args.out.mkdir(parents=True, exist_ok=True)
        for name, body in (("nights.csv", tables.nights), ("heists.csv", tables.heists)):
            write_bytes(args.out / name, body.encode("utf-8"))
            _say(lang, "wrote", path=args.out / name)


def _bgstats(log: SqliteGameLog, night: int, out: Path | None, lang: str) -> None:
    """The play's link to open on the phone; its JSON written to ``out`` when given."""
    play = night_play(log, night, lang, judge_deal)
    if out is not None:
        write_bytes(out, (json.dumps(play, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
        _say(lang, "wrote", path=out)
    write_lines([create_play_link(play)])


def _image(log: SqliteGameLog, number: int, night: int | None, out: Path, lang: str) -> None:
    """Heist ``number`` of ``night`` (the newest night when None) as a picture in ``out``;
    a photo gone from the data folder is said, and the picture drawn with the cards alone."""
    if night is None:
        nights = log.list_nights()  # newest first
        if not nights:
            raise InvalidRecordError("log.no_night_yet", field="--heist")
        night = nights[0].night.id
    found = [h for h in log.heists(night) if h.number == number]
    if not found:
        key = heist_key(night, number)
        damaged = [e for e in log.damaged_records() if e.params.get("key") == key]
        if damaged:
            raise damaged[0]
        raise InvalidRecordError("log.no_heist_number", field="--heist", n=number, night=night)
    heist = found[0]
    photo = None
    if heist.photo is not None:
        try:
            photo = log.photos.read(heist.photo)
        except NotFoundError as error:
            write_lines([f"companion: {error.message(lang)}"], sys.stderr)
    seating = log.night_status(heist.night_id).night.players  # each player's colour, as the app's
    write_bytes(out, heist_picture(heist, lang, photo, seating))
    _say(lang, "wrote", path=out)


def _say(lang: str, key: str, **params: object) -> None:
    write_lines([text(f"cli.log_{key}", lang, **params)])


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
            variant=variant_words(night.variant, night_token_rule(night)),
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
            variant=variant_words(item.variant, item.tokens),
            vaults=item.vaults,
            heists=item.heists,
            rate=rate,
        )


def _print_judging(players: Sequence[PlayerJudging], lang: str) -> None:
    """How far each player's final tokens lay from their hands' true ranks (History's figure)."""
    _say(lang, "judging")
    if not players:
        _say(lang, "no_judging")
    for player in players:  # a Judging's fields are the row's: judged, right, distance, lean
        _say(lang, "judging_row", name=player.player, **asdict(player.overall))
