"""The token rule kept with each heist (issue #43): read back from the deal's rules, base for
heists and nights saved before token rules, and told apart in the hardest variants."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.cli import main
from companion.storage import HeistDraft, SqliteGameLog, VariantDifficulty
from companion.storage.stats import heist_token_rule, night_token_rule
from tests.storage.builders import heist, ticking_clock


def played(opens: bool, tokens: str | None) -> HeistDraft:
    """A heist whose deal carries the table's rules (as the app saves it), ``tokens`` or none."""
    rules = {"ranking": "high", "straights": "normal", "decks": 1}
    if tokens is not None:
        rules["tokens"] = tokens
    deal = {"variant": "classic", "rules": rules, "board": [], "players": []}
    return replace(heist(opens), deal=deal)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    with SqliteGameLog.in_folder(folder, clock=ticking_clock()) as log:
        base = log.start_night(("Ann", "Bob", "Cy"), "classic")
        for opens in (True, True, False):
            log.save_heist(base.id, played(opens, None))
        log.save_heist(base.id, heist(True))  # saved without a deal: base
        lsd = log.start_night(("Ann", "Bob", "Cy"), "classic", rules={"tokens": "lsd"})
        for opens in (False, False, True):
            log.save_heist(lsd.id, played(opens, "lsd"))
    return folder


def test_each_heist_keeps_its_token_rule_and_old_ones_read_as_base(data: Path) -> None:
    with SqliteGameLog.in_folder(data, for_reading=True) as log:
        nights = [status.night for status in log.list_nights()]
        assert [night_token_rule(n) for n in nights] == ["lsd", "base"]
        rules = [heist_token_rule(h) for n in reversed(nights) for h in log.heists(n.id)]
    assert rules == ["base", "base", "base", "base", "lsd", "lsd", "lsd"]


def test_hardest_variants_tell_the_token_rules_apart(data: Path) -> None:
    with SqliteGameLog.in_folder(data, for_reading=True) as log:
        hardest = log.stats().hardest_variants
    assert hardest == (
        VariantDifficulty("classic", 3, 1, "lsd"),
        VariantDifficulty("classic", 4, 3, "base"),
    )


def test_the_log_command_names_the_token_rule(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "--data", str(data), "nights"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "classic (LSD tokens)" in lines[0] and "LSD" not in lines[1]
    assert main(["log", "--data", str(data), "--lang", "fr", "stats"]) == 0
    out = capsys.readouterr().out
    assert "classique (jetons LSD)" in out and "1/3  (33%)" in out
