"""Exports of the game log: one JSON document, or two CSV tables (nights, heists).

Pure functions of the records; the caller decides where the text goes. Structured cells of
the CSV (players, hands, owners, tokens, failures, rules) hold JSON, so nothing is lost.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import BinaryIO

from companion.storage.figures import Judge, night_judging
from companion.storage.hands import sat_out
from companion.storage.model import Heist, Night, NightStatus, Preset, dump_json, thaw

__all__ = [
    "EXPORT_FORMAT",
    "CsvExport",
    "export_json",
    "export_csv",
    "judging_json",
    "NIGHT_COLUMNS",
    "HEIST_COLUMNS",
    "write_archive",
]

EXPORT_FORMAT = "companion-game-log/1"

NIGHT_COLUMNS = (
    "night",
    "created_at",
    "closed_at",
    "outcome",
    "variant",
    "players",
    "preset",
    "rules",
    "vaults",
    "alarms",
    "judging",
)
HEIST_COLUMNS = (
    "night",
    "heist",
    "saved_at",
    "river",
    "board2",
    "hands",
    "owners",
    "tokens",
    "vault_opens",
    "failures",
    "photo",
    "sat_out",
)

NightLog = tuple[NightStatus, Sequence[Heist]]


@dataclass(frozen=True)
class CsvExport:
    """The two CSV tables, as text (UTF-8 when written)."""

    nights: str
    heists: str


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _night_json(night: Night) -> dict[str, object]:
    return {
        "id": night.id,
        "players": list(night.players),
        "variant": night.variant,
        "rules": thaw(night.rules),
        "preset": night.preset,
        "created_at": _time(night.created_at),
        "closed_at": _time(night.closed_at),
        "outcome": night.outcome.value,
        "seats": dict(night.seats),  # degrees around the river's centre, {} if never asked
    }


def _heist_json(heist: Heist, players: Sequence[str]) -> dict[str, object]:
    return {
        "number": heist.number,
        "saved_at": _time(heist.saved_at),
        "river": list(heist.river),
        "board2": list(heist.board2) if heist.board2 is not None else None,
        "hands": thaw(heist.hands),
        "owners": thaw(heist.owners),
        "tokens": thaw(heist.tokens),
        "sat_out": list(sat_out(players, heist.owners)),
        "verdict": {"opens": heist.verdict.opens, "failures": thaw(heist.verdict.failures)},
        "photo": heist.photo,
        "deal": thaw(heist.deal) if heist.deal is not None else None,
    }


def judging_json(status: NightStatus, heists: Sequence[Heist], judge: Judge | None) -> object:
    """A night's judging figures by player and street (``figures.night_judging``), numbers to
    three decimals; None without a judge."""
    if judge is None:
        return None
    return {
        name: {
            street: {
                "judged": f.judged,
                "right": f.right,
                "distance": round(f.distance, 3),
                "lean": round(f.lean, 3),
            }
            for street, f in streets.items()
        }
        for name, streets in night_judging(status.night.players, heists, judge).items()
    }


def export_json(
    logs: Sequence[NightLog],
    presets: Sequence[Preset],
    exported_at: datetime,
    judge: Judge | None = None,
) -> str:
    """One JSON document holding the nights, each with its heists and, given a judge, each
    player's judging figures, and the presets."""
    document = {
        "format": EXPORT_FORMAT,
        "exported_at": _time(exported_at),
        "nights": [
            {
                **_night_json(status.night),
                "vaults": status.vaults,
                "alarms": status.alarms,
                "judging": judging_json(status, heists, judge),
                "heists": [_heist_json(heist, status.night.players) for heist in heists],
            }
            for status, heists in logs
        ],
        "presets": [
            {"name": p.name, "rules": thaw(p.rules), "saved_at": _time(p.saved_at)} for p in presets
        ],
    }
    return json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False)


def _cell(value: object) -> object:
    # A spreadsheet would run text starting with these as a formula: keep it text.
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _table(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([[_cell(value) for value in row] for row in rows])
    return out.getvalue()


def export_csv(logs: Sequence[NightLog], judge: Judge | None = None) -> CsvExport:
    """A row per night and a row per heist; cards are space-separated, structures are JSON
    (a night's ``judging``: its players' figures, empty without a judge)."""
    night_rows = []
    heist_rows = []
    for status, heists in logs:
        night = status.night
        night_rows.append(
            (
                night.id,
                _time(night.created_at),
                _time(night.closed_at) or "",
                night.outcome.value,
                night.variant,
                dump_json(night.players),
                night.preset or "",
                dump_json(night.rules),
                status.vaults,
                status.alarms,
                "" if judge is None else dump_json(judging_json(status, heists, judge)),
            )
        )
        for heist in heists:
            heist_rows.append(
                (
                    night.id,
                    heist.number,
                    _time(heist.saved_at),
                    " ".join(heist.river),
                    " ".join(heist.board2) if heist.board2 is not None else "",
                    dump_json(heist.hands),
                    dump_json(heist.owners),
                    dump_json(heist.tokens),
                    int(heist.verdict.opens),
                    dump_json(heist.verdict.failures),
                    heist.photo or "",
                    dump_json(sat_out(night.players, heist.owners)),
                )
            )
    return CsvExport(_table(NIGHT_COLUMNS, night_rows), _table(HEIST_COLUMNS, heist_rows))


def write_archive(
    file: BinaryIO,
    document: str,
    tables: CsvExport,
    photos: Mapping[str, Path],
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """A zip of the JSON document, both CSV tables and the photos (``photos/<ref>.<ext>``);
    ``progress`` is told each photo written (how many so far, how many in all).

    Photos go in uncompressed: JPEG and PNG are compressed already.
    """
    with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("game-log.json", document)
        archive.writestr("nights.csv", tables.nights)
        archive.writestr("heists.csv", tables.heists)
        for done, (name, path) in enumerate(sorted(photos.items()), start=1):
            archive.write(path, f"photos/{name}", compress_type=zipfile.ZIP_STORED)
            if progress is not None:
                progress(done, len(photos))
