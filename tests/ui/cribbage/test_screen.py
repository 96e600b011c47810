"""The cribbage screen: its state, its actions on a real game log, and its view without a client."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import flet as ft
import numpy as np
import pytest

from companion.engine.cards import Card
from companion.errors import CompanionError, IllegalMoveError, InputError
from companion.storage import SqliteGameLog
from companion.ui.cribbage.actions import (
    count_to,
    load_show_photo,
    new_game,
    peg_to,
    score,
    set_players,
    show_read,
    undo,
)
from companion.ui.cribbage.state import CribbageState, CribBoard, PegCount, ScoreEntry, ShowCount
from companion.ui.cribbage.view import BOARD_SIZE, hole_xy
from companion.ui.kit.services import LazyDetector, Services
from companion.ui.night.actions import start_night
from companion.ui.shell.dispatch import run
from companion.ui.shell.navigation import initial_state, open_screen
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.state import ShowdownState
from companion.vision import DEFAULT_MODEL, CardDetector, Detections
from tests.helpers import FIXTURES, ROOT, cards
from tests.ui.screens import Session, board, find, png, texts
from tests.vision.layouts.builders import ABOVE, ROW, reads

MODEL = Path(os.environ.get("COMPANION_MODEL", DEFAULT_MODEL))
needs_model = pytest.mark.skipif(
    not MODEL.is_file(),
    reason=f"{MODEL} is not in this checkout (the vision branch ships the trained model)",
)


# -- the board ------------------------------------------------------------------------------


def test_scores_and_pegs_follow_the_entries() -> None:
    b = board((1, "peg", 2), (0, "show", 12), (0, "peg", 1), (1, "crib", 8))
    assert b.scores() == (13, 10)
    assert b.pegs(0) == (13, 12)  # front at the score, back where the last score started
    assert b.pegs(1) == (10, 2)
    assert CribBoard().pegs(0) == (0, 0)


def test_first_to_121_wins_at_once_and_nothing_is_added_after() -> None:
    b = board((0, "show", 24), (1, "show", 24))
    b = CribBoard(("Ana", "Bob"), b.entries * 4 + (ScoreEntry(0, "show", 24),))
    assert b.scores() == (120, 96) and b.winner() is None
    # Bob's crib would count more, but Ana pegs out first: order decides, not totals.
    won = b.add(0, "peg", 2)
    assert won.winner() == 0 and won.pegs(0)[0] == 121
    with pytest.raises(IllegalMoveError, match="Ana reached 121") as refused:
        won.add(1, "crib", 24)
    assert refused.value.rule == "game_over"
    assert won.undo().winner() is None


@pytest.mark.parametrize(
    ("kind", "points", "rule"),
    [
        ("show", 19, "impossible_show"),
        ("crib", 27, "impossible_show"),
        ("show", 30, "points_range"),
        ("peg", 0, "points_range"),
        ("peg", 16, "points_range"),
        ("heels", 1, "heels_two"),
    ],
)
def test_scores_no_play_can_make_are_refused(kind: str, points: int, rule: str) -> None:
    with pytest.raises(IllegalMoveError) as refused:
        board().add(0, kind, points)
    assert refused.value.rule == rule


@pytest.mark.parametrize(
    ("kind", "points", "entries"),
    [("show", 29, 1), ("crib", 28, 1), ("show", 0, 0), ("peg", 12, 1), ("heels", 2, 1)],
)
def test_possible_scores_are_pegged(kind: str, points: int, entries: int) -> None:
    assert len(board().add(1, kind, points).entries) == entries


def test_board_json_round_trip() -> None:
    b = board((0, "show", 8), (1, "heels", 2), (1, "peg", 3))
    raw = json.loads(json.dumps(b.to_json()))
    assert CribBoard.from_json(b.players, raw, 7) == CribBoard(b.players, b.entries, 7)


@pytest.mark.parametrize("text", ["Ana", "Ana, ana", "Ana, Bob, Cy", " , "])
def test_two_distinct_names(text: str) -> None:
    with pytest.raises(InputError):
        board().with_players_text(text)
    assert board().with_players_text(" Zoé ,Yann").players == ("Zoé", "Yann")


# -- the count ------------------------------------------------------------------------------


def test_the_rules_example_counts_sixteen_with_every_item() -> None:
    show = ShowCount().with_hand_text("4c 5d 6h Kc").with_starter_text("5s").show()
    assert show is not None
    assert (show.total, show.fifteens, show.pairs, show.runs) == (16, 8, 2, 6)
    assert len(show.items) == 4 + 1 + 2


def test_a_four_card_flush_counts_in_the_hand_not_in_the_crib() -> None:
    count = ShowCount().with_hand_text("2h 4h 6h 8h").with_starter_text("10c")
    assert count.starter == cards("Tc")[0]
    assert count.show().flush == 4  # type: ignore[union-attr]
    assert count.with_crib(True).show().flush == 0  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("hand", "starter"),
    [("4c 5d 6h", "5s"), ("4c 5d 6h Kc", ""), ("4c 5d 6h Zz", "5s"), ("4c 5d 6h Kc", "4c")],
)
def test_a_wrong_show_raises_a_message(hand: str, starter: str) -> None:
    count = ShowCount().with_hand_text(hand).with_starter_text(starter)
    with pytest.raises(CompanionError):
        count.show()


def test_nothing_typed_is_no_count() -> None:
    assert ShowCount().show() is None


# -- discard advice -------------------------------------------------------------------------


def test_advice_for_six_cards_and_the_dealer_switch() -> None:
    pone = CribbageState().with_deal_text("5c 5d Jh Qs 2c 9d")
    assert pone.advice is not None and len(pone.advice.by_net) == 15
    assert pone.with_deal_text("5c, 5d, Jh, Qs, 2c, 9d") is pone  # unchanged: not worked again
    dealer = pone.with_dealer(True)
    assert dealer.advice is not None and dealer.advice.dealer
    assert dealer.advice.by_net[0].net > pone.advice.by_net[0].net  # own crib adds
    bad = pone.with_deal_text("5c 5d Jh")
    assert bad.advice is None and bad.advice_error is not None
    assert "6" in bad.advice_error.text("en")


# -- actions on a real game log -------------------------------------------------------------


def crib_state(services: Services) -> AppState:
    return run(open_screen("cribbage"), AppState(lang="en"), services)


def test_scores_are_saved_and_the_game_resumes_after_a_restart(tmp_path: Path) -> None:
    log = SqliteGameLog.in_folder(tmp_path)
    services = Services(log, tmp_path, LazyDetector())
    state = crib_state(services)
    state = run(set_players("Ana, Bob"), state, services)
    for step in (
        score(1, "peg", 2),
        score(0, "show", "12"),
        score(1, "heels", 2),
    ):
        state = run(step, state, services)
    saved = state.cribbage.board
    log.close()
    reopened = SqliteGameLog.in_folder(tmp_path)
    try:
        again = Services(reopened, tmp_path)
        fresh = initial_state(again, "en")
        assert fresh.cribbage.board.entries == ()
        resumed = run(open_screen("cribbage"), fresh, again)
        assert resumed.cribbage.board == saved
        assert resumed.cribbage.board.scores() == (12, 4)
        assert resumed.cribbage.board.players == ("Ana", "Bob")
    finally:
        reopened.close()


def test_a_game_played_during_a_night_is_in_that_nights_log(services: Services) -> None:
    night = AppState(lang="en", table=ShowdownState(("Ana", "Bob", "Cy")))
    night = run(start_night, night, services)
    assert night.night is not None
    state = run(open_screen("cribbage"), night, services)
    state = run(score(0, "peg", 2), state, services)
    (game,) = services.log.cribbage_games(night_id=night.night.night.id)
    assert game.id == state.cribbage.board.game_id and game.night_id == night.night.night.id


def test_a_nights_board_names_the_nights_players_not_player_1_and_2(
    services: Services,
) -> None:
    night = run(
        start_night, AppState(lang="en", table=ShowdownState(("Zoé", "Bob", "Cy"))), services
    )
    state = run(open_screen("cribbage"), night, services)
    assert state.cribbage.board.players == ("Zoé", "Bob")
    assert "Zoé: 0" in " ".join(texts(root_view(state, lambda action: None)))
    # Without a night: the default names, in the page's language.
    alone = run(open_screen("cribbage"), AppState(lang="en"), services)
    assert alone.cribbage.board.players == ("Player 1", "Player 2")


def test_a_won_game_is_finished_in_the_log_and_not_resumed(services: Services) -> None:
    state = crib_state(services)
    for _ in range(5):
        state = run(score(0, "show", 24), state, services)
    state = run(score(0, "peg", 1), state, services)
    assert state.cribbage.board.winner() == 0
    (game,) = services.log.cribbage_games()
    assert game.finished and game.id == state.cribbage.board.game_id
    refused = run(score(1, "peg", 1), state, services)
    assert refused.banner is not None and refused.banner.error
    assert refused.cribbage == state.cribbage
    assert crib_state(services).cribbage.board.entries == ()


def test_undo_is_saved_and_an_empty_board_says_so(services: Services) -> None:
    state = crib_state(services)
    state = run(undo, state, services)
    assert state.banner is not None and state.banner.key == "crib_nothing_to_undo"
    state = run(score(1, "crib", 6), state, services)
    state = run(undo, state, services)
    assert state.banner is not None and state.banner.text("en").endswith("6 points undone")
    state = run(undo, run(score(0, "peg", 1), state, services), services)
    assert state.banner is not None
    assert (state.banner.text("en"), state.banner.text("fr")) == (
        "Player 1: 1 point undone",
        "Player 1 : 1 point annulé",
    )
    game = services.log.cribbage_game(state.cribbage.board.game_id)  # type: ignore[arg-type]
    assert list(game.state["entries"]) == []


def test_a_new_game_is_the_one_resumed(services: Services) -> None:
    state = run(score(0, "peg", 2), crib_state(services), services)
    old = state.cribbage.board.game_id
    state = run(new_game, state, services)
    assert state.cribbage.board.game_id != old and state.cribbage.board.entries == ()
    assert crib_state(services).cribbage.board.game_id == state.cribbage.board.game_id


def test_opening_the_screen_reads_what_another_phone_pegged(services: Services) -> None:
    state = run(score(0, "peg", 2), crib_state(services), services)
    b = state.cribbage.board
    services.log.save_cribbage_game(b.players, b.add(1, "peg", 3).to_json(), game_id=b.game_id)
    state = run(open_screen("cribbage"), state.go("night"), services)
    assert state.cribbage.board.scores() == (2, 3)


@pytest.mark.parametrize("typed", ["", "douze", "3.5"])
def test_typed_points_that_are_no_number_leave_the_board(services: Services, typed: str) -> None:
    state = crib_state(services)
    after = run(score(0, "show", typed), state, services)
    assert after.banner is not None and after.banner.error and after.cribbage == state.cribbage


def test_counting_pegs_the_show_for_a_player(services: Services) -> None:
    state = crib_state(services)
    count = ShowCount().with_hand_text("4c 5d 6h Kc").with_starter_text("5s").with_crib(True)
    state = state.with_cribbage(state.cribbage.with_count(count))
    state = run(count_to(1), state, services)
    assert state.cribbage.board.entries == (ScoreEntry(1, "crib", 16),)
    empty = run(count_to(0), crib_state(services).with_cribbage(CribbageState()), services)
    assert empty.banner is not None and empty.banner.error


# -- photos ---------------------------------------------------------------------------------


def doubting(detections: Detections, card: str, confidence: float = 0.5) -> Detections:
    """The same reads, with ``card`` read less surely."""
    sure = [
        confidence if str(c) == card else float(k)
        for c, k in zip(detections.cards, detections.confidence, strict=True)
    ]
    return Detections(detections.cards, np.array(sure), detections.xyxy, detections.quads)


def test_a_show_photo_fills_the_count_and_points_at_unsure_cards() -> None:
    state = AppState(lang="en").go("cribbage")
    state = show_read(state, doubting(reads(*ROW, ABOVE), "Kc"))
    assert state.cribbage.count.hand == cards("4c 5d 6h Kc")
    assert state.cribbage.count.starter == cards("5s")[0]
    assert state.cribbage.count.unsure == cards("Kc")
    assert state.banner is not None and "K♣" in state.banner.text("en")
    assert state.cribbage.count.show().total == 16  # type: ignore[union-attr]


def test_a_photo_read_puts_the_detectors_own_cards_on_the_counter() -> None:
    # The very Card objects the detector read: nothing was written out as text and read again.
    detections = reads(*ROW, ABOVE)
    count = show_read(AppState(lang="en").go("cribbage"), detections).cribbage.count
    assert all(type(card) is Card for card in (*count.hand, count.starter))
    read = {id(card) for card in detections.cards}
    assert {id(card) for card in (*count.hand, count.starter)} == read
    assert count.unsure == ()


def test_a_photo_keeps_the_crib_switch_and_typing_drops_the_doubts() -> None:
    state = AppState(lang="en").go("cribbage")
    state = state.with_cribbage(state.cribbage.with_count(ShowCount(crib=True)))
    count = show_read(state, doubting(reads(*ROW, ABOVE), "5s")).cribbage.count
    assert count.crib and count.unsure == cards("5s")
    assert count.with_starter_text("5s") is count  # the same card typed again: nothing changes
    retyped = count.with_starter_text("5h")
    assert retyped.starter == cards("5h")[0] and retyped.unsure == ()


def test_a_photo_without_a_starter_apart_is_a_banner(services: Services) -> None:
    state = crib_state(services)
    after = run(lambda s, _: show_read(s, reads(*ROW)), state, services)
    assert after.banner is not None and after.banner.error
    assert "5" in after.banner.text("en") and after.cribbage == state.cribbage


def test_without_the_model_a_cribbage_photo_says_to_type(services: Services) -> None:
    state = crib_state(services)
    state = run(load_show_photo(png(), "show.png"), state, services)
    assert state.vision_note is not None and state.table.photo is None
    assert state.banner is not None and "type the cards" in state.banner.text("en")
    page = Session(state, services).view()
    assert "card_corners.onnx" in find(page, "vision-note").value


def test_the_app_starts_without_importing_the_vision_package() -> None:
    code = (
        "import sys, companion.ui.shell.app; "
        "print(sorted(m for m in sys.modules if m.startswith(('companion.vision', "
        "'companion.vision.layouts', 'onnxruntime'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"


@needs_model
def test_a_show_photo_read_by_the_detector_is_counted(tmp_path: Path) -> None:
    entry = next(
        e
        for e in json.loads((FIXTURES / "photo_labels.json").read_text())
        if e["image"] == "crib_show_01.jpg"
    )
    log = SqliteGameLog.in_folder(tmp_path)
    try:
        services = Services(log, tmp_path, LazyDetector(lambda: CardDetector(MODEL)))
        data = (FIXTURES / entry["image"]).read_bytes()
        state = run(load_show_photo(data, entry["image"]), crib_state(services), services)
        assert state.cribbage.count.hand == cards(" ".join(entry["hand"]))
        assert state.cribbage.count.starter == cards(entry["starter"])[0]
        assert state.cribbage.count.show().total == entry["total"]  # type: ignore[union-attr]
    finally:
        log.close()


# -- the view -------------------------------------------------------------------------------


@pytest.fixture
def crib(services: Services) -> Session:
    return Session(crib_state(services), services)


def shape(page: Any, key: str) -> Any:
    shapes = find(page, "crib-board").content.shapes
    (found,) = [s for s in shapes if s.key == key]
    return found


@pytest.mark.parametrize(
    ("lang", "total", "item"),
    [("en", "Total: 16", "run of three: 3"), ("fr", "Total : 16", "suite de trois : 3")],
)
def test_typing_a_show_lists_every_item_and_the_total(
    crib: Session, lang: str, total: str, item: str
) -> None:
    crib.state = AppState(lang=lang).go("cribbage")
    crib.submit("crib-hand", "4c 5d 6h Kc")
    crib.submit("crib-starter", "5s")
    page = crib.view()
    assert find(page, "crib-total").value == total
    shown = texts(find(page, "crib-show"))
    assert shown.count(item) == 2  # a double run: each run listed
    assert sum(1 for k in range(12) if _has(page, f"crib-item-{k}")) == 7


def _has(page: Any, key: str) -> bool:
    try:
        find(page, key)
    except LookupError:
        return False
    return True


def test_a_mistyped_show_names_the_problem(crib: Session) -> None:
    crib.submit("crib-hand", "4c 5d 6h Kc")
    assert "starter" in find(crib.view(), "crib-count-error").value
    crib.submit("crib-starter", "4c")
    assert not _has(crib.view(), "crib-total")


def test_pegging_moves_the_front_and_back_pegs(crib: Session) -> None:
    crib.tap("peg-0-2")
    crib.tap("peg-0-3")
    crib.submit("show-1", "12")
    crib.tap("heels-1")
    page = crib.view()
    assert find(page, "crib-score-0").value.endswith(": 5")
    front, back = shape(page, "peg-front-0"), shape(page, "peg-back-0")
    assert (front.x, front.y) == hole_xy(5, 0) and (back.x, back.y) == hole_xy(2, 0)
    front = shape(page, "peg-front-1")
    assert (front.x, front.y) == hole_xy(14, 1)
    assert [list(e) for e in crib.services.log.cribbage_games()[0].state["entries"]] == [
        [0, "peg", 2],
        [0, "peg", 3],
        [1, "show", 12],
        [1, "heels", 2],
    ]
    crib.tap("crib-undo")
    assert (shape(crib.view(), "peg-front-1").x, shape(crib.view(), "peg-back-1").x) == (
        hole_xy(12, 1)[0],
        hole_xy(0, 1)[0],
    )


def test_the_winner_is_shown_and_scoring_stops(crib: Session) -> None:
    for _ in range(5):
        crib.submit("show-1", "24")
    crib.submit("crib-hand", "4c 5d 6h Kc")
    crib.submit("crib-starter", "5s")
    assert _has(crib.view(), "count-to-0")
    crib.tap("count-to-1")
    page = crib.view()
    assert find(page, "crib-winner").value == "Player 2 wins (136)!"
    assert not _has(page, "peg-1-1") and not _has(page, "count-to-0")
    front = shape(page, "peg-front-1")
    assert (front.x, front.y) == hole_xy(121, 1) == hole_xy(121, 0)  # the shared game hole
    crib.tap("crib-new")
    assert find(crib.view(), "crib-score-1").value.endswith(": 0")


def test_the_advice_lists_the_best_discards(crib: Session) -> None:
    crib.submit("crib-deal", "5c 5d Jh Qs 2c 9d")
    page = crib.view()
    assert find(page, "advice-net-0").value.startswith("discard ")
    assert _has(page, "advice-hand-2") and not _has(page, "advice-net-5")
    crib.submit("crib-deal", "5c 5d")
    assert "6" in find(crib.view(), "advice-error").value


def test_players_are_renamed_through_the_field(crib: Session) -> None:
    crib.submit("crib-players", "Ana, Bob")
    assert find(crib.view(), "crib-score-0").value == "Ana: 0"
    crib.submit("crib-players", "Ana")
    assert crib.state.banner is not None and crib.state.banner.error


def test_board_holes_are_distinct_and_inside_the_drawing() -> None:
    spots = {hole_xy(n, p) for p in (0, 1) for n in range(121)}
    assert len(spots) == 2 * 121
    width, height = BOARD_SIZE
    assert all(0 < x < width and 0 < y < height for x, y in spots | {hole_xy(121, 0)})
    # Along a row, each hole lies right of the previous one; five to a group.
    xs = [hole_xy(n, 0)[0] for n in range(1, 31)]
    gaps = [round(b - a, 3) for a, b in zip(xs, xs[1:], strict=False)]
    assert all(g > 0 for g in gaps) and len({g for g in gaps}) == 2
    assert not math.isclose(gaps[4], gaps[0])


def test_flipping_a_switch_through_the_view(crib: Session) -> None:
    crib.submit("crib-hand", "2h 4h 6h 8h")
    crib.submit("crib-starter", "Tc")
    assert "flush 4" in find(crib.view(), "crib-parts").value
    switch = find(crib.view(), "crib-is-crib")
    switch.value = True
    switch.on_change(ft.Event("change", switch))
    assert "flush 0" in find(crib.view(), "crib-parts").value


# -- pegging --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "end", "points"),
    [
        ("5h 5d 5s", "", 8),  # fifteen 2, pair royal 6
        ("7c 8d 6h", "", 3),  # a run of three in any order (count 21)
        ("Kc Qd 9h", "go", 1),
        ("Kc Qd Ts Ac", "last_card", 2),  # thirty-one, never with the go
        ("4c 4d", "", 2),
        ("9c 2d", "", 0),
    ],
)
def test_the_last_card_of_a_count_scores(cards: str, end: str, points: int) -> None:
    peg = PegCount().with_cards_text(cards).with_end(end)
    assert sum(item.points for item in peg.items()) == points


def test_a_count_past_31_is_refused() -> None:
    with pytest.raises(IllegalMoveError) as refused:
        PegCount().with_cards_text("Kc Qd Ts 5s").items()
    assert refused.value.rule == "count_over_31"


def test_pegging_the_count_for_a_player(services: Services) -> None:
    state = crib_state(services)
    state = state.with_cribbage(state.cribbage.with_peg(PegCount().with_cards_text("5h 5d 5s")))
    state = run(peg_to(1), state, services)
    assert state.cribbage.board.entries == (ScoreEntry(1, "peg", 8),)
    nothing = state.with_cribbage(state.cribbage.with_peg(PegCount(("9c",))))
    after = run(peg_to(0), nothing, services)
    assert after.banner is not None and after.banner.error and after.cribbage == nothing.cribbage


def test_pegging_through_the_view(crib: Session) -> None:
    crib.submit("crib-peg-cards", "Kc Qd 9h")
    page = crib.view()
    assert find(page, "crib-peg-total").value == "Nothing for 9♥ (count 29)"
    assert not _has(page, "peg-to-0")
    end = find(page, "crib-peg-end")
    end.value = "go"
    end.on_select(ft.Event("select", end))
    page = crib.view()
    assert find(page, "crib-peg-total").value == "1 for 9♥ (count 29)"
    crib.tap("peg-to-0")
    assert find(crib.view(), "crib-score-0").value.endswith(": 1")
    crib.submit("crib-peg-cards", "Kc Qd 9h 3c")
    assert "past 31" in find(crib.view(), "crib-peg-error").value


# -- the cut for the first deal (issue #54; cribbage_rules.txt §2) --------------------------


def test_the_cut_for_deal_is_typed_on_the_board_and_kept_with_the_game(
    crib: Session,
) -> None:
    crib.dispatch(set_players("Ana, Bob"))
    crib.submit("crib-cut", "7h 7d")
    assert find(crib.view(), "crib-cut-0").value == "cut 1: Ana 7♥, Bob 7♦: a tie, cut again"
    crib.submit("crib-cut", "Kc Qs")
    page = crib.view()
    assert find(page, "crib-cut-1").value == (
        "cut 2: Ana K♣, Bob Q♠: Bob cut the lower card and deals first"
    )
    assert not _has(page, "crib-cut")  # decided: no field to cut again
    board = crib.state.cribbage.board
    assert board.dealer == 1
    game = crib.services.log.cribbage_game(board.game_id)  # type: ignore[arg-type]
    assert CribBoard.of_game(game) == board  # saved: another phone sees who deals
    crib.tap("crib-new")
    assert crib.state.cribbage.board.dealer is None and _has(crib.view(), "crib-cut")


def test_a_wrong_cut_is_named_and_undo_takes_a_cut_back(crib: Session) -> None:
    crib.submit("crib-cut", "7h")
    assert crib.state.banner is not None
    assert "two cards at a time" in crib.state.banner.text("en")
    crib.submit("crib-cut", "9h 9c")
    crib.tap("crib-undo")
    assert crib.state.cribbage.board.cuts == ()
    assert crib.state.banner is not None and crib.state.banner.text("en") == "cut 1 undone"


def test_the_cut_reads_in_french(services: Services) -> None:
    session = Session(run(open_screen("cribbage"), AppState(), services), services)
    session.dispatch(set_players("Ana, Bob"))
    assert find(session.view(), "crib-cut").label == "Coupe pour la première donne : Ana, puis Bob"
    session.submit("crib-cut", "As 2s")
    assert find(session.view(), "crib-cut-0").value == (
        "coupe 1 : Ana A♠, Bob 2♠ : Ana a coupé la carte la plus basse et donne en premier"
    )
