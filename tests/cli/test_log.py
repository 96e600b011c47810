from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.cli import main
from companion.storage import SqliteGameLog
from tests.storage.builders import heist, ticking_clock
from tests.storage.test_figures import HEIST_A, HEIST_B, TOKENS_A, TOKENS_B, draft


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    with SqliteGameLog.in_folder(folder, clock=ticking_clock()) as log:
        won = log.start_night(("Ann", "Bob", "Cy"), "classic")
        for result in "VAVV":
            log.save_heist(won.id, heist(result == "V"))
        open_ = log.start_night(("Ann", "Bob", "Cy"), "low")
        log.save_heist(open_.id, heist(False))
    return folder


def test_nights_lists_scores_in_both_languages(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "--data", str(data), "nights"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("#2") and "vaults 0, alarms 1" in lines[0] and "open" in lines[0]
    assert "Ann, Bob, Cy" in lines[1] and "vaults 3, alarms 1" in lines[1] and "won" in lines[1]
    assert main(["log", "--data", str(data), "--lang", "fr", "nights"]) == 0
    assert "coffres 3, alarmes 1  gagnée" in capsys.readouterr().out


def test_stats(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", "--data", str(data), "stats"]) == 0
    out = capsys.readouterr().out
    assert "nights won 1, lost 0, abandoned 0; win rate 100%" in out
    assert "3 vaults in a row" not in out and "2 vaults in a row, 1 alarm in a row" in out
    assert "low" in out and "0/1  (0%)" in out
    assert "Ann, Bob, Cy" in out


def test_export_json_and_csv(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "--data", str(data), "export", "json", "--night", "1"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [len(n["heists"]) for n in document["nights"]] == [4]
    out = tmp_path / "csv"
    assert main(["log", "--data", str(data), "export", "csv", "--out", str(out)]) == 0
    with (out / "heists.csv").open(newline="") as file:
        assert len(list(csv.DictReader(file))) == 5
    archive = tmp_path / "all.zip"
    assert main(["log", "--data", str(data), "export", "zip", "--out", str(archive)]) == 0
    with zipfile.ZipFile(archive) as opened:
        assert "game-log.json" in opened.namelist()


def test_csv_export_without_folder_is_one_line_error(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "--data", str(data), "export", "csv"]) == 2
    assert capsys.readouterr().err.strip() == "companion: --out: the CSV export needs a folder"


def test_damaged_log_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "companion.sqlite3").write_text("not a database")
    assert main(["log", "--data", str(tmp_path), "--lang", "fr", "nights"]) == 2
    assert "endommagé" in capsys.readouterr().err


def test_bgstats_prints_the_play_link_and_writes_its_json(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "play.json"
    assert main(["log", "--data", str(data), "bgstats", "--night", "1", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"wrote {out}"
    link = urlsplit(lines[1])
    assert (link.scheme, link.netloc, link.path) == (
        "https",
        "app.bgstatsapp.com",
        "/createPlay.html",
    )
    (data_param,) = parse_qs(link.query)["data"]
    play = json.loads(data_param)
    assert play == json.loads(out.read_text(encoding="utf-8"))
    assert play["game"]["bggId"] == 411567
    assert [(p["name"], p["winner"]) for p in play["players"]] == [
        ("Ann", True),
        ("Bob", True),
        ("Cy", True),
    ]
    assert play["comments"].endswith("3 vaults, 1 alarm")


@pytest.mark.parametrize(
    ("night", "said"),
    [
        (
            "2",
            "companion: game night 2 is not over yet: BG Stats records a night once it is won",
        ),
        ("9", "night 9"),
    ],
)
def test_bgstats_of_an_open_or_unknown_night_is_one_line_error(
    data: Path, capsys: pytest.CaptureFixture[str], night: str, said: str
) -> None:
    assert main(["log", "--data", str(data), "bgstats", "--night", night]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and said in err, err


def test_stats_print_each_players_judging_as_history_draws_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Heists A and B of ``tests/storage/test_figures`` (worked out by hand there): Ana -1 then
    0, Bob +2 then -1, Cy 0 then +1, Dee 0 (sitting out A)."""
    folder = tmp_path / "data"
    with SqliteGameLog.in_folder(folder, clock=ticking_clock()) as log:
        night = log.start_night(("Ana", "Bob", "Cy", "Dee"), "classic")
        log.save_heist(night.id, draft(HEIST_A, TOKENS_A))
        log.save_heist(night.id, draft(HEIST_B, TOKENS_B))
    assert main(["log", "--data", str(folder), "stats"]) == 0
    rows = capsys.readouterr().out.splitlines()
    judged = rows[rows.index(next(r for r in rows if r.startswith("how each player"))) + 1 :]
    assert [" ".join(row.split()) for row in judged] == [
        "Ana 1/2 tokens right, off by 0.50, lean -0.50",
        "Bob 0/2 tokens right, off by 1.50, lean +0.50",
        "Cy 1/2 tokens right, off by 0.50, lean +0.50",
        "Dee 1/1 token right, off by 0.00, lean +0.00",
    ]
    assert main(["log", "--data", str(folder), "--lang", "fr", "stats"]) == 0
    assert (
        "Bob              0/2 jetons justes, écart 1,50, penchant +0,50" in capsys.readouterr().out
    )


def test_stats_without_a_judged_heist_say_so(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "--data", str(data), "stats"]) == 0
    assert "no heist to judge yet" in capsys.readouterr().out
