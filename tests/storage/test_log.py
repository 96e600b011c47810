from __future__ import annotations

import dataclasses
import sqlite3
import threading
from contextlib import AbstractContextManager, nullcontext
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.storage import (
    GameLog,
    Heist,
    HeistDraft,
    InvalidRecordError,
    NightFinishedError,
    NightStatus,
    NotFoundError,
    NothingToUndoError,
    Outcome,
    SqliteGameLog,
    Verdict,
)
from tests.storage.builders import START, heist, ticking_clock

PLAYERS = ("Ann", "Bob", "Cy")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "companion.sqlite3"


@pytest.fixture
def log(db_path: Path) -> Any:
    with SqliteGameLog(db_path, clock=ticking_clock()) as opened:
        yield opened


def _play(log: SqliteGameLog, night_id: int, results: str) -> list[Heist]:
    """Save one heist per letter: V a vault that opens, A an alarm."""
    return [log.save_heist(night_id, heist(letter == "V")) for letter in results]


def test_sqlite_game_log_is_a_game_log(log: SqliteGameLog) -> None:
    game_log: GameLog = log  # mypy checks the signatures, isinstance that every method exists
    assert isinstance(game_log, GameLog)
    assert not isinstance(object(), GameLog)


def test_heist_round_trip_survives_reopening(db_path: Path) -> None:
    with SqliteGameLog(db_path, clock=ticking_clock()) as log:
        night = log.start_night(PLAYERS, "classic", rules={"decks": 1, "straights": "wrap"})
        photo = log.store_photo(b"\xff\xd8 a table photo")
        draft = heist(False, photo=photo, board2=True)
        saved = log.save_heist(night.id, draft)
    with SqliteGameLog(db_path) as log:
        (loaded,) = log.heists(night.id)
        reopened = log.night_status(night.id).night
        assert log.photo_path(photo).read_bytes() == b"\xff\xd8 a table photo"
    assert loaded == saved
    assert loaded.draft() == draft
    assert (loaded.number, loaded.night_id) == (1, night.id)
    assert loaded.saved_at == START + timedelta(minutes=1)  # the night took the first tick
    assert list(loaded.hands) == ["h1", "h2", "h3"]  # seating order kept
    assert reopened == night
    assert dict(reopened.rules) == {"decks": 1, "straights": "wrap"}


def test_records_are_frozen_dataclasses_not_rows(log: SqliteGameLog) -> None:
    night = log.start_night(PLAYERS, "classic")
    saved = log.save_heist(night.id, heist(True))
    for record in (night, saved, log.night_status(night.id), *log.heists(night.id)):
        assert dataclasses.is_dataclass(record) and not isinstance(record, sqlite3.Row)
        with pytest.raises(dataclasses.FrozenInstanceError):
            record.id = 99  # type: ignore[union-attr]
    with pytest.raises(TypeError):
        saved.hands["h9"] = ("2c",)  # type: ignore[index]


def test_database_is_in_wal_mode(log: SqliteGameLog, db_path: Path) -> None:
    log.start_night(PLAYERS, "classic")
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize(
    ("results", "outcome", "vaults", "alarms"),
    [
        ("", Outcome.OPEN, 0, 0),
        ("VVAA", Outcome.OPEN, 2, 2),
        ("VVV", Outcome.WON, 3, 0),
        ("AVAVV", Outcome.WON, 3, 2),
        ("AAA", Outcome.LOST, 0, 3),
        ("VVAAA", Outcome.LOST, 2, 3),
    ],
)
def test_night_ends_at_three_vaults_or_three_alarms(
    log: SqliteGameLog, results: str, outcome: Outcome, vaults: int, alarms: int
) -> None:
    night = log.start_night(PLAYERS, "classic")
    saved = _play(log, night.id, results)
    status = log.night_status(night.id)
    assert (status.outcome, status.vaults, status.alarms) == (outcome, vaults, alarms)
    assert [h.number for h in saved] == list(range(1, len(results) + 1))
    assert status.finished == (outcome is not Outcome.OPEN)
    assert (status.night.closed_at is not None) == status.finished


@pytest.mark.parametrize("results", ["VVV", "AAA"])
def test_finished_night_refuses_heists_and_says_so(log: SqliteGameLog, results: str) -> None:
    night = log.start_night(PLAYERS, "classic")
    _play(log, night.id, results)
    with pytest.raises(NightFinishedError) as info:
        log.save_heist(night.id, heist(True))
    assert f"game night {night.id} is over" in info.value.message("en")
    assert "soirée" in info.value.message("fr") and "terminée" in info.value.message("fr")
    assert len(log.heists(night.id)) == 3


def test_undo_removes_the_last_heist_only(log: SqliteGameLog) -> None:
    night = log.start_night(PLAYERS, "classic")
    first, second = _play(log, night.id, "VA")
    assert log.undo_last_heist(night.id) == second
    assert log.heists(night.id) == (first,)
    # The next heist takes the freed number.
    assert log.save_heist(night.id, heist(True)).number == 2


def test_undo_of_the_deciding_heist_reopens_the_night(log: SqliteGameLog) -> None:
    night = log.start_night(PLAYERS, "classic")
    _play(log, night.id, "AAVA")
    assert log.night_status(night.id).outcome is Outcome.LOST
    removed = log.undo_last_heist(night.id)
    assert not removed.verdict.opens
    status = log.night_status(night.id)
    assert (status.outcome, status.night.closed_at, status.alarms) == (Outcome.OPEN, None, 2)
    assert log.save_heist(night.id, heist(True)).number == 4


def test_undo_keeps_an_abandoned_night_abandoned(log: SqliteGameLog) -> None:
    night = log.start_night(PLAYERS, "classic")
    _play(log, night.id, "V")
    log.close_night(night.id)
    log.undo_last_heist(night.id)
    assert log.night_status(night.id).outcome is Outcome.ABANDONED


def test_undo_on_an_empty_night_is_refused(log: SqliteGameLog) -> None:
    night = log.start_night(PLAYERS, "classic")
    with pytest.raises(NothingToUndoError, match=f"night {night.id} has no heist"):
        log.undo_last_heist(night.id)


def test_close_night_abandons_it_and_blocks_heists(log: SqliteGameLog) -> None:
    night = log.start_night(PLAYERS, "classic")
    status = log.close_night(night.id)
    assert status.outcome is Outcome.ABANDONED and status.night.closed_at is not None
    assert log.close_night(night.id) == status  # closing twice changes nothing
    with pytest.raises(NightFinishedError, match="abandoned"):
        log.save_heist(night.id, heist(True))


def test_resume_finds_the_newest_open_night_after_restart(db_path: Path) -> None:
    with SqliteGameLog(db_path, clock=ticking_clock()) as log:
        assert log.resume_night() is None
        older = log.start_night(PLAYERS, "classic")
        newer = log.start_night((*PLAYERS, "Dee"), "two-of-four")
        done = log.start_night(PLAYERS, "classic")
        _play(log, done.id, "VVV")
        _play(log, newer.id, "VA")
    with SqliteGameLog(db_path) as log:
        resumed = log.resume_night()
        assert resumed is not None
        assert (resumed.night, resumed.vaults, resumed.alarms) == (newer, 1, 1)
        assert [s.night.id for s in log.open_nights()] == [newer.id, older.id]
        assert [s.night.id for s in log.list_nights()] == [done.id, newer.id, older.id]


def test_names_typed_differently_are_one_player(log: SqliteGameLog) -> None:
    decomposed, composed = "Zoe\u0301", "Zo\u00e9"
    night = log.start_night(("Ann", decomposed), "classic")
    assert night.players == ("Ann", composed)
    saved = log.save_heist(night.id, _replace(owners={"h1": composed, "h2": "ANN"}))
    assert saved.owners["h1"] == composed
    with pytest.raises(InvalidRecordError, match="listed twice"):
        log.start_night((composed, decomposed.upper()), "classic")
    by_name = HeistDraft(
        river=("As",),
        hands={decomposed: ("Kd", "Kh")},
        owners={composed: decomposed},
        tokens={f" {decomposed} ": 1},
        verdict=Verdict(True),
    )
    assert dict(by_name.tokens) == {composed: 1} and dict(by_name.owners) == {composed: composed}


def test_list_nights_gives_scores(log: SqliteGameLog) -> None:
    night = log.start_night(PLAYERS, "classic")
    _play(log, night.id, "AVA")
    (status,) = log.list_nights()
    assert status == NightStatus(log.night_status(night.id).night, 1, 2)
    assert status.heists == 3


def test_presets_save_replace_list(log: SqliteGameLog) -> None:
    first = log.save_preset("Friday group", {"decks": 2, "ranking": "high"})
    log.save_preset("Low night", {"ranking": "low_a5"})
    replaced = log.save_preset("Friday group", {"decks": 1})
    assert dict(replaced.rules) == {"decks": 1} and replaced.saved_at > first.saved_at
    assert [p.name for p in log.presets()] == ["Friday group", "Low night"]
    with pytest.raises(NotFoundError, match="Sunday"):
        log.preset("Sunday")


def test_night_copies_the_preset_rules(log: SqliteGameLog) -> None:
    log.save_preset("Friday group", {"decks": 2})
    night = log.start_night(PLAYERS, "classic", preset="Friday group")
    log.save_preset("Friday group", {"decks": 1})
    stored = log.night_status(night.id).night
    assert (stored.preset, dict(stored.rules)) == ("Friday group", {"decks": 2})
    with pytest.raises(NotFoundError, match="no table-rule preset 'Nope'"):
        log.start_night(PLAYERS, "classic", preset="Nope")


def test_cribbage_games_round_trip(db_path: Path) -> None:
    with SqliteGameLog(db_path, clock=ticking_clock()) as log:
        game = log.save_cribbage_game(("Ann", "Bob"), {"scores": [0, 0], "dealer": "Ann"})
        later = log.save_cribbage_game(
            ("Ann", "Bob"), {"scores": [121, 98], "dealer": "Bob"}, game_id=game.id, finished=True
        )
        other = log.save_cribbage_game(("Cy", "Dee"), {"scores": [5, 7]})
        with pytest.raises(NotFoundError):
            log.save_cribbage_game(("Ann", "Bob"), {}, game_id=999)
    with SqliteGameLog(db_path) as log:
        assert log.cribbage_game(game.id) == later
        assert later.finished and later.created_at == game.created_at
        assert later.state["scores"] == (121, 98)
        assert [g.id for g in log.cribbage_games()] == [other.id, game.id]


def test_cribbage_games_of_a_night_leave_out_other_nights_and_loose_games(
    db_path: Path,
) -> None:
    with SqliteGameLog(db_path, clock=ticking_clock()) as log:
        tonight = log.start_night(PLAYERS, "classic")
        other = log.start_night(PLAYERS, "classic")
        first = log.save_cribbage_game(("Ana", "Bob"), {"entries": []}, night_id=tonight.id)
        log.save_cribbage_game(("Cy", "Dee"), {"entries": []}, night_id=other.id)
        log.save_cribbage_game(("Eve", "Fay"), {"entries": []})  # played with no night open
        second = log.save_cribbage_game(("Ana", "Cy"), {"entries": []}, night_id=tonight.id)
        # Saving the first game again moves it to the top and keeps it in its night.
        log.save_cribbage_game(("Ana", "Bob"), {"entries": [[0, "peg", 2]]}, game_id=first.id)
    with SqliteGameLog(db_path) as log:
        games = log.cribbage_games(tonight.id)
        assert [(g.id, g.players, g.night_id) for g in games] == [
            (first.id, ("Ana", "Bob"), tonight.id),
            (second.id, ("Ana", "Cy"), tonight.id),
        ]
        assert [g.players for g in log.cribbage_games(other.id)] == [("Cy", "Dee")]
        assert log.cribbage_games(other.id + 1) == ()
        assert len(log.cribbage_games()) == 4


def _raises(error: type[Exception] | None, match: str = "") -> AbstractContextManager[Any]:
    return pytest.raises(error, match=match) if error else nullcontext()


@pytest.mark.parametrize(
    ("players", "variant", "rules", "error", "match"),
    [
        (PLAYERS, "classic", None, None, ""),
        (("Solo",), "classic", {"nested": {"a": [1, 2.5, None, True]}}, None, ""),
        ((), "classic", None, InvalidRecordError, "0 players"),
        (tuple(f"P{i}" for i in range(11)), "classic", None, InvalidRecordError, "11 players"),
        (("Ann", "ann"), "classic", None, InvalidRecordError, "'ann' is listed twice"),
        (("Ann", " "), "classic", None, InvalidRecordError, "non-empty"),
        ("Ann", "classic", None, InvalidRecordError, "list of names"),
        (PLAYERS, "", None, InvalidRecordError, "variant"),
        (PLAYERS, "classic", {"x": float("nan")}, InvalidRecordError, "rules.x"),
        (PLAYERS, "classic", {"x": {1, 2}}, InvalidRecordError, "set cannot be stored"),
        (PLAYERS, "classic", [1], InvalidRecordError, "JSON object"),
    ],
)
def test_start_night_checks_its_input(
    log: SqliteGameLog,
    players: Any,
    variant: str,
    rules: Any,
    error: type[Exception] | None,
    match: str,
) -> None:
    with _raises(error, match):
        night = log.start_night(players, variant, rules=rules)
        assert log.night_status(night.id).night == night
    if error:
        assert log.list_nights() == ()


def _replace(**changes: Any) -> HeistDraft:
    return dataclasses.replace(heist(True), **changes)


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"river": ()}, "river: has no card"),
        ({"river": "As Kd Qh"}, "as a list"),
        ({"river": ("As Kd",)}, "holds a space"),
        ({"hands": {}}, "no hand"),
        ({"hands": {"h1": ("As", "")}, "owners": {}, "tokens": {}}, "hand h1"),
        ({"owners": {"h9": "Ann"}}, "owners: unknown hand 'h9'"),
        ({"tokens": {"h1": 0}}, "token of h1"),
        ({"tokens": {"h1": True}}, "token of h1"),
        ({"photo": "../../etc/passwd"}, "not a photo reference"),
    ],
)
def test_heist_draft_names_the_bad_field(changes: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidRecordError, match=match) as info:
        _replace(**changes)
    assert isinstance(info.value, CompanionError) and info.value.message("fr")


@pytest.mark.parametrize(
    ("opens", "failures", "match"),
    [
        (1, (), "verdict.opens: must be true or false"),
        (False, ({"bad": float("inf")},), r"verdict.failures\[0\].bad"),
        (False, (object(),), "object cannot be stored as JSON"),
    ],
)
def test_verdict_must_be_json(opens: Any, failures: Any, match: str) -> None:
    with pytest.raises(InvalidRecordError, match=match):
        Verdict(opens, failures)


def test_save_heist_checks_owners_photo_and_night(log: SqliteGameLog) -> None:
    night = log.start_night(PLAYERS, "classic")
    with pytest.raises(InvalidRecordError, match="'Zed' does not play tonight"):
        log.save_heist(night.id, _replace(owners={"h1": "Zed"}))
    with pytest.raises(NotFoundError, match="photo"):
        log.save_heist(night.id, heist(True, photo="0" * 64))
    with pytest.raises(NotFoundError, match="no game night 42"):
        log.save_heist(42, heist(True))
    assert log.save_heist(night.id, _replace(owners={"h1": "ann"})).number == 1


def test_log_is_usable_from_several_threads(log: SqliteGameLog) -> None:
    nights = [log.start_night(PLAYERS, "classic").id for _ in range(4)]
    errors: list[BaseException] = []

    def play(night_id: int) -> None:
        try:
            for _ in range(2):
                log.save_heist(night_id, heist(True))
                log.night_status(night_id)
        except BaseException as error:  # reported below; a thread would swallow it
            errors.append(error)

    threads = [threading.Thread(target=play, args=(n,)) for n in nights]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [log.night_status(n).vaults for n in nights] == [2, 2, 2, 2]


_cards = st.lists(
    st.text(st.characters(blacklist_categories=("Z", "C")), min_size=1, max_size=4),
    min_size=1,
    max_size=7,
).map(tuple)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def _drafts(draw: st.DrawFn) -> HeistDraft:
    hand_ids = draw(
        st.lists(st.sampled_from([f"h{i}" for i in range(1, 11)]), min_size=1, unique=True)
    )
    return HeistDraft(
        river=draw(_cards),
        board2=draw(st.none() | _cards),
        hands={hand: draw(_cards) for hand in hand_ids},
        owners={hand: draw(st.sampled_from(PLAYERS)) for hand in hand_ids},
        tokens={hand: draw(st.integers(1, 10)) for hand in hand_ids},
        verdict=Verdict(draw(st.booleans()), tuple(draw(st.lists(_json, max_size=3)))),
    )


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(draft=_drafts())
def test_any_heist_comes_back_as_saved(log: SqliteGameLog, draft: HeistDraft) -> None:
    night = log.start_night(PLAYERS, "classic")
    saved = log.save_heist(night.id, draft)
    assert log.heists(night.id) == (saved,)
    assert saved.draft() == draft
