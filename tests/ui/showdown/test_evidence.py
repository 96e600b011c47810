"""Each doubt's evidence where the player looks: a doubtful read's crops and the reader's next
reads as one-tap choices, a missing card's place on the photo, "every doubtful read is right"
only under all their crops side by side. The plain state parts, then the rows as built, then
a real photo read by the real reader (a rendered scene with a hole card hidden)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from flet.canvas import Canvas, Circle, Text

from companion.engine.cards import parse_card
from companion.storage import SqliteGameLog
from companion.ui.kit.photo.read import Evidence, MissingPlace, ShownPhoto, Spot
from companion.ui.kit.services import LazyDetector, Services
from companion.ui.shell.dispatch import run
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import load_photo
from companion.ui.showdown.doubts import CHECK, doubts
from companion.ui.showdown.doubts_view import AT_A_GLANCE, doubts_panel, offered
from companion.ui.showdown.evidence import CROP_HEIGHT, PLACE_SIZE, WHOLE_WIDTH
from companion.ui.showdown.state import RIVER, ShowdownState
from tests.ui.screens import find, shown, walk
from tests.ui.showdown import photos

RIVER_TEXT = "As Kd Qh 7c 2s"
JPEG = photos.jpeg(np.full((24, 18, 3), 200, np.uint8))  # any small picture will do


def spot(x: float, code: str, at: tuple[int, int], *others: str, crop: bool = True) -> Spot:
    quad = ((x, 0.0), (x + 10, 0.0), (x + 10, 14.0), (x, 14.0))
    alternatives = tuple(parse_card(c) for c in others)
    evidence = Evidence(JPEG if crop else None, JPEG if crop else None, alternatives)
    return Spot(quad, parse_card(code), True, at, evidence)


def table_of(
    *spots: Spot,
    hands: tuple[str, ...] = ("Ah Ad", "Th 9h", "3c 2c"),
    missing: tuple[MissingPlace, ...] = (),
) -> ShowdownState:
    """Ana, Bob and Chloé with ``hands``, the photo's reads ``spots`` and its short places."""
    table = ShowdownState(("Ana", "Bob", "Chloé")).with_cards_text(RIVER, RIVER_TEXT)
    for seat, text in enumerate(hands):
        table = table.with_cards_text(seat, text)
    return read_as(table, *spots, missing=missing)


def read_as(
    table: ShowdownState, *spots: Spot, missing: tuple[MissingPlace, ...] = ()
) -> ShowdownState:
    """``table`` as a photo read it: 100 x 100 shown pixels, ``spots``, ``missing``."""
    return replace(table, read=ShownPhoto(b"", 100, 100, spots, missing=missing))


def tapped_in_order(table: ShowdownState) -> ShowdownState:
    result = table.showdown()
    assert result is not None, table.problems()
    for group in result.order:
        for hand in group:
            table = table.tap_hand(hand)
    return table


def panel_of(table: ShowdownState) -> object:
    return doubts_panel(AppState(lang="en", table=table), lambda action: None)


# -- the plain state parts ----------------------------------------------------------------


def test_an_alternative_picked_fixes_the_card_where_it_lies_now_and_keeps_the_tokens() -> None:
    # Bob's 9h is doubted; the reader's next reads are 9d, then 9c.
    table = table_of(spot(20, "9h", (1, 1), "9d", "9c"), hands=("Ah Ad", "Th 9h", "3c 2c"))
    assert [d.key for d in doubts(table)] == [f"{CHECK}0:9h"]
    judged = tapped_in_order(table.confirm(f"{CHECK}0:9h"))
    tokens = judged.tokens
    assert tokens and judged.showdown().verdict is not None  # type: ignore[union-attr]
    fixed = judged.read_as(0, parse_card("9d"))
    assert fixed.hands[1] == (parse_card("Th"), parse_card("9d"))
    assert fixed.tokens == tokens and fixed.showdown().verdict is not None  # type: ignore[union-attr]
    # The doubt is answered by the fix, not by a confirm: nothing "confirmed by eye" is left.
    assert doubts(fixed) == () and not any(d.key.startswith(CHECK) for d in doubts(fixed))
    # Its hand given to Ana first: the fix goes where the card lies now.
    moved = table.give_hand(1, "Ana").read_as(0, parse_card("9c"))
    assert moved.hands[0] == (parse_card("Th"), parse_card("9c"))
    # A read taken off the table, or no read at all: nothing changes.
    gone = table.select(1, 1).remove_selected()
    assert gone.read_as(0, parse_card("9c")) == gone and table.read_as(7, parse_card("9c")) == table


def test_other_opens_the_typed_fix_in_the_doubts_row_and_a_confirm_closes_it() -> None:
    table = table_of(spot(20, "9h", (1, 1), "9d"))
    opened = table.fix_read(0)
    assert opened.selected == (1, 1) and opened.on_doubt and not opened.on_photo
    assert opened.fix_read(0).selected is None and not opened.fix_read(0).on_doubt  # again: shut
    # Picked elsewhere (its place's row, the photo), the fix shows there instead.
    assert not opened.select(0, 0).on_doubt and not opened.select_spot(0).on_doubt
    closed = opened.confirm(f"{CHECK}0:9h")
    assert closed.selected is None and not closed.on_doubt
    typed = opened.replace_selected("8h")
    assert typed.hands[1][1] == parse_card("8h") and doubts(typed) == ()


def test_a_missing_cards_place_follows_its_hand_and_goes_when_its_player_sits_out() -> None:
    here = MissingPlace(2, 1, JPEG, ((50.0, 60.0, 12.0),))
    river = MissingPlace(RIVER, 1, None)
    table = table_of(hands=("Ah Ad", "Th 9h", "3c"), missing=(here, river))
    assert table.read is not None and table.read.missing_at(2) == here
    swapped = table.give_hand(2, "Ana")
    assert swapped.read is not None and swapped.read.missing_at(0) == replace(here, place=0)
    assert swapped.read.missing_at(2) is None and swapped.read.missing_at(RIVER) == river
    out = table.sit_out("Chloé")
    assert out.read is not None and out.read.missing == (river,)
    back = out.sit_out("Ana")  # renumbered again: the river keeps its own
    assert back.read is not None and back.read.missing == (river,)


def test_fewer_players_typed_let_go_of_the_dropped_hands_outlines_and_places() -> None:
    # Chloé's 3c doubted and her hand short; typing two players drops her hand (it crashed).
    table = table_of(
        spot(0, "Ah", (0, 0)),
        spot(40, "3c", (2, 0)),
        hands=("Ah Ad", "Th 9h", "3c"),
        missing=(MissingPlace(2, 1, JPEG, ((5.0, 5.0, 3.0),)),),
    )
    two = table.with_players_text("Ana, Bob")
    assert two.read is not None and [s.at for s in two.read.spots] == [(0, 0), None]
    assert two.read.missing == () and [d.key for d in doubts(two)] == [f"{CHECK}0:Ah"]
    assert find(panel_of(two), "doubt-0") is not None


def test_the_alternatives_offered_are_cards_the_table_can_still_hold() -> None:
    # 9d is in no hand; Ah is Ana's (one deck: no second); Kd lies in the river.
    table = table_of(spot(20, "9h", (1, 1), "Ah", "9d", "Kd", "9c", "9s"))
    read = table.read.spots[0]  # type: ignore[union-attr]
    assert offered(read, table) == (parse_card("9d"), parse_card("9c"))
    two_decks = replace(table, rules=replace(table.rules, decks=2))
    assert offered(read, two_decks) == (parse_card("Ah"), parse_card("9d"))
    assert offered(replace(read, evidence=None), table) == ()


# -- the rows as built ----------------------------------------------------------------------


def test_a_doubt_row_shows_the_crops_beside_the_read_with_its_next_reads() -> None:
    table = table_of(spot(20, "9h", (1, 1), "9d", "9c", "Ah"))
    panel = panel_of(table)
    row = find(panel, "doubt-0")
    words = list(shown(row))
    assert words[0] == "• 9♥ (Bob's hand): the reader is not sure"
    assert {"Right as it is", "or", "Other…", "Bob sits out"} <= set(words)
    assert find(row, "crop-index-0").src == JPEG and find(row, "crop-face-0").src == JPEG
    assert find(row, "crop-index-0").height == 120
    assert find(row, "crop-index-0").semantics_label == "9♥: its index corner on the photo"
    picks = [c for c in walk(row) if str(getattr(c, "key", "")).startswith("pick-0-")]
    assert [c.content.semantics_label for c in picks] == ["9d", "9c"]  # two, likeliest first
    # One read: no confirm-all; French words too.
    assert not [c for c in walk(panel) if getattr(c, "key", None) == "confirm-reads"]
    french = list(shown(doubts_panel(AppState(lang="fr", table=table), lambda a: None)))
    assert "Autre…" in french and "ou" in french and "C'est juste" in french


def test_every_doubtful_read_is_right_is_offered_only_under_all_their_crops() -> None:
    three = table_of(
        spot(0, "Ah", (0, 0), "Ac"), spot(20, "9h", (1, 1), "9d"), spot(40, "3c", (2, 0), "2c")
    )
    panel = panel_of(three)
    glance = find(panel, "glance")
    tiles = [c for c in walk(glance) if str(getattr(c, "key", "")).startswith("glance-")]
    assert len(tiles) == 3 and all(t.src == JPEG for t in tiles)
    assert "The 3 doubtful reads side by side:" in list(shown(glance))
    # The button under the crops, in the same block: nothing between them to scroll past.
    assert glance.controls[-1].key == "confirm-reads"
    confirmed = three.confirm(*(d.key for d in doubts(three)))
    assert doubts(confirmed) == ()
    # One read without its crop: each judged on its own.
    bare = read_as(three, *three.read.spots[:2], spot(40, "3c", (2, 0), crop=False))  # type: ignore[union-attr]
    assert not [c for c in walk(panel_of(bare)) if getattr(c, "key", None) == "glance"]
    # More than fit one screen side by side: each judged on its own too.
    big = ShowdownState(("Ana",)).with_cards_text(RIVER, " ".join(["As"] * (AT_A_GLANCE + 1)))
    many = [spot(i * 12, "As", (RIVER, i)) for i in range(AT_A_GLANCE + 1)]
    big = read_as(big, *many)
    assert len([d for d in doubts(big) if d.key.startswith(CHECK)]) == AT_A_GLANCE + 1
    assert not [c for c in walk(panel_of(big)) if getattr(c, "key", None) == "glance"]
    fewer = read_as(big, *many[:AT_A_GLANCE])
    assert find(panel_of(fewer), "glance") is not None


def test_a_short_hands_row_shows_where_its_card_should_lie_or_says_it_is_unknown() -> None:
    table = table_of(hands=("Ah Ad", "Th 9h", "3c"))
    marked = table_of(
        hands=("Ah Ad", "Th 9h", "3c"), missing=(MissingPlace(2, 1, JPEG, ((5.0, 5.0, 3.0),)),)
    )
    row = find(panel_of(marked), "doubt-0")
    words = list(shown(row))
    assert words[0] == "• Chloé: 1 card read, 2 expected"
    assert "Where the missing card should lie (marked on the photo):" in words
    assert [c.src for c in walk(row) if getattr(c, "src", None) is not None] == [JPEG]
    assert "Type the missing card: Chloé" in words and "Chloé sits out" in words
    unknown = find(panel_of(table), "doubt-0")
    assert "The photo does not say where the missing card lies." in list(shown(unknown))
    # No card of the hand read at all: most often face down, and the row says what to do.
    unseen = table_of(hands=("Ah Ad", "Th 9h", ""))
    none = find(panel_of(unseen), "doubt-0")
    assert list(shown(none))[:2] == [
        "• Chloé: no hand found on the photo",
        "No card of this hand was read on the photo: face down or not dealt, its player sits"
        " out; else type its cards.",
    ]
    assert [c for c in walk(none) if getattr(c, "src", None) is not None] == []
    # With the whole photo kept small, it shows in that row, at the photo's proportions.
    assert unseen.read is not None
    wide = replace(unseen, read=replace(unseen.read, width=300, height=200, whole=JPEG))
    whole = [c for c in walk(find(panel_of(wide), "doubt-0")) if getattr(c, "src", None)]
    assert [(c.src, c.width, c.height) for c in whole] == [(JPEG, 300, 200)]
    assert [c.semantics_label for c in whole] == ["The whole photo, as read"]
    # On the photo: the place circled and labelled while the hand is short, not after.
    assert circles(marked) == [(5.0, 5.0, 3.0)]
    assert "missing?" in [shape.value for shape in shapes(marked) if isinstance(shape, Text)]
    assert circles(marked.add_cards(2, "2c")) == []


def shapes(table: ShowdownState) -> list[object]:
    view = root_view(AppState(lang="en", table=table), lambda a: None)
    return list(next(c for c in walk(view) if isinstance(c, Canvas)).shapes)


def circles(table: ShowdownState) -> list[tuple[float, float, float]]:
    """The circles drawn on the photo, in the photo's pixels (it is drawn 366 wide)."""
    k = 366 / 100
    return [(c.x / k, c.y / k, c.radius / k) for c in shapes(table) if isinstance(c, Circle)]


# -- a real photo, read by the real reader ----------------------------------------------


@pytest.fixture
def reading(tmp_path: Path) -> Services:
    log = SqliteGameLog.in_folder(tmp_path)
    yield Services(log, tmp_path, LazyDetector())
    log.close()


def test_a_photo_keeps_each_doubts_crops_and_its_short_hands_place(reading: Services) -> None:
    state = AppState(lang="en", table=ShowdownState(("Ana", "Bob", "Chloé", "Dan")))
    image = photos.covered(photos.scene(), "8s")
    state = run(load_photo(photos.jpeg(image)), state, reading)
    read = state.table.read
    assert read is not None
    short = [d for d in doubts(state.table) if d.missing]
    assert len(short) == 1 and short[0].place is not None
    place = read.missing_at(short[0].place)
    assert place is not None and place.count == 1 and place.crop is not None
    region = cv2.imdecode(np.frombuffer(place.crop, np.uint8), cv2.IMREAD_COLOR)
    assert region.shape[:2] == PLACE_SIZE[::-1]
    # Marked where the hidden card lay (shown pixels): its centre within the first circle.
    x, y, radius = place.marks[0]
    hidden = photos.hidden_centre(photos.scene(), "8s") * (read.width / image.shape[1])
    assert np.hypot(hidden[0] - x, hidden[1] - y) <= radius
    checked = [s for s in read.spots if s.check]
    assert checked and all(s.evidence is not None for s in checked)
    for s in checked:
        assert s.evidence is not None and s.evidence.index is not None
        index = cv2.imdecode(np.frombuffer(s.evidence.index, np.uint8), cv2.IMREAD_COLOR)
        assert index.shape[0] == CROP_HEIGHT
        assert s.read not in s.evidence.alternatives and len(s.evidence.alternatives) <= 4
    # The cards read surely carry none (only what a player is asked to judge is cut).
    assert all(s.evidence is None for s in read.spots if not s.check and s.at and s.at[0] >= -1)


def test_a_hand_not_found_shows_the_whole_photo_in_its_row(reading: Services) -> None:
    state = AppState(lang="en", table=ShowdownState(("Ana", "Bob", "Chloé", "Dan", "Eve")))
    state = run(load_photo(photos.jpeg(photos.scene())), state, reading)
    read = state.table.read
    assert read is not None and read.whole is not None
    lost = [d for d in doubts(state.table) if d.missing and not state.table.cards_at(d.place)]
    assert len(lost) == 1, [d.text.text("en") for d in doubts(state.table)]
    whole = cv2.imdecode(np.frombuffer(read.whole, np.uint8), cv2.IMREAD_COLOR)
    h, w = photos.scene().shape[:2]
    assert whole.shape[1] == min(WHOLE_WIDTH, w)
    assert abs(whole.shape[0] - round(whole.shape[1] * h / w)) <= 1
    row = find(panel_of(state.table), f"doubt-{doubts(state.table).index(lost[0])}")
    assert [c.src for c in walk(row) if getattr(c, "src", None)] == [read.whole]
