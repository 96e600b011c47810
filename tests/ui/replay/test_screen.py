"""The heist replay on a real SQLite game log: open it from the night, run it, read the charts."""

from __future__ import annotations

import asyncio
import math
from dataclasses import replace

import flet as ft
import pytest

from companion.engine.gang.replay.odds import Street, best_tokens, chart_data, replay_table
from companion.engine.gang.replay.words import (
    best_tokens_words,
    method_text,
    mistake_text,
    street_name,
)
from companion.errors import TableError
from companion.formats.table import table_from_json
from companion.storage import Heist, HeistDraft, Verdict
from companion.storage.legacy import old_deal
from companion.storage.model import thaw
from companion.ui.kit.services import Action, Services
from companion.ui.night.actions import close_night, start_night
from companion.ui.replay.actions import SETTINGS, close_replay, open_replay, run_replay, wanted
from companion.ui.replay.state import STREETS, ReplayState
from companion.ui.shell.dispatch import run
from companion.ui.shell.navigation import open_screen
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import save_heist
from companion.ui.showdown.state import RIVER, ShowdownState
from tests.ui.screens import Session, find, texts, walk

PLAYERS = ("Ana", "Bob", "Cy")
RIVER_CARDS = "As Kd Qh 7c 2s"


def _table(
    variant: str,
    hands: tuple[str, ...],
    players: tuple[str, ...] = PLAYERS,
    two_rivers: bool = False,
) -> ShowdownState:
    table = ShowdownState(players, variant=variant).with_two_rivers(two_rivers)
    table = table.with_cards_text(RIVER, RIVER_CARDS)
    if two_rivers:
        table = table.with_cards_text(-2, "3d 4d 5h 8s 9c")
    for i, text in enumerate(hands):
        table = table.with_cards_text(i, text)
    return table


def _judged(table: ShowdownState, tokens: tuple[str, ...] | None = None) -> ShowdownState:
    """Tokens in the given hand order, or in seating order when none is given."""
    for hand in tokens or tuple(hid for hid, _ in table.hand_ids()):
        table = table.tap_hand(hand)
    return table


def _saved(services: Services, table: ShowdownState) -> AppState:
    """A night of the table's variant with the table saved as its heist 1."""
    state = AppState(
        table=ShowdownState(
            table.players, variant=table.variant, rules=table.rules, two_rivers=table.two_rivers
        )
    )
    state = run(start_night, state, services)
    state = run(save_heist, state.with_table(table), services)
    assert state.banner is not None and state.banner.key == "heist_saved", state.banner
    return state


def _open(heist: Heist) -> Action:
    return open_replay(heist.night_id, heist.id)


class Recorder:
    """What the app's component does with dispatched actions: apply them in order."""

    def __init__(self, state: AppState, services: Services) -> None:
        self.state, self.services, self.seen = state, services, [state]

    def dispatch(self, action: Action) -> None:
        self.state = run(action, self.state, self.services)
        self.seen.append(self.state)


def _replayed(services: Services, state: AppState) -> Recorder:
    """Open the replay of the night's last heist and run it to the end."""
    state = run(_open(state.heists[-1]), state, services)
    recorder = Recorder(state, services)
    assert state.replay is not None
    asyncio.run(run_replay(state.replay, services, recorder.dispatch))
    return recorder


def _expected_chart(table: ShowdownState) -> dict[str, dict[str, dict[str, list[float]]]]:
    tokens = table.token_map()
    return chart_data(
        replay_table(table.check.table, {"river": tokens} if tokens else None, SETTINGS)
    )


CASES = {
    "classic": ("classic", ("Ah Ad", "Th 9h", "3c 2c"), PLAYERS, False),
    "classic-two-rivers": ("classic", ("Ah Ad", "Th 9h", "3c 2c"), PLAYERS, True),
    "two-of-four": ("two-of-four", ("Ah Ad 6c 5c", "Th 9h 8d 8c", "3c 2c Jh Js"), PLAYERS, False),
}


@pytest.mark.parametrize("case", CASES)
def test_replay_of_a_saved_heist_matches_the_engine_and_sums_to_one(
    services: Services, case: str
) -> None:
    variant, hands, players, two_rivers = CASES[case]
    table = _judged(_table(variant, hands, players, two_rivers))
    recorder = _replayed(services, _saved(services, table))
    replay = recorder.state.replay
    assert replay is not None and not replay.running and not replay.error
    expected = _expected_chart(table)
    for view in ("everyone", "own"):
        charts = replay.with_view(view).charts()
        assert {c.hand_id for c in charts} == set(expected)
        for chart in charts:
            assert [b.street for b in chart.streets] == list(Street)
            for bars in chart.streets:
                assert math.isclose(sum(bars.positions), 1.0, abs_tol=1e-9)
                assert list(bars.positions) == expected[chart.hand_id][view][bars.street.value]
            assert chart.token == dict(table.token_map())[chart.hand_id]


def test_progress_is_reported_street_by_street(services: Services) -> None:
    table = _judged(_table(*CASES["classic"]))
    recorder = _replayed(services, _saved(services, table))
    shown = [s.replay for s in recorder.seen]
    assert [r.streets_done for r in shown if r is not None and r.running] == [0, 1, 2, 3, 4]
    assert [r.progress for r in shown if r is not None] == [0.0, 0.25, 0.5, 0.75, 1.0, 1.0]


def test_wrong_final_tokens_are_told_in_both_languages(services: Services) -> None:
    # Ana's trips took token 1, Cy's pair token 3: both wrong at the river, Bob's 2 too.
    table = _judged(_table(*CASES["classic"]), ("Ana", "Bob", "Cy"))
    recorder = _replayed(services, _saved(services, table))
    replay = recorder.state.replay
    assert replay is not None
    mistakes = replay.mistakes()
    assert {(m.hand_id, m.token, m.most_likely) for m in mistakes} == {
        ("Ana", 1, 3),
        ("Cy", 3, 2),
        ("Bob", 2, 1),
    }
    assert all(m.street is Street.RIVER for m in mistakes)
    for lang in ("fr", "en"):
        page = root_view(replace(recorder.state, lang=lang), lambda action: None)
        shown = texts(find(page, "replay-mistakes"))
        for mistake in mistakes:
            assert mistake_text(mistake, lang) in shown


def test_right_tokens_show_no_mistake(services: Services) -> None:
    table = _judged(_table(*CASES["classic"]), ("Bob", "Cy", "Ana"))
    recorder = _replayed(services, _saved(services, table))
    page = root_view(recorder.state, lambda action: None)
    assert find(page, "replay-no-mistake").value


def test_tap_replay_in_the_night_opens_it_and_close_goes_back(services: Services) -> None:
    state = _saved(services, _judged(_table(*CASES["classic"])))
    session = Session(state.go("night"), services)
    session.state = replace(session.state, heists=state.heists, night=state.night)
    session.tap("replay-1")
    assert session.state.replay is not None and session.state.replay.running
    page = session.view()
    assert find(page, "replay-progress").value == 0.0
    assert find(page, "nav").selected_index == 1  # still under the night
    session.tap("replay-close")
    assert session.state.replay is None
    find(session.view(), "undo")


def test_view_toggle_shows_own_cards_odds(services: Services) -> None:
    recorder = _replayed(services, _saved(services, _judged(_table(*CASES["classic"]))))
    session = Session(recorder.state, services)
    session.tap("replay-view-own")
    replay = session.state.replay
    assert replay is not None and replay.view == "own"
    pre = replay.charts()[0].streets[0]
    assert pre.positions == tuple(replay.replay.streets[0].own[0].positions)  # type: ignore
    assert isinstance(find(session.view(), "replay-view-own"), ft.Button)


def test_bars_are_drawn_to_scale_with_the_most_likely_darker(services: Services) -> None:
    recorder = _replayed(services, _saved(services, _judged(_table(*CASES["classic"]))))
    replay = recorder.state.replay
    assert replay is not None
    page = root_view(recorder.state, lambda action: None)
    from companion.ui.replay.view import BAR_HEIGHT

    for chart in replay.charts():
        for bars in chart.streets:
            for k, p in enumerate(bars.positions, start=1):
                bar = find(page, f"replay-{chart.hand_id}-{bars.street.value}-{k}")
                assert bar.height == max(2, round(p * BAR_HEIGHT))
                assert (bar.bgcolor == ft.Colors.INDIGO_700) == (k == bars.most_likely)


def test_a_result_for_a_closed_replay_is_dropped(services: Services) -> None:
    state = _saved(services, _judged(_table(*CASES["classic"])))
    opened = run(_open(state.heists[0]), state, services)
    assert opened.replay is not None
    recorder = Recorder(run(close_replay, opened, services), services)
    asyncio.run(run_replay(opened.replay, services, recorder.dispatch))
    assert recorder.state.replay is None


def test_going_to_another_screen_closes_the_replay(services: Services) -> None:
    state = _saved(services, _judged(_table(*CASES["classic"])))
    opened = run(_open(state.heists[0]), state, services)
    assert run(open_screen("history"), opened, services).replay is None


def test_an_undone_heist_cannot_be_opened_or_run(services: Services) -> None:
    state = _saved(services, _judged(_table(*CASES["classic"])))
    opened = run(_open(state.heists[0]), state, services)
    services.log.undo_last_heist(state.heists[0].night_id)
    recorder = _replay_run(opened, services)
    replay = recorder.state.replay
    assert replay is not None and replay.error and "1" in replay.error_text("fr")
    assert find(root_view(recorder.state, lambda action: None), "replay-error").value
    gone = run(open_replay(state.heists[0].night_id, 12345), state, services)
    assert gone.replay is None and gone.banner is not None and gone.banner.key == "replay_gone"


def _replay_run(state: AppState, services: Services) -> Recorder:
    recorder = Recorder(state, services)
    assert state.replay is not None
    asyncio.run(run_replay(state.replay, services, recorder.dispatch))
    return recorder


def test_a_heist_missing_a_players_cards_says_whose(services: Services) -> None:
    # High-low keeps the cards each hand used: a card no hand used is lost with the heist.
    state = AppState(table=ShowdownState(PLAYERS, variant="high-low"))
    state = run(start_night, state, services)
    assert state.night is not None
    hands = {
        "Ana/high": ("Ah", "Ad"),
        "Ana/low": ("Ah", "3d"),
        "Bob/high": ("Th", "9h"),
        "Bob/low": ("8d", "8c"),
        "Cy/high": ("3c", "2c"),
        "Cy/low": ("Jh", "Js"),
    }
    owners = {h: h.split("/")[0] for h in hands}
    # As a game log written before heists kept their deal holds it, once migrated.
    deal = old_deal("high-low", {}, PLAYERS, RIVER_CARDS.split(), None, hands, owners)
    draft = HeistDraft(
        river=tuple(RIVER_CARDS.split()),
        hands=hands,
        owners=owners,
        tokens={},
        verdict=Verdict(False),
        deal=deal,
    )
    services.log.save_heist(state.night.night.id, draft)
    state = run(open_screen("night"), state, services)
    recorder = _replayed(services, state)
    assert recorder.state.replay is not None
    assert recorder.state.replay.error_text("en") == (
        "heist 1 cannot be replayed: Ana has 3 cards; high-low deals 4"
    )


def test_francois_and_circular_tables_come_back_whole(services: Services) -> None:
    francois = _table("francois", ("Ah Ad 4c", "Th 9h 8d", "3c 2c Js"))
    for i, card in enumerate(("5d", "6h", "Jh")):
        francois = francois.with_francois_text(i, card)
    circular = _table("circular", ("Ah Ad", "Th 9h", "3c 2c"))
    for i, cards in enumerate(("5d 6d", "6h 6c", "Jh Jd")):
        circular = circular.with_shared_text(i, cards)
    for table in (_judged(francois), _judged(circular)):
        state = _saved(services, table)
        deal = state.heists[-1].deal
        assert deal is not None and table_from_json(thaw(deal)) == table.check.table
        run(close_night, state, services)


@pytest.mark.parametrize(
    ("variant", "hands", "two_rivers"),
    [
        # Cy's 3c 2c 4h 5s: sub-hands that leave a hole card unused must not lose it.
        ("four-two-hands", ("Ah Ad 9c 9d", "Th 9h 8d 8h", "3c 2c 4h 5s"), False),
        ("high-low", ("Ah Ad 9c 9d", "Th 9h 8d 8h", "3c 2c 4h 5s"), False),
        ("classic", ("Ah Ad", "Th 9h", "3c 2c"), True),
    ],
)
def test_split_variants_keep_every_hole_card(
    services: Services, variant: str, hands: tuple[str, ...], two_rivers: bool
) -> None:
    table = _judged(_table(variant, hands, two_rivers=two_rivers))
    state = _saved(services, table)
    deal = state.heists[-1].deal
    assert deal is not None
    for player, cards in zip(table_from_json(thaw(deal)).players, hands, strict=True):
        assert sorted(map(str, player.cards)) == sorted(cards.split()), player.name
    run(close_night, state, services)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_replay_screen_builds_in_each_phase(lang: str) -> None:
    base = AppState(lang=lang).go("night")
    running = ReplayState(heist_id=1, number=4, night_id=1)
    failed = running.failed(TableError("replay.undone", n=4))
    for replay in (running, running.with_streets_done(3), failed):
        page = root_view(base.with_replay(replay), lambda action: None)
        list(walk(page))
        assert any("4" in text for text in texts(find(page, "replay")))
    assert find(root_view(base.with_replay(failed), lambda a: None), "replay-error").value == (
        "la manche 4 a été annulée" if lang == "fr" else "heist 4 was undone"
    )
    assert len(STREETS) == 4


def test_each_hand_says_its_expected_and_likeliest_position_by_street(services: Services) -> None:
    recorder = _replayed(services, _saved(services, _judged(_table(*CASES["classic"]))))
    replay = recorder.state.replay
    assert replay is not None and replay.replay is not None
    page = root_view(replace(recorder.state, lang="en"), lambda action: None)
    for odds_at_river in replay.replay.streets[-1].everyone:  # known at the river: 1, 2 or 3
        summary = find(page, f"replay-{odds_at_river.hand_id}-summary").value
        assert summary.endswith(f"· {odds_at_river.most_likely}")
        assert f"· {odds_at_river.most_likely}.0, most likely" in summary
    methods = texts(find(page, "replay-methods"))
    assert len(methods) == 4 and all("exact" in line or "known" in line for line in methods)


def test_sampled_streets_state_their_samples_and_error(services: Services) -> None:
    # Two rivers before the turn are sampled on the numpy path: the screen says so.
    table = _judged(_table(*CASES["classic-two-rivers"]))
    recorder = _replayed(services, _saved(services, table))
    replay = recorder.state.replay
    assert replay is not None
    methods = dict(replay.methods())
    assert not methods[Street.PREFLOP].exact and methods[Street.PREFLOP].std_error > 0
    assert methods[Street.RIVER].exact
    shown = texts(find(root_view(recorder.state, lambda action: None), "replay-methods"))
    assert any("Monte-Carlo" in line for line in shown)
    # The best tokens' chance before the turn is sampled too: its block says how.
    best = dict(replay.best_tokens())
    assert not best[Street.PREFLOP].method.exact and best[Street.RIVER].method.exact
    for lang in ("en", "fr"):
        local = replace(recorder.state, lang=lang)
        assert method_text(best[Street.PREFLOP].method, lang) in _best_block(local, Street.PREFLOP)
        assert not any(
            method_text(best[Street.RIVER].method, lang) in line
            for line in _best_block(local, Street.RIVER)
        )


def test_closing_the_replay_stops_it_before_the_next_street(services: Services) -> None:
    state = _saved(services, _judged(_table(*CASES["classic"])))
    opened = run(_open(state.heists[0]), state, services)
    job = opened.replay
    assert job is not None
    recorder = Recorder(opened, services)
    asked = []

    def still_wanted() -> bool:
        asked.append(recorder.state.replay.streets_done if recorder.state.replay else None)
        if len(asked) == 2:  # the table closes the replay while the flop is computed
            recorder.dispatch(close_replay)
        return wanted(job, recorder.state)

    asyncio.run(run_replay(job, services, recorder.dispatch, still_wanted=still_wanted))
    assert asked == [0, 1]
    assert recorder.state.replay is None
    assert [s.replay.streets_done for s in recorder.seen if s.replay] == [0, 1]


def test_a_past_night_replays_from_history_starting_at_its_first_alarm(services: Services) -> None:
    state = _saved(services, _judged(_table(*CASES["classic"]), ("Bob", "Cy", "Ana")))
    alarm = _judged(_table(*CASES["classic"]), ("Ana", "Bob", "Cy"))
    state = run(save_heist, state.with_table(alarm), services)
    state = run(close_night, state, services)
    session = Session(state.go("history"), services)
    night = state.history[0].night.id
    session.tap(f"replay-night-{night}")
    replay = session.state.replay
    assert replay is not None and replay.number == 2  # heist 1 opened the vault, 2 did not
    assert [n for _, n, _ in replay.night_heists] == [1, 2]
    assert find(session.view(), "nav").selected_index == 2  # still under the history
    session.tap("replay-pick-1")
    assert session.state.replay is not None and session.state.replay.number == 1
    assert session.state.replay.running


def test_a_night_without_heists_offers_no_replay(services: Services) -> None:
    state = AppState(table=ShowdownState(PLAYERS))
    state = run(start_night, state, services)
    state = run(close_night, state, services)
    page = root_view(state.go("history"), lambda action: None)
    with pytest.raises(LookupError):
        find(page, f"replay-night-{state.history[0].night.id}")
    gone = run(open_replay(state.history[0].night.id), state, services)
    assert gone.replay is None and gone.banner is not None and gone.banner.key == "replay_gone"


def _best_block(state: AppState, street: Street) -> list[str]:
    return texts(find(root_view(state, lambda action: None), f"replay-best-{street.value}"))


@pytest.mark.parametrize(
    ("lang", "river"),
    [
        # At the river every card is known: Bob's ace high, Cy's pair, Ana's trips, surely.
        (
            "en",
            [
                "river",
                "1 Bob",
                "2 Cy",
                "3 Ana",
                "The vault opens 100% of the time",
                "With the tokens taken: 0%",
            ],
        ),
        (
            "fr",
            [
                "river",
                "1 Bob",
                "2 Cy",
                "3 Ana",
                "Le coffre s'ouvre 100 % du temps",
                "Avec les jetons pris : 0 %",
            ],
        ),
    ],
)
def test_each_street_shows_its_best_tokens_and_the_chance_of_those_taken(
    services: Services, lang: str, river: list[str]
) -> None:
    table = _judged(_table(*CASES["classic"]), ("Ana", "Bob", "Cy"))  # all three wrong
    recorder = _replayed(services, _saved(services, table))
    state = replace(recorder.state, lang=lang)
    assert state.replay is not None and state.replay.replay is not None
    assert _best_block(state, Street.RIVER) == river
    for street, best in state.replay.best_tokens():
        expected = best_tokens(table.check.table, street, SETTINGS)
        assert dict(best.tokens) == dict(expected.tokens)
        words = best_tokens_words(best, lang)
        shown = _best_block(state, street)
        assert shown[0] == street_name(street, lang)
        assert shown[1:4] == list(words.tokens)  # one tile per hand, token order
        assert shown[4] == words.opens[0].upper() + words.opens[1:]
        if street is not Street.RIVER:  # the app keeps the final tokens only
            assert len(shown) == 5 and best.recorded_p_open is None
    # The block is the same whichever view the charts show: it knows every hole card.
    own = state.with_replay(state.replay.with_view("own"))
    for street in Street:
        assert _best_block(own, street) == _best_block(state, street)
    # Phone width: the tiles wrap, and nothing in the block is drawn wider than the screen.
    page = root_view(state, lambda action: None)
    assert find(page, "replay-best-preflop-tokens").wrap
    assert all((getattr(c, "width", None) or 0) <= 390 for c in walk(find(page, "replay-best")))


def test_a_best_not_proven_says_so(services: Services) -> None:
    recorder = _replayed(services, _saved(services, _judged(_table(*CASES["classic"]))))
    shown = recorder.state.replay
    assert shown is not None and shown.replay is not None
    streets = shown.replay.streets
    # Ties too many to list (eight hands playing the board) leave the search unproven; here
    # the flop's result is marked so, as the engine would.
    cut = tuple(
        replace(o, best=replace(o.best, complete=False)) if o.street is Street.FLOP else o
        for o in streets
    )  # type: ignore[arg-type]
    state = recorder.state.with_replay(shown.finished(replace(shown.replay, streets=cut)))
    for lang, mark in (
        ("en", "The best found, not proven best"),
        ("fr", "Le meilleur trouvé, sans preuve qu'il n'y a pas mieux"),
    ):
        local = replace(state, lang=lang)
        assert mark in _best_block(local, Street.FLOP)
        assert mark not in _best_block(local, Street.TURN)
