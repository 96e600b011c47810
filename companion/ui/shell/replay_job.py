"""A replay opened on some heist, computed street by street in worker threads while shown."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.ui.kit.services import Services
from companion.ui.kit.widgets import Dispatch
from companion.ui.replay.actions import run_replay, wanted
from companion.ui.shell.state import AppState

__all__ = ["use_replay_job"]


def use_replay_job(
    state: AppState,
    services: Services,
    dispatch: Dispatch[AppState],
    now: Callable[[], AppState],
) -> None:
    """Run the replay shown, once per heist opened; it stops once ``now`` no longer shows it."""
    replay_job = state.replay if state.replay is not None and state.replay.running else None
    replay_key = None if replay_job is None else replay_job.heist_id

    async def compute_replay() -> None:
        if replay_job is not None:
            await run_replay(
                replay_job,
                services,
                dispatch,
                still_wanted=lambda: wanted(replay_job, now()),
            )

    ft.use_effect(compute_replay, [replay_key])
