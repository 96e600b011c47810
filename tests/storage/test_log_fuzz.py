"""Fuzzing a damaged heist in a log an older release wrote (#53): whatever its deal, hands and
owners hold, the log opens with that heist named and left out, or its upgrade is refused in one
line with the file left as it was; never a traceback."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings

from tests.storage.fuzzing import HANDS, OWNERS, check_log, row


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(row)
# Found by this test: a variant that is a list stopped the upgrade ("unhashable type").
@example(('{"variant": []}', HANDS, OWNERS))
# A hand whose cards are a number: the upgrade refuses, naming the heist.
@example(('{"players": [{"name": "Bob", "cards": 5}]}', HANDS, OWNERS))
def test_any_damaged_heist_is_named_or_its_upgrade_refused(
    columns: tuple[str | None, str, str],
) -> None:
    check_log(*columns)
