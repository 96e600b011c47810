"""History's figures on real SQLite logs, against heists worked out by hand.

The judging's numbers here were computed on paper from the poker ranking (see each heist's
comment); the engine's judge (``formats.judging.judge_deal``) must give the same.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.engine.gang.showdown import run_showdown
from companion.formats.judging import judge_deal
from companion.formats.table import table_from_json
from companion.storage import HeistDraft, SqliteGameLog, Verdict
from companion.storage.figures import (
    Figures,
    Judging,
    NightScore,
    Success,
    compute_figures,
    miss,
)
from tests.storage.builders import ticking_clock

# Heist A (classic): Ana and Cy hold the same pair of sevens with the same kickers (tied, 2-3),
# Bob ace-high (1). Tokens Ana 1, Bob 3, Cy 2: Ana -1, Bob +2, Cy 0 (inside the tie). Dee sits
# out. Alarm (Bob's ace-high revealed after a pair).
HEIST_A = {
    "board": "2h 3d 9s Jc 4h",
    "players": [
        {"name": "Ana", "cards": "7s 7d"},
        {"name": "Bob", "cards": "As Kc"},
        {"name": "Cy", "cards": "7h 7c"},
    ],
}
TOKENS_A = {"Ana": 1, "Bob": 3, "Cy": 2}
# Heist B (classic, four players): Dee two pair 9-5 (1), Ana two pair A-5 (2), Cy the wheel (3),
# Bob kings full (4). Tokens Dee 1, Ana 2, Cy 4, Bob 3: Cy +1, Bob -1. Alarm.
# Pre-flop, as the hands stood (hole cards only): Cy 4-high (1), Ana ace-high (2), Dee 9s (3),
# Bob kings (4); recorded Ana 1, Bob 4, Cy 2, Dee 3: Ana -1, Cy +1, Bob 0, Dee 0.
HEIST_B = {
    "board": "Ah Kd 5s 5c 2d",
    "players": [
        {"name": "Ana", "cards": "As Qd"},
        {"name": "Bob", "cards": "Kh Kc"},
        {"name": "Cy", "cards": "3c 4c"},
        {"name": "Dee", "cards": "9h 9d"},
    ],
    "tokens_by_street": {"preflop": {"Ana": 1, "Bob": 4, "Cy": 2, "Dee": 3}},
}
TOKENS_B = {"Dee": 1, "Ana": 2, "Cy": 4, "Bob": 3}
# Heist C (four-two-hands: each player splits four cards into two hands, the stronger "/1",
# each its own token): Ana aces (/1) and 8-7 jack-high (/2); Bob the 2-6 straight with 5-6 (/1)
# and kings (/2). Order: Ana/2 (1), Bob/2 (2), Ana/1 (3), Bob/1 (4). Tokens 1, 2, 4, 3 for
# Ana/2, Bob/2, Ana/1, Bob/1: Ana/1 +1, Bob/1 -1 (alarm); ``TOKENS_C_RIGHT`` opens.
HEIST_C = {
    "variant": "four-two-hands",
    "board": "2h 3d 9s Jc 4h",
    "players": [{"name": "Ana", "cards": "As Ad 7c 8c"}, {"name": "Bob", "cards": "Ks Kd 5c 6d"}],
}
TOKENS_C = {"Ana/1": 4, "Ana/2": 1, "Bob/1": 3, "Bob/2": 2}
TOKENS_C_RIGHT = {"Ana/1": 3, "Ana/2": 1, "Bob/1": 4, "Bob/2": 2}


def draft(deal: Mapping[str, Any], tokens: Mapping[str, int]) -> HeistDraft:
    """The heist the app would save: the engine's verdict, every hand's cards and owner."""
    table = table_from_json(json.loads(json.dumps(deal)))
    result = run_showdown(table, tokens)
    assert result.verdict is not None
    cards = {p.name: tuple(str(c) for c in p.cards) for p in table.players}
    return HeistDraft(
        river=tuple(str(c) for c in table.board),
        hands={h.id: cards[h.owner] for h in result.hands},
        owners={h.id: h.owner for h in result.hands},
        tokens=tokens,
        verdict=Verdict(result.verdict.opens),
        deal=deal,
    )


def judging(misses: list[int]) -> Judging:
    """A figure from its misses, written out: count, fits, mean |miss|, mean miss."""
    n = len(misses)
    return Judging(n, misses.count(0), sum(abs(m) for m in misses) / n, sum(misses) / n)


def _log(tmp_path: Path, nights: list[tuple[tuple[str, ...], str, list[HeistDraft]]]) -> Figures:
    with SqliteGameLog(tmp_path / "log.sqlite3", clock=ticking_clock()) as log:
        for players, variant, heists in nights:
            night = log.start_night(players, variant)
            for heist in heists:
                log.save_heist(night.id, heist)
        return log.figures(judge_deal)


def test_miss_is_zero_inside_the_tie_and_signed_outside() -> None:
    assert [miss(t, 2, 4) for t in range(1, 7)] == [-1, 0, 0, 0, 1, 2]


def test_ties_sit_outs_and_a_street(tmp_path: Path) -> None:
    night = (
        ("Ana", "Bob", "Cy", "Dee"),
        "classic",
        [draft(HEIST_A, TOKENS_A), draft(HEIST_B, TOKENS_B)],
    )
    figures = _log(tmp_path, [night])
    assert figures.nights == (NightScore(1, 0, 2),)
    assert figures.by_variant == (Success("classic", 2, 0),)
    assert figures.by_tokens == (Success("base", 2, 0),)
    players = {p.player: p for p in figures.players}
    assert list(players) == ["Ana", "Bob", "Cy", "Dee"]
    assert players["Ana"].overall == judging([-1, 0])
    assert players["Bob"].overall == judging([2, -1])
    assert players["Cy"].overall == judging([0, 1])
    assert players["Dee"].overall == judging([0])  # sat heist A out: one token judged
    assert dict(players["Ana"].streets) == {"preflop": judging([-1])}
    assert dict(players["Cy"].streets) == {"preflop": judging([1])}
    assert dict(players["Dee"].streets) == {"preflop": judging([0])}


def test_several_hands_per_player_over_nights(tmp_path: Path) -> None:
    first = (("Ana", "Bob", "Cy", "Dee"), "classic", [draft(HEIST_A, TOKENS_A)])
    second = (
        ("Ana", "Bob"),
        "four-two-hands",
        [draft(HEIST_C, TOKENS_C), draft(HEIST_C, TOKENS_C_RIGHT)],
    )
    figures = _log(tmp_path, [first, second])
    assert figures.nights == (NightScore(1, 0, 1), NightScore(2, 1, 1))
    assert figures.by_variant == (Success("four-two-hands", 2, 1), Success("classic", 1, 0))
    ana = next(p for p in figures.players if p.player == "Ana")
    night_ana = judging([0, 1, 0, 0])  # Ana/2 right twice, Ana/1 +1 then right
    assert ana.nights == ((1, judging([-1])), (2, night_ana))
    # Each night counts once: the mean of the nights' means, the tokens summed.
    assert ana.overall == Judging(5, 3, (1 + 0.25) / 2, (-1 + 0.25) / 2)
    assert ana.streets == ()


def test_one_night_two_hundred_nights_and_an_empty_log(tmp_path: Path) -> None:
    assert _log(tmp_path / "empty", []) == Figures((), (), (), ())
    one = _log(tmp_path / "one", [(("Ana", "Bob"), "four-two-hands", [draft(HEIST_C, TOKENS_C)])])
    assert [p.overall for p in one.players] == [judging([0, 1]), judging([0, -1])]
    many = [(("Ana", "Bob"), "four-two-hands", [draft(HEIST_C, TOKENS_C_RIGHT)])] * 200
    figures = _log(tmp_path / "many", many)
    assert len(figures.nights) == 200 and figures.nights[-1] == NightScore(200, 1, 0)
    assert figures.by_variant == (Success("four-two-hands", 200, 200),)
    assert [p.overall for p in figures.players] == [Judging(400, 400, 0.0, 0.0)] * 2


def test_heists_that_cannot_be_judged_count_in_the_score_only(tmp_path: Path) -> None:
    old = draft(HEIST_A, TOKENS_A)
    no_deal = HeistDraft(old.river, old.hands, old.owners, old.tokens, old.verdict)
    broken = HeistDraft(
        old.river, old.hands, old.owners, old.tokens, old.verdict, deal={"board": "Zz"}
    )
    figures = _log(tmp_path, [(("Ana", "Bob", "Cy"), "classic", [no_deal, broken])])
    assert figures.nights == (NightScore(1, 0, 2),)
    assert figures.players == ()


def test_without_a_judge_no_player_is_judged(tmp_path: Path) -> None:
    with SqliteGameLog(tmp_path / "log.sqlite3", clock=ticking_clock()) as log:
        night = log.start_night(("Ana", "Bob", "Cy"), "classic")
        log.save_heist(night.id, draft(HEIST_A, TOKENS_A))
        logs = [(log.night_status(night.id), log.heists(night.id))]
    figures = compute_figures(logs, None)
    assert figures.players == () and figures.nights == (NightScore(1, 0, 1),)


def test_the_nights_exports_carry_each_players_judging(tmp_path: Path) -> None:
    import csv
    import io

    from companion.storage.bgstats import night_play

    with SqliteGameLog(tmp_path / "log.sqlite3", clock=ticking_clock()) as log:
        night = log.start_night(("Ana", "Bob", "Cy", "Dee"), "classic")
        for heist in (HEIST_A, HEIST_B, HEIST_A):
            log.save_heist(night.id, draft(heist, TOKENS_A if heist is HEIST_A else TOKENS_B))
        document = json.loads(log.export_json(night.id, judge_deal))
        plain = json.loads(log.export_json(night.id))
        tables = log.export_csv(night.id, judge_deal)
        play_en = night_play(log, night.id, "en", judge_deal)
        play_fr = night_play(log, night.id, "fr", judge_deal)
    judged = document["nights"][0]["judging"]
    # Bob: +2, -1, +2 at the showdown; nothing recorded pre-flop but heist B's 0.
    assert judged["Bob"] == {
        "showdown": {"judged": 3, "right": 0, "distance": 1.667, "lean": 1.0},
        "preflop": {"judged": 1, "right": 1, "distance": 0.0, "lean": 0.0},
    }
    assert judged["Dee"]["showdown"] == {"judged": 1, "right": 1, "distance": 0.0, "lean": 0.0}
    assert plain["nights"][0]["judging"] is None  # no judge given, no figures
    row = next(csv.DictReader(io.StringIO(tables.nights)))
    assert json.loads(row["judging"]) == judged
    assert "Bob 0/3 tokens right, off by 1.67, lean +1.00" in play_en["comments"]
    assert "Dee 1/1 jeton juste, écart 0,00, penchant +0,00" in play_fr["comments"]
