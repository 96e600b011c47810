"""Fuzzing the table format (#17): whatever the JSON, a result or one line, never a traceback."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests.formats.fuzzing import check_clean, documents


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_any_document_gives_a_result_or_one_line(text: str) -> None:
    check_clean(text)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(documents)
def test_many_more_documents(text: str) -> None:
    check_clean(text)


@pytest.mark.parametrize(
    "text",
    ['{"\\n": null}', '{"board": "As", "players": [{"name": "A\\nB", "cards": 1}]}'],
)
def test_a_newline_in_the_input_never_splits_the_error(text: str) -> None:
    assert check_clean(text) is False
