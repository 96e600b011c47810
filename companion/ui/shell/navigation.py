"""Where the app starts and how it moves between screens (the night and history read again)."""

from __future__ import annotations

from dataclasses import replace

from companion.storage import NightStatus
from companion.ui.cribbage import actions as cribbage_actions
from companion.ui.history.actions import refresh_history
from companion.ui.kit.services import Action, Services
from companion.ui.night.actions import with_night
from companion.ui.shell.state import AppState

__all__ = [
    "initial_state",
    "open_screen",
]


def initial_state(services: Services, lang: str = "fr") -> AppState:
    """Resume the open night, if any, with its players and variant on the table."""
    state = AppState(lang=lang)
    status = services.log.resume_night()
    if status is not None:
        state = with_night(state, services, status, fresh_table=True)
    return refresh_history(replace(state, presets=services.log.presets()), services)


def open_screen(screen: str) -> Action[AppState]:
    """Go to a screen; the night and history are read again, as another phone may have
    saved a heist or started a night meanwhile."""

    def action(state: AppState, services: Services) -> AppState:
        state = state.go(screen)
        if state.screen == "cribbage":
            return cribbage_actions.resume_game(state, services)
        if state.screen not in ("night", "history", "showdown"):
            return state
        if state.night is not None:
            current: NightStatus | None = services.log.night_status(state.night.night.id)
        else:
            current = services.log.resume_night()
        if current is not None:
            table = state.table
            empty = not (table.river or any(table.hands))
            state = with_night(state, services, current, fresh_table=state.night is None and empty)
        return refresh_history(state, services)

    return action
