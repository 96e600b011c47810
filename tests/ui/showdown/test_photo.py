"""The photo with its reads: outlines that follow the fixes, seats kept and followed, doubts
that hold the verdict; on a real game log, with the real card reader on a rendered scene."""

from __future__ import annotations

from dataclasses import replace

import cv2
import pytest
from flet.canvas import Canvas, Text

from companion.engine.cards import parse_card
from companion.ui.kit.photo.read import ShownPhoto, Spot
from companion.ui.kit.photo.seats import assign_hands, gap
from companion.ui.kit.services import LazyDetector, Services
from companion.ui.night.actions import forget_seats, start_night
from companion.ui.replay.actions import rebuild
from companion.ui.replay.state import ReplayState
from companion.ui.shell.dispatch import run
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.showdown.actions import load_photo, save_heist, save_seats
from companion.ui.showdown.doubts import doubts, layout
from companion.ui.showdown.photo_view import place_colour
from companion.ui.showdown.state import RIVER, STRAY, ShowdownState
from tests.ui.screens import find, shown, walk
from tests.ui.showdown import photos

PLAYERS = ("Ana", "Bob", "Chloé", "Dan")


def square(x: float, y: float, at: tuple[int, int] | None, code: str = "As") -> Spot:
    return Spot(((x, y), (x + 10, y), (x + 10, y + 14), (x, y + 14)), parse_card(code), False, at)


def test_outlines_follow_removals_moves_and_typing() -> None:
    read = ShownPhoto(
        b"", 100, 100, (square(0, 0, (0, 0)), square(20, 0, (0, 1)), square(40, 0, (1, 0)))
    )
    assert [s.at for s in read.removed(0, 0, 2).spots] == [None, (0, 0), (1, 0)]
    assert [s.at for s in read.moved(0, 0, 2, 1, 1).spots] == [(1, 1), (0, 0), (1, 0)]
    assert [s.at for s in read.retyped(0, 1).spots] == [(0, 0), None, (1, 0)]
    assert [s.at for s in read.renumbered({0: 1, 1: 0}).spots] == [(1, 0), (1, 1), (0, 0)]
    assert read.tapped(25, 7) == 1 and read.tapped(15, 30) is None


@pytest.mark.parametrize(
    ("hands", "seats", "given"),
    [
        # Found in another order: each goes to the nearest seat.
        ((10, 100, 190, 280), {"A": 95, "B": 185, "C": 275, "D": 5}, (1, 2, 3, 0)),
        # Two hands for four seats: the players without one sit out.
        ((100, 280), {"A": 95, "B": 185, "C": 275, "D": 5}, (0, None, 1, None)),
        # Players not seated yet take the hands left, in order.
        ((100, 280, 30), {"A": 95, "C": 275}, (0, 2, 1, None)),
        # Across 0 degrees.
        ((350, 170), {"A": 175, "B": 5}, (1, 0, None, None)),
    ],
)
def test_hands_go_to_the_nearest_seats(
    hands: tuple[float, ...], seats: dict[str, float], given: tuple[int | None, ...]
) -> None:
    assert assign_hands(hands, ("A", "B", "C", "D"), seats) == given
    assert gap(350, 10) == 20


def test_the_reader_is_told_the_variant_layout() -> None:
    assert str(layout(ShowdownState(PLAYERS), 4)) == "5+4x2"
    assert str(layout(ShowdownState(PLAYERS, variant="two-of-four"), 3)) == "5+3x4"
    assert layout(ShowdownState(PLAYERS, two_rivers=True), 4) is None
    assert layout(ShowdownState(PLAYERS, variant="circular"), 4) is None


@pytest.fixture
def reading(services: Services) -> Services:
    return replace(services, detector=LazyDetector())


def night(services: Services) -> AppState:
    return run(start_night, AppState(lang="en", table=ShowdownState(PLAYERS)), services)


def hands_of(state: AppState) -> dict[str, tuple[str, ...]]:
    """Each player's cards, sorted: the order within a hand is the reader's."""
    return {
        name: tuple(sorted(str(c) for c in held))
        for name, held in zip(state.table.players, state.table.hands, strict=True)
    }


def judged(state: AppState) -> AppState:
    table = state.table.confirm(*(d.key for d in doubts(state.table) if d.confirmable))
    result = table.showdown()
    assert result is not None, table.problems()
    for group in result.order:
        for hand in group:
            table = table.tap_hand(hand)
    return state.with_table(table)


def test_a_night_seats_its_players_and_later_photos_follow_the_seats(reading: Services) -> None:
    state = night(reading)
    # First photo, a hole card hidden: the short hand is said, the verdict held.
    first = photos.covered(photos.scene(), "8s")
    state = run(load_photo(photos.jpeg(first)), state, reading)
    table = state.table
    assert table.seating and table.read is not None
    assert hands_of(state)["Bob"] == ("6c",)  # clockwise from the photo's bottom: Ana, Bob...
    said = [d.text.text("en") for d in doubts(table)]
    assert "Bob: 1 card read, 2 expected" in said
    view = root_view(state, lambda action: None)
    assert find(view, "photo-read") is not None and find(view, "keep-seats") is not None
    assert "Red tokens" not in list(shown(view))
    state = run(save_seats, state, reading)
    seats = dict(state.night.night.seats)  # type: ignore[union-attr]
    assert list(seats) == list(PLAYERS) and not state.table.seating
    # Fixed on the photo: the hand's card picked there, the missing one added to its hand.
    six = next(i for i, s in enumerate(table.read.spots) if str(s.read) == "6c")
    fixed = state.table.select_spot(six)
    assert fixed.selected == (1, 0)
    state = state.with_table(fixed.add_cards(1, "8s"))
    assert not any(d.key.startswith("hand:") for d in doubts(state.table))
    assert run(save_heist, state, reading).heists == ()  # doubtful reads still unconfirmed
    state = run(save_heist, judged(state), reading)
    assert len(state.heists) == 1

    # The phone turned: the reader lists the hands in another order, the names stay.
    second = photos.turned(photos.scene(), -30)
    state = run(load_photo(photos.jpeg(second)), state, reading)
    assert not state.table.seating
    assert hands_of(state) == {
        p: tuple(sorted(h)) for p, h in zip(PLAYERS, photos.CLOCKWISE, strict=True)
    }

    # Chloé's hand hidden: she sits out, the heist is saved without her and replays.
    third = photos.covered(photos.scene(), "Jh", "Kd")
    state = run(load_photo(photos.jpeg(third)), state, reading)
    absent = [d for d in doubts(state.table) if d.sits_out]
    assert [d.text.text("en") for d in absent] == ["Chloé: no hand found on the photo"]
    state = state.with_table(state.table.sit_out("Chloé"))
    playing = ("Ana", "Bob", "Dan")
    assert state.table.players == playing and state.table.out == ("Chloé",)
    state = run(save_heist, judged(state), reading)
    heist = state.heists[-1]
    assert set(heist.owners.values()) == set(playing)
    table, _tokens = rebuild(ReplayState.of(heist), reading)
    assert [p.name for p in table.players] == list(playing)


def test_a_stray_card_is_asked_about_and_can_join_a_hand() -> None:
    spots = (square(0, 0, (RIVER, 0)), square(50, 50, (STRAY, 0), "7h"))
    table = ShowdownState(("Ana",), river=(parse_card("As"),), stray=(parse_card("7h"),))
    table = replace(table, read=ShownPhoto(b"", 100, 100, spots))
    said = [d.text.text("en") for d in doubts(table)]
    assert "7♥: not in play?" in said and "River: 1 card read, 5 expected" in said
    moved = table.select(STRAY, 0).move_selected(0)
    assert moved.stray == () and moved.read is not None and moved.read.spots[1].at == (0, 0)
    left = table.confirm(*(d.key for d in doubts(table)))
    # The stray card left out; the river and Ana's hand are never confirmed short.
    assert [d.key for d in doubts(left)] == ["river:1", "hand:Ana:0"]
    over = left.with_cards_text(RIVER, "As Kd Qh 7c 2s").with_cards_text(0, "Ah Ad 3c")
    assert [d.text.text("en") for d in doubts(over)] == ["Ana: 3 cards read, 2 expected"]


def test_a_hand_given_to_another_player_takes_its_outlines_along() -> None:
    spots = (square(0, 0, (0, 0), "Ah"), square(50, 0, (1, 0), "Kd"))
    table = ShowdownState(
        ("Ana", "Bob"), hands=((parse_card("Ah"),), (parse_card("Kd"),)), seating=True
    )
    table = replace(table, read=ShownPhoto(b"", 100, 100, spots)).give_hand(0, "Bob")
    assert [str(c) for h in table.hands for c in h] == ["Kd", "Ah"]
    assert table.read is not None and [s.at for s in table.read.spots] == [(1, 0), (0, 0)]
    # While seats are asked a tap on the photo picks the hand, never a card to move.
    assert table.select_spot(0).seat_hand == 1 and table.select_spot(0).selected is None
    kept = table.with_seating(False)
    assert kept.select_spot(0).selected == (1, 0) and kept.select_spot(0).on_photo


def test_the_reader_preloads_once_while_a_photo_may_already_ask_for_it() -> None:
    from companion.ui.kit.services import _load_detector

    calls: list[int] = []

    def counted() -> object:
        calls.append(1)
        return _load_detector()

    reader = LazyDetector(counted)
    started = reader.preload()
    assert reader.loaded() is not None  # waits for the preload's load, not a second one
    started.join(timeout=60)
    assert calls == [1] and not started.is_alive()


def test_the_night_says_its_seats_and_can_ask_them_again(services: Services) -> None:
    state = night(services)
    status = services.log.save_seats(state.night.night.id, {"Bob": 300, "Ana": 10, "Dan": 120})  # type: ignore[union-attr]
    state = replace(state, night=status).go("night")
    words = list(shown(root_view(state, lambda action: None)))
    assert "Seated clockwise: Ana, Dan, Bob" in words
    state = run(forget_seats, state, services)
    assert dict(state.night.night.seats) == {}  # type: ignore[union-attr]
    assert "seats-line" not in [getattr(c, "key", None) for c in walk(root_view(state, print))]


def around(names: tuple[str, ...], centres: list[tuple[float, float]]) -> ShowdownState:
    """A table whose hands (one card each, hand i read at centres[i]) lie around a river at
    (100, 100), seats being asked."""
    spots = [square(95, 95, (RIVER, 0), "2c")]
    spots += [
        square(x - 5, y - 7, (i, 0), c)
        for i, ((x, y), c) in enumerate(zip(centres, CODES[: len(centres)], strict=True))
    ]
    hands = tuple((parse_card(c),) for c in CODES[: len(names)])
    table = ShowdownState(names, river=(parse_card("2c"),), hands=hands, seating=True)
    return replace(table, read=ShownPhoto(b"", 200, 200, tuple(spots)))


CODES = ("Ah", "Kd", "Qs", "Jc")
# Clockwise on the photo (image y down) from its bottom edge: below, left, above, right.
BELOW, LEFT, ABOVE, RIGHT = (100, 180), (20, 100), (100, 20), (180, 100)


def test_seats_are_asked_in_one_panel_with_one_row_of_names(services: Services) -> None:
    table = around(PLAYERS, [BELOW, LEFT, ABOVE, RIGHT]).select_spot(4)  # the hand at the right
    assert table.seat_hand == 3 and table.selected is None
    view = root_view(night(services).with_table(table), lambda action: None)
    names = find(view, "seat-names")
    assert "Whose is the hand outlined on the photo?" in list(shown(names))
    rows = [c for c in walk(find(view, "screen-showdown")) if str(c.key).startswith("seat-name-")]
    assert [r.content for r in rows] == list(PLAYERS)  # one row, each name once
    assert find(view, "seat-name-3").__class__.__name__ == "FilledButton"  # its owner now
    assert not [c for c in walk(view) if str(getattr(c, "key", "")).startswith("move-")]
    # The tokens wait for the seats: none is taken unasked.
    assert [d.key for d in doubts(table)][:1] == ["seats"]
    assert "Red tokens" not in list(shown(view))


def test_the_first_name_seats_everyone_clockwise_and_later_ones_swap() -> None:
    table = around(PLAYERS, [BELOW, LEFT, ABOVE, RIGHT])
    # "The hand on the right is Ana's": Bob, Chloé and Dan follow clockwise from her.
    named = table.name_hand(3, "Ana", PLAYERS)
    assert [str(h[0]) for h in named.hands] == ["Jc", "Ah", "Kd", "Qs"]
    assert named.read is not None
    assert [s.at for s in named.read.spots[1:]] == [(1, 0), (2, 0), (3, 0), (0, 0)]
    assert named.seat_hand == 0 and named.seats_named and named.seating
    # A later answer swaps two hands only: Ana's stays hers.
    swapped = named.name_hand(1, "Dan", PLAYERS)
    assert [str(h[0]) for h in swapped.hands] == ["Jc", "Qs", "Kd", "Ah"]
    # The seat order is the players' own, not the order they are listed in.
    other = table.name_hand(3, "Ana", ("Ana", "Chloé", "Bob", "Dan"))
    assert dict(zip(other.players, [str(h[0]) for h in other.hands], strict=True)) == {
        "Ana": "Jc",
        "Chloé": "Ah",
        "Bob": "Kd",
        "Dan": "Qs",
    }
    # Fewer hands than players: the players after the named one, clockwise, take them.
    three = around(PLAYERS, [BELOW, LEFT, ABOVE])
    three = replace(three, hands=three.hands[:3] + ((),))
    named = three.name_hand(0, "Chloé", PLAYERS)
    assert [[str(c) for c in h] for h in named.hands] == [["Qs"], [], ["Ah"], ["Kd"]]


def test_a_card_face_the_reader_could_not_read_is_outlined_and_holds_the_verdict(
    reading: Services,
) -> None:
    state = AppState(lang="en", table=ShowdownState(PLAYERS))
    photo = photos.unindexed(photos.scene(), "Qc")
    state = run(load_photo(photos.jpeg(photo)), state, reading)
    read = state.table.read
    assert read is not None and len(read.unread) == 1
    said = [d.text.text("en") for d in doubts(state.table)]
    assert said[-1] == (
        "Card face 1 outlined in red (?) was not read: add its card, or confirm nothing is missing"
    )
    assert "River: 4 cards read, 5 expected" in said
    canvas = next(c for c in walk(root_view(state, lambda action: None)) if isinstance(c, Canvas))
    assert "1 ? not read" in [s.value for s in canvas.shapes if isinstance(s, Text)]
    # Outlined where the queen lies in the photo as shown: in the river, between its neighbours.
    x = sum(p[0] for p in read.unread[0]) / 4
    centre = {str(s.read): s.centre[0] for s in read.spots}
    assert min(centre["6d"], centre["Th"]) < x < max(centre["6d"], centre["Th"])
    assert any(d.key == "unread:1" for d in doubts(state.table.confirm("river:4")))
    # Its card added to the river: the face is accounted for, with no tap to confirm it.
    fixed = state.table.add_cards(RIVER, "Qc")
    assert not any(d.key.startswith(("unread:", "river:")) for d in doubts(fixed))
    # Or confirmed as it is (nothing missing).
    assert not any(d.key.startswith("unread:") for d in doubts(state.table.confirm("unread:1")))


def test_a_photo_with_faces_seen_and_no_card_read_is_shown_with_them_outlined(
    reading: Services,
) -> None:
    state = AppState(lang="en", table=ShowdownState(PLAYERS))
    photo = photos.unindexed(photos.scene(), *photos.RIVER, *sum(photos.HANDS, ()))
    state = run(load_photo(photos.jpeg(photo)), state, reading)
    read = state.table.read
    assert read is not None and read.spots == () and len(read.unread) >= 1
    assert state.banner is not None and "No card read" in state.banner.text("en")
    said = [d.text.text("en") for d in doubts(state.table)]
    assert "Card face 1 outlined in red (?) was not read" in said[-len(read.unread)]


def test_a_face_cut_by_the_photos_edge_is_labelled_inside_the_photo_over_a_hands_name() -> None:
    # A hand just under the photo's top edge, and a face the edge cuts beside it: its
    # centre lies 2 px from the edge, where half its label would be cut off.
    table = ShowdownState(("Ana",), hands=((parse_card("Ah"),),), seating=True)
    edge = ((50.0, 0.0), (70.0, 0.0), (70.0, 4.0), (50.0, 4.0))
    read = ShownPhoto(b"", 100, 100, (square(40, 2, (0, 0), "Ah"),), unread=(edge,))
    view = root_view(AppState(lang="en", table=replace(table, read=read)), lambda action: None)
    canvas = next(c for c in walk(view) if isinstance(c, Canvas))
    texts = [s for s in canvas.shapes if isinstance(s, Text)]
    assert texts[-1].value == "1 ? not read" and texts[-1].y >= 8.0
    assert any("Ana" in str(s.value) for s in texts[:-1])


def test_cards_too_small_in_the_photo_are_said_first_and_hold_the_verdict(
    reading: Services,
) -> None:
    state = AppState(lang="en", table=ShowdownState(PLAYERS))
    near = run(load_photo(photos.jpeg(photos.scene())), state, reading)
    assert near.table.read is not None and near.table.read.small is None
    assert not any(d.key == "small" for d in doubts(near.table))
    image = photos.scene()
    far = cv2.resize(image, None, fx=0.55, fy=0.55, interpolation=cv2.INTER_AREA)
    state = run(load_photo(photos.jpeg(far)), state, reading)
    read = state.table.read
    assert read is not None and read.small is not None and 30 < read.small < 50
    first = doubts(state.table)[0]
    assert first.key == "small" and first.text.text("en") == (
        f"The cards are small in this photo (about {read.small} px wide): the reader may "
        "misread their indices. Take it closer, or check every card"
    )
    assert "petites" in first.text.text("fr")
    assert not any(d.key == "small" for d in doubts(state.table.confirm("small")))


def test_a_players_colour_stays_when_another_sits_out_or_comes_back() -> None:
    spots = tuple(square(60 * i, 0, (i, 0), code) for i, code in enumerate(("Ah", "Kd", "2c")))
    table = ShowdownState(("Ana", "Bob", "Chloé"), hands=tuple((s.read,) for s in spots))
    table = replace(table, read=ShownPhoto(b"", 200, 100, spots))

    def colours(tb: ShowdownState) -> dict[str, str]:
        return {name: place_colour(tb, i) for i, name in enumerate(tb.players)}

    before = colours(table)
    assert len(set(before.values())) == 3
    out = table.sit_out("Bob")
    assert colours(out) == {"Ana": before["Ana"], "Chloé": before["Chloé"]}
    # The photo draws Chloé's card in her colour too, and the row under it its swatch.
    canvas = next(
        c for c in walk(root_view(AppState(table=out), lambda a: None)) if isinstance(c, Canvas)
    )
    assert before["Chloé"] in {
        getattr(s.paint, "color", None) for s in canvas.shapes if hasattr(s, "paint")
    }
    assert colours(out.back_in("Bob")) == before
