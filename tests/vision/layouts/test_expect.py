"""What a table should hold (``layouts.expect``) and what the grouping reports against it."""

import numpy as np
import pytest

from companion.errors import InputError
from companion.vision import Detections
from companion.vision.layouts.expect import Expect, Fit, parse_expect
from companion.vision.layouts.gang import group_table
from tests.vision.layouts.test_gang import TABLE, _at


@pytest.mark.parametrize(
    ("text", "want"),
    [("5+4x2", Expect(5, 4, 2)), ("5+3x4", Expect(5, 3, 4)), (" 3 + 2 X 2 ", Expect(3, 2, 2))]
    + [("5+0x2", Expect(5, 0, 2))],
)
def test_layouts_parse(text: str, want: Expect) -> None:
    assert parse_expect(text) == want
    assert str(want) == str(parse_expect(str(want)))


@pytest.mark.parametrize("text", ["", "5+4", "5x2", "6+4x2", "0+0x2", "5+13x2", "5+4x7", "a+b"])
def test_a_bad_layout_is_named(text: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_expect(text)
    assert "is not a table layout" in caught.value.message("en")
    assert text.strip()[:10] in caught.value.message("en")


def test_a_table_that_fits_reports_nothing_missing() -> None:
    groups = group_table(_at(TABLE), Expect(5, 2, 2))
    assert groups.missing == Fit(0, (0, 0))
    assert groups.extra == Fit(0, (0, 0))
    assert groups.stray == ()
    assert groups.fits


def test_without_an_expect_nothing_is_counted() -> None:
    groups = group_table(_at(TABLE))
    assert groups.missing is None and groups.extra is None
    assert not groups.fits


def test_a_hand_short_of_a_card_and_a_hand_not_found_are_counted() -> None:
    short = {c: p for c, p in TABLE.items() if c != "Kh"}
    groups = group_table(_at(short), Expect(5, 3, 2))
    assert groups.missing is not None
    assert groups.missing.river == 0
    assert sorted(groups.missing.hands) == [0, 1, 2]
    assert not groups.fits


def test_a_lone_card_past_the_expected_hands_is_stray() -> None:
    edge = {**TABLE, "Ad": (1400, 900)}
    groups = group_table(_at(edge), Expect(5, 2, 2))
    assert [str(s.card) for s in groups.stray] == ["Ad"]
    assert len(groups.hands) == 2
    assert not groups.fits


def test_reads_under_the_check_line_or_flagged_by_the_reader_are_to_check() -> None:
    detections = _at(TABLE)  # every read at 0.9, under CHECK_BELOW
    assert all(seen.check for seen in group_table(detections).river)
    flagged = np.arange(len(detections)) == 0
    sure = Detections(
        detections.cards, np.full(len(detections), 0.99), detections.xyxy, detections.quads, flagged
    )
    placed = [*group_table(sure).river, *(s for h in group_table(sure).hands for s in h)]
    assert [seen.index for seen in placed if seen.check] == [0]
    assert sure[np.array([1, 0])].check.tolist() == [False, True]
