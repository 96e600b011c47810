from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.storage import Outcome, Record, SqliteGameLog, Streaks, VariantDifficulty
from companion.storage.stats import longest_streaks
from tests.storage.builders import heist, ticking_clock


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        ("", Streaks(0, 0, 0)),
        ("W", Streaks(1, 0, 1)),
        ("L", Streaks(0, 1, -1)),
        ("WWLWWWL", Streaks(3, 1, -1)),
        ("LLLWLL", Streaks(1, 3, -2)),
        ("WLWLWL", Streaks(1, 1, -1)),
    ],
)
def test_longest_streaks(results: str, expected: Streaks) -> None:
    assert longest_streaks([letter == "W" for letter in results]) == expected


def _longest_run(text: str, letter: str) -> int:
    other = "L" if letter == "W" else "W"
    return max(len(run) for run in text.split(other))


@given(st.text(alphabet="WL", max_size=40))
def test_streaks_match_the_longest_runs_of_letters(text: str) -> None:
    streaks = longest_streaks([letter == "W" for letter in text])
    assert streaks.longest_wins == _longest_run(text, "W")
    assert streaks.longest_losses == _longest_run(text, "L")
    tail = len(text) - len(text.rstrip(text[-1])) if text else 0
    assert streaks.current == (tail if text.endswith("W") else -tail)


def test_record_win_rate_ignores_abandoned_nights() -> None:
    record = Record().add(Outcome.WON).add(Outcome.LOST).add(Outcome.WON).add(Outcome.ABANDONED)
    assert (record.played, record.win_rate, record.abandoned) == (3, 2 / 3, 1)
    assert Record().win_rate is None


ABC = ("Ann", "Bob", "Cy")


def _night(log: SqliteGameLog, players: Sequence[str], variant: str, results: str) -> int:
    night = log.start_night(players, variant)
    for letter in results:
        log.save_heist(night.id, heist(letter == "V"))
    return night.id


def test_stats_over_a_season(tmp_path: Path) -> None:
    with SqliteGameLog(tmp_path / "log.sqlite3", clock=ticking_clock()) as log:
        _night(log, ABC, "classic", "VVV")  # won
        _night(log, ABC, "low", "AVAVV")  # won
        _night(log, ("Cy", "bob", "ANN"), "classic", "AAA")  # lost, same group
        _night(log, (*ABC, "Dee"), "low", "VVAAA")  # lost
        log.close_night(_night(log, ABC, "classic", "V"))  # abandoned
        _night(log, ABC, "two-of-four", "A")  # still open
        stats = log.stats()
    assert stats.overall == Record(won=2, lost=2, abandoned=1)
    assert dict(stats.by_variant) == {
        "classic": Record(won=1, lost=1, abandoned=1),
        "low": Record(won=1, lost=1),
    }
    assert dict(stats.by_group) == {
        ("ann", "bob", "cy"): Record(won=2, lost=1, abandoned=1),
        ("ann", "bob", "cy", "dee"): Record(lost=1),
    }
    assert dict(stats.group_names) == {
        ("ann", "bob", "cy"): ("Ann", "Bob", "Cy"),  # the abandoned night wrote them last
        ("ann", "bob", "cy", "dee"): ("Ann", "Bob", "Cy", "Dee"),
    }
    assert stats.night_streaks == Streaks(longest_wins=2, longest_losses=2, current=-2)
    # VVV AVAVV AAA VVAAA V A, in the order the nights began.
    assert stats.heist_streaks == Streaks(longest_wins=3, longest_losses=3, current=-1)
    assert stats.hardest_variants == (
        VariantDifficulty("two-of-four", 1, 0),
        VariantDifficulty("low", 10, 5),
        VariantDifficulty("classic", 7, 4),
    )


def test_undone_heists_leave_the_stats(tmp_path: Path) -> None:
    with SqliteGameLog(tmp_path / "log.sqlite3", clock=ticking_clock()) as log:
        night = _night(log, ABC, "classic", "AAA")
        assert log.stats().overall == Record(lost=1)
        log.undo_last_heist(night)
        stats = log.stats()
    assert stats.overall == Record()
    assert stats.hardest_variants == (VariantDifficulty("classic", 2, 0),)
