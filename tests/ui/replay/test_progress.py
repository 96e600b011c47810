"""The replay screen while it computes: each street's progress and largest standard error,
dispatched from the worker thread, and shown by the running view."""

from __future__ import annotations

import asyncio
import threading

from companion.engine.gang.replay.odds import street_error
from companion.ui.kit.services import Action, Services
from companion.ui.replay.actions import run_replay
from companion.ui.shell.dispatch import run
from companion.ui.shell.root import root_view
from tests.ui.replay.test_screen import CASES, Recorder, _judged, _open, _saved, _table
from tests.ui.screens import find


def test_progress_carries_each_street_error_and_the_view_shows_it(services: Services) -> None:
    state = _saved(services, _judged(_table(*CASES["two-of-four"])))
    opened = run(_open(state.heists[-1]), state, services)
    assert opened.replay is not None
    recorder = Recorder(opened, services)
    asyncio.run(run_replay(opened.replay, services, recorder.dispatch))
    running = [s for s in recorder.seen if s.replay is not None and s.replay.running]
    errors = [s.replay.std_error for s in running if s.replay is not None]
    assert errors[0] == 0 and all(0 < e <= 0.005 for e in errors[1:])  # own cards: sampled
    final = recorder.state.replay
    assert final is not None and final.replay is not None
    assert errors[-1] == max(street_error(odds) for odds in final.replay.streets)
    shown = find(root_view(running[-1], lambda action: None), "replay-error-bar").value
    assert f"{100 * errors[-1]:.2f}".replace(".", ",") in str(shown)  # French by default


def test_the_streets_are_computed_off_the_event_loop(services: Services) -> None:
    state = _saved(services, _judged(_table(*CASES["classic"])))
    opened = run(_open(state.heists[-1]), state, services)
    assert opened.replay is not None
    loop_thread = threading.get_ident()
    ticks: list[int] = []

    async def main() -> None:
        async def heartbeat() -> None:  # the screen's loop keeps running meanwhile
            while True:
                ticks.append(threading.get_ident())
                await asyncio.sleep(0.001)

        beat = asyncio.create_task(heartbeat())
        recorder = Recorder(opened, services)

        def dispatch(action: Action) -> None:
            assert threading.get_ident() == loop_thread  # results come back on the loop
            recorder.dispatch(action)

        await run_replay(opened.replay, services, dispatch)  # type: ignore[arg-type]
        beat.cancel()

    asyncio.run(main())
    assert len(ticks) > 4 and set(ticks) == {loop_thread}
