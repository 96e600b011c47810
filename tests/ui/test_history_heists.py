"""History shows a past night's heists as they were on the table: every hole card of every
hand, who sat out, the tokens and the verdict; from a real game log, saved by the app's own
save path."""

from __future__ import annotations

from companion.engine.gang.showdown import run_showdown
from companion.formats.table import table_from_json
from companion.ui.history.actions import show_heists
from companion.ui.kit.services import Services
from companion.ui.shell.dispatch import run
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import heist_draft
from tests.ui.screens import shown


def test_a_past_nights_heists_show_full_hands_and_who_sat_out(services: Services) -> None:
    table = table_from_json(
        {
            "board": ["As", "Kd", "Qh", "7c", "2s"],
            "players": [
                {"name": "Ann", "cards": ["Th", "5s"]},
                {"name": "Bob", "cards": ["Jh", "3d"]},
            ],
        }
    )
    tokens = {"Ann": 1, "Bob": 2}
    night = services.log.start_night(("Ann", "Bob", "Cy"), "classic")
    services.log.save_heist(night.id, heist_draft(table, tokens, run_showdown(table, tokens), None))
    state = AppState(lang="en", screen="history").with_history_of(services.log)
    assert "Sitting out: Cy" not in list(shown(root_view(state, print)))
    opened = run(show_heists(night.id), state, services)
    words = list(shown(root_view(opened, print)))
    assert "Sitting out: Cy" in words and "Heist 1: vault" in words
    assert {"Ann #1", "10♥", "5♠", "Bob #2", "J♥", "3♦"} <= set(words)
    closed = run(show_heists(night.id), opened, services)
    assert closed.history_night is None
