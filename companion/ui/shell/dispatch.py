"""How the app runs an action on its state: a player-facing error becomes a banner, a bug is
logged and shown while the page keeps working."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.errors import CompanionError
from companion.ui.kit.banner import Banner
from companion.ui.kit.services import Action, Services
from companion.ui.kit.widgets import Dispatch
from companion.ui.shell.state import AppState

logger = logging.getLogger(__name__)

__all__ = ["run", "dispatcher"]


def run(action: Action[AppState], state: AppState, services: Services) -> AppState:
    """Apply an action; a player-facing error leaves the state as it was, with a banner.

    A table photo the action let go (a new table, another photo past the one kept for an undo,
    the heist saved) is removed unless a heist keeps it: unsaved photos do not pile up in the
    data folder.
    """
    try:
        after = action(state, services)
    except CompanionError as error:
        return state.with_banner(Banner.of_error(error))
    for dropped in state.table.photos() - after.table.photos():
        services.log.discard_photo(dropped)
    return after


def dispatcher(services: Services, set_state: Callable[[Any], None]) -> Dispatch[AppState]:
    """The page's ``dispatch``: each action runs on the state as it is when its turn comes."""

    def dispatch(action: Action[AppState]) -> None:
        def step(current: AppState) -> AppState:
            try:
                return run(action, current, services)
            except Exception as error:  # a bug: logged, shown, and the page keeps working
                logger.exception("an action failed")
                return current.with_banner(
                    Banner.of("bug", error=f"{type(error).__name__}: {error}")
                )

        set_state(step)

    return dispatch
