"""The replay screen's view by the hands as they stood (issue #43) on a real SQLite game log:
each street's order as the engine gives it, the final tokens judged at the river, both
languages."""

from __future__ import annotations

from dataclasses import replace

import flet as ft

from companion.engine.gang.replay.records import Street
from companion.engine.gang.replay.stood import stood_street
from companion.engine.gang.replay.words import stood_hand_text, stood_token_lines
from companion.engine.gang.table import Table
from companion.formats.table import table_from_json
from companion.storage.model import thaw
from companion.ui.kit.services import Services
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from tests.ui.replay.test_screen import CASES, _judged, _replayed, _saved, _table
from tests.ui.screens import Session, find, texts


def _stood_session(services: Services, tokens: tuple[str, ...]) -> tuple[Session, dict[str, int]]:
    table = _judged(_table(*CASES["classic"]), tokens)
    recorder = _replayed(services, _saved(services, table))
    session = Session(recorder.state, services)
    session.tap("replay-view-stood")
    return session, dict(table.token_map())


def _page(state: AppState, lang: str) -> ft.Control:
    return root_view(replace(state, lang=lang), lambda action: None)


def _deal(session: Session) -> Table:
    """The saved heist's table, as the replay rebuilds it from the log."""
    heist = session.state.heists[-1]
    assert heist.deal is not None
    return table_from_json(thaw(heist.deal))


def test_the_stood_view_shows_each_street_as_the_engine_orders_it(services: Services) -> None:
    # Ana's aces took token 1: wrong at the river, where Bob's ace high is the weakest.
    session, tokens = _stood_session(services, ("Ana", "Bob", "Cy"))
    replay = session.state.replay
    assert replay is not None and replay.view == "stood" and not replay.by_odds
    assert isinstance(find(session.view(), "replay-view-stood"), ft.Button)
    assert replay.replay is not None
    table = replay.replay
    for lang in ("en", "fr"):
        page = _page(session.state, lang)
        for street, stood in zip(Street, table.stood, strict=True):
            final = tokens if street is Street.RIVER else None
            assert stood == stood_street(_deal(session), street, final)
            for hand in stood.hands:
                row = texts(find(page, f"replay-stood-{street.value}-{hand.hand.id}"))
                assert row[0] == stood_hand_text(hand, lang)
            block = texts(find(page, f"replay-stood-{street.value}"))
            for line in stood_token_lines(stood, lang):
                assert line[:1].upper() + line[1:] in block
    ana = find(_page(session.state, "en"), "replay-stood-river-Ana-token")
    assert ana.value == "token 1" and ana.color is not None  # it does not fit: in red
    bob = find(_page(session.state, "en"), "replay-stood-river-Bob-token")
    assert bob.value == "token 2" and bob.color is not None
    assert "replay-mistakes" not in [getattr(c, "key", None) for c in find(page, "replay").controls]


def test_preflop_stands_on_the_hole_cards_alone(services: Services) -> None:
    session, _ = _stood_session(services, ("Bob", "Cy", "Ana"))
    page = _page(session.state, "en")
    pre = [texts(find(page, f"replay-stood-preflop-{who}"))[0] for who in ("Cy", "Bob", "Ana")]
    assert pre == ["1 Cy (three high)", "2 Bob (ten high)", "3 Ana (pair of aces)"]
    river = [texts(find(page, f"replay-stood-river-{who}"))[0] for who in ("Bob", "Cy", "Ana")]
    assert river == ["1 Bob (ace high)", "2 Cy (pair of twos)", "3 Ana (three aces)"]
    assert find(page, "replay-stood-river-judged-0").value == (
        "The tokens follow the hands as they stood"
    )
    french = _page(session.state, "fr")
    assert texts(find(french, "replay-stood-preflop-Ana"))[0] == "3 Ana (paire d'as)"
