"""Opening a saved heist's replay, and running it street by street off the event loop.

``open_replay`` shows the replay screen at once (progress at 0); ``run_replay`` then rebuilds the
table from the game log and computes each street in a worker thread, dispatching the progress
(streets done, largest standard error so far) after each one, then the result. A result for a
replay the table has since closed (or swapped for another heist's) is dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial

from companion.engine.gang.replay.odds import (
    Replay,
    Settings,
    Street,
    find_mistakes,
    street_error,
    street_odds,
)
from companion.engine.gang.replay.stood import stood_streets
from companion.engine.gang.showdown import form_hands
from companion.engine.gang.table import Table
from companion.errors import CompanionError, TableError
from companion.formats.table import table_from_json
from companion.storage.model import thaw
from companion.ui.kit.banner import Banner
from companion.ui.kit.services import Action, Services
from companion.ui.replay.host import H
from companion.ui.replay.state import ReplayState

__all__ = [
    "SETTINGS",
    "open_replay",
    "close_replay",
    "show_view",
    "rebuild",
    "wanted",
    "run_replay",
]

# The sampled views (variants off the numpy path, two rivers) get half a second per street and
# view instead of the engine's two: the table waits a few seconds at most, error bars shown.
SETTINGS = Settings(budget_s=0.5)


def open_replay(night_id: int, heist_id: int | None = None) -> Action[H]:
    """Show the replay of a night's heist (by default its first alarm, else its last heist);
    ``run_replay`` fills it in."""

    def action(state: H, services: Services) -> H:
        heists = services.log.heists(night_id)
        alarms = [h for h in heists if not h.verdict.opens]
        if heist_id is not None:
            heist = next((h for h in heists if h.id == heist_id), None)
        else:
            heist = alarms[0] if alarms else (heists[-1] if heists else None)
        if heist is None:  # undone meanwhile, from another phone
            return state.with_banner(Banner.of("replay_gone"))
        return state.with_replay(ReplayState.of(heist, heists)).with_banner(None)

    return action


def close_replay(state: H, _services: Services) -> H:
    return state.with_replay(None)


def show_view(view: str) -> Action[H]:
    return lambda state, _services: state.with_replay(
        state.replay.with_view(view) if state.replay else None
    )


def _update(job: ReplayState, change: Callable[[ReplayState], ReplayState]) -> Action[H]:
    """Apply ``change`` to the replay shown, if it is still this job's."""

    def action(state: H, _services: Services) -> H:
        if not wanted(job, state) or state.replay is None:
            return state
        return state.with_replay(change(state.replay))

    return action


def rebuild(job: ReplayState, services: Services) -> tuple[Table, dict[str, int] | None]:
    """The heist's table from the game log, and its final tokens when every hand has one."""
    heist = next((h for h in services.log.heists(job.night_id) if h.id == job.heist_id), None)
    if heist is None:
        raise TableError("replay.undone", n=job.number)
    if heist.deal is None:
        raise TableError("replay.no_deal", n=job.number)
    try:
        table = table_from_json(thaw(heist.deal))
        hands = form_hands(table)  # checks the table as the showdown does
    except CompanionError as error:  # a deal saved before every card was kept
        raise TableError("replay.cannot", n=job.number, error=error.phrase) from None
    return table, job.recorded_tokens({h.id: h for h in hands})


def wanted(job: ReplayState, state: H | None) -> bool:
    """Whether the table still waits for this job (not closed, not swapped for another heist)."""
    shown = state.replay if state is not None else None
    return shown is not None and shown.heist_id == job.heist_id and shown.running


async def run_replay(
    job: ReplayState,
    services: Services,
    dispatch: Callable[[Action[H]], None],
    settings: Settings = SETTINGS,
    still_wanted: Callable[[], bool] = lambda: True,
) -> None:
    """Compute the replay one street at a time in a worker thread, reporting each step.

    ``still_wanted`` is asked between streets: a replay closed meanwhile stops there, so an
    exotic variant's seconds of work are not spent for nobody on the server's few cores.
    """
    try:
        table, tokens = await asyncio.to_thread(rebuild, job, services)
        streets = []
        for street in Street:
            if not still_wanted():
                return
            recorded = tokens if street is Street.RIVER else None  # only the final ones are kept
            streets.append(await asyncio.to_thread(street_odds, table, street, settings, recorded))
            done, error = len(streets), street_error(streets[-1])
            dispatch(_update(job, partial(ReplayState.with_streets_done, n=done, std_error=error)))
        found = tuple(streets)
        final = {Street.RIVER.value: tokens} if tokens is not None else None
        stood = await asyncio.to_thread(stood_streets, table, final)
        replay = Replay(form_hands(table), found, find_mistakes(found), stood)
        dispatch(_update(job, partial(ReplayState.finished, replay=replay)))
    except CompanionError as error:
        dispatch(_update(job, partial(ReplayState.failed, error=error)))
