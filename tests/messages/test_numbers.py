"""One number formatter per language: the French decimal comma written once, used everywhere."""

from __future__ import annotations

import ast
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.messages import text
from companion.messages.numbers import NUMBERS, numbers
from tests.helpers import ROOT

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e9, max_value=1e9)
corners = st.sampled_from([0.0, -0.0, 0.5, 0.05, 0.995, 1.0, 999.95, 1e6, -2.5, 1 / 3])


@given(st.one_of(corners, finite), st.integers(0, 4))
def test_a_french_decimal_is_the_english_one_with_a_comma(x: float, digits: int) -> None:
    english = numbers("en").decimal(x, digits)
    french = numbers("fr").decimal(x, digits)
    assert french == english.replace(".", ",")
    assert "." not in french
    # The number read back is the number rounded: the same value, only written otherwise.
    assert math.isclose(float(french.replace(",", ".")), round(x, digits), abs_tol=10**-digits)


@given(st.integers(-(10**12), 10**12))
def test_whole_numbers_group_their_thousands_in_each_language(n: int) -> None:
    assert int(numbers("en").whole(n).replace(",", "")) == n
    assert int(numbers("fr").whole(n).replace("\u202f", "")) == n


@pytest.mark.parametrize(
    ("lang", "p", "digits", "shown"),
    [
        ("en", 0.62, 0, "62%"),
        ("fr", 0.62, 0, "62 %"),
        ("fr", 0.0125, 2, "1,25 %"),
        ("en", 1.0, 1, "100.0%"),
        ("de", 0.5, 0, "50%"),  # an unknown language: English, as for messages
    ],
)
def test_percentages(lang: str, p: float, digits: int, shown: str) -> None:
    assert numbers(lang).percent(p, digits) == shown


def test_a_message_shows_a_decimal_the_readers_way() -> None:
    assert (
        text("upload_too_big", "fr", size=3.5, limit=15) == "Photo trop lourde (3,5 Mo, max 15 Mo)."
    )
    assert (
        text("upload_too_big", "en", size=3.5, limit=15) == "Photo too large (3.5 MB, max 15 MB)."
    )


def test_the_decimal_mark_is_written_once_per_language() -> None:
    # No module but the formatter swaps a decimal point for a language's mark.
    marks = {m.decimal_mark for m in NUMBERS.values()} - {"."}
    swaps = []
    for path in (ROOT / "companion").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", "") == "replace"
                and len(node.args) == 2
                and all(isinstance(a, ast.Constant) for a in node.args)
                and getattr(node.args[0], "value", None) == "."
                and getattr(node.args[1], "value", None) in marks
            ):
                swaps.append(str(path.relative_to(ROOT)))
    assert swaps == []
