"""The synthetic scene generator: its labels come from the geometry."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.training.back_art import BackStore
from companion.vision.training.scenes import (
    BACKGROUND_FAMILIES,
    HELD_OUT_BACKGROUND,
    PARTLY,
    VISIBLE,
    DeckStore,
    FaceDown,
    Hard,
    Scene,
    _shown,
    make_scene,
    write_set,
)
from tests.helpers import draw_plain_deck

FAMILIES = tuple(f for f in BACKGROUND_FAMILIES if f != HELD_OUT_BACKGROUND)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> DeckStore:
    return DeckStore(draw_plain_deck(tmp_path_factory.mktemp("cards")), held_out=False)


def test_river_and_hands_come_from_the_placed_cards(store: DeckStore) -> None:
    scene = make_scene(np.random.default_rng(4), store, ("cloth",), size=(960, 640), layout="table")
    placed = [c.code for c in scene.cards]
    assert len(scene.river) == 5
    assert all(len(hand) == 2 for hand in scene.hands)
    assert sorted(scene.river + sum(scene.hands, [])) == sorted(placed)
    assert len(set(placed)) == len(placed)


def _labelled_scenes(store: DeckStore, folder: Path) -> list[tuple[dict, Scene]]:
    """A written set's label entries, each with the scene it was written from."""
    cards_dir = store.decks[0].parent
    write_set(folder, 24, held_out=False, seed=2, cards_dir=cards_dir, size=(480, 320))
    labels = json.loads((folder / "labels.json").read_text())
    rng = np.random.default_rng(2)  # write_set's own sequence of scenes
    fresh = DeckStore(cards_dir, held_out=False)
    return [(entry, make_scene(rng, fresh, FAMILIES, size=(480, 320))) for entry in labels]


def test_partly_covered_cards_are_labelled_apart(store: DeckStore, tmp_path: Path) -> None:
    """The labels agree with the geometry: seen, partly seen (count neither way), hidden."""
    partly_seen = 0
    for entry, scene in _labelled_scenes(store, tmp_path):
        for card in scene.cards:
            best = max(card.shown)
            assert card.visible == (card.shown[0] > VISIBLE, card.shown[1] > VISIBLE)
            if best > VISIBLE:
                assert card.code in entry["cards"]
            elif best >= PARTLY:
                assert card.code in entry["partly_hidden"]
                partly_seen += 1
            else:
                assert card.code not in entry["cards"] + entry["partly_hidden"]
    assert partly_seen > 0


def test_hard_cases_are_drawn_as_labelled(store: DeckStore) -> None:
    every = Hard(1.0, 0.0, 0.0, 1.0, 1.0, 0.0)  # touching river, stray card, two decks
    scene = make_scene(np.random.default_rng(5), store, FAMILIES, size=(960, 640), hard=every)
    assert scene.cases == ("stray", "touching", "two_decks") and scene.decks == 2
    placed = {c.code: c for c in scene.cards}
    # The same card twice: one in a hand and the river.
    codes = [c.code for c in scene.cards]
    assert len(codes) == len(set(codes)) + 1 and scene.hands[0][1] in scene.river
    # The stray card crosses the photo's edge and is in neither the river nor a hand.
    (stray,) = scene.stray
    assert stray not in scene.river + sum(scene.hands, [])
    quad = placed[stray].quad
    assert (quad < 0).any() or (quad[:, 0] > 960).any() or (quad[:, 1] > 640).any()
    # River cards touch: centres about one card width apart.
    river = scene.cards[:5]  # placed first
    assert [c.code for c in river] == scene.river
    centres = [c.quad.mean(axis=0) for c in river]
    widths = [np.linalg.norm(c.quad[1] - c.quad[0]) for c in river]
    gaps = np.linalg.norm(np.diff(centres, axis=0), axis=1) / np.median(widths)
    assert gaps.max() < 1.1


def test_hard_sets_label_stray_cards_and_decks(store: DeckStore, tmp_path: Path) -> None:
    write_set(tmp_path, 6, held_out=False, seed=3, cards_dir=store.decks[0].parent, hard=Hard())
    labels = json.loads((tmp_path / "labels.json").read_text())
    assert all(e["source"] == "synthetic_hard" and e["decks"] in (1, 2) for e in labels)
    assert all(set(e["stray"]) <= set(e["cards"]) for e in labels)


def test_a_set_in_coloured_light_holds_the_same_scenes_in_that_light(
    store: DeckStore, tmp_path: Path
) -> None:
    cards_dir = store.decks[0].parent
    plain, red = tmp_path / "plain", tmp_path / "red"
    write_set(plain, 2, held_out=False, seed=6, cards_dir=cards_dir, size=(480, 320), quality=100)
    write_set(red, 2, False, 6, cards_dir, size=(480, 320), quality=100, light=(0.3, 0.35, 1.0))
    assert (plain / "labels.json").read_text() == (red / "labels.json").read_text()
    day = cv2.imread(str(plain / "scene_0000.jpg")).reshape(-1, 3).mean(axis=0)
    bulb = cv2.imread(str(red / "scene_0000.jpg")).reshape(-1, 3).mean(axis=0)
    np.testing.assert_allclose(bulb[:2] / day[:2], [0.3, 0.35], atol=0.03)
    assert 0.95 < bulb[2] / day[2] < 1.05


def test_a_smeared_set_holds_the_same_scenes_blurred(store: DeckStore, tmp_path: Path) -> None:
    cards_dir = store.decks[0].parent
    plain, moved = tmp_path / "plain", tmp_path / "moved"
    write_set(plain, 2, held_out=False, seed=6, cards_dir=cards_dir, size=(480, 320), quality=100)
    write_set(moved, 2, False, 6, cards_dir, size=(480, 320), quality=100, motion=0.02)
    assert (plain / "labels.json").read_text() == (moved / "labels.json").read_text()
    sharp = cv2.imread(str(plain / "scene_0000.jpg"), cv2.IMREAD_GRAYSCALE)
    blurred = cv2.imread(str(moved / "scene_0000.jpg"), cv2.IMREAD_GRAYSCALE)
    detail = [float(cv2.Laplacian(g, cv2.CV_64F).var()) for g in (sharp, blurred)]
    assert detail[1] < 0.5 * detail[0]
    assert abs(float(blurred.mean()) - float(sharp.mean())) < 2.0


def test_a_table_with_an_index_hidden_keeps_its_layout_and_hidden_count(
    store: DeckStore, tmp_path: Path
) -> None:
    unanswerable = 0
    for entry, scene in _labelled_scenes(store, tmp_path):
        laid = scene.river + sum(scene.hands, [])
        hidden = sum(code not in entry["cards"] for code in laid)
        if not scene.river or not hidden:
            assert "layout" not in entry and "hidden" not in entry
            continue
        unanswerable += 1
        assert entry["groups"] is None and entry["hidden"] == hidden
        assert entry["hidden_cards"] == sorted(c for c in laid if c not in entry["cards"])
        assert entry["layout"] == f"{len(scene.river)}+{len(scene.hands)}x2"
    assert unanswerable > 0


def test_hands_of_four_lie_in_a_cascade_the_river_drawn_as_with_two(store: DeckStore) -> None:
    def table(hand_cards: int) -> Scene:
        rng = np.random.default_rng(4)
        return make_scene(rng, store, ("cloth",), (960, 640), "table", hand_cards=hand_cards)

    four, two = table(4), table(2)
    assert four.hands and all(len(hand) == 4 for hand in four.hands)
    assert sorted(four.river + sum(four.hands, [])) == sorted(c.code for c in four.cards)
    placed = {c.code: c.quad.mean(axis=0) for c in four.cards}
    for hand in four.hands:
        steps = np.diff([placed[code] for code in hand], axis=0)
        # Each card a like step further along the hand's cascade, overlapping the one before.
        np.testing.assert_allclose(steps[1:], steps[:1].repeat(2, axis=0), atol=1.0)
        width = min(np.linalg.norm(c.quad[1] - c.quad[0]) for c in four.cards)
        assert np.linalg.norm(steps[0]) < 0.6 * width
    # The river is drawn as with hands of two, and so is the first hand's first card.
    assert two.river == four.river and two.hands[0][0] == four.hands[0][0]


def test_a_printed_felt_lies_under_the_cards_of_the_same_scene(store: DeckStore) -> None:
    plain = make_scene(np.random.default_rng(4), store, ("felt",), (960, 640), layout="table")
    printed = make_scene(
        np.random.default_rng(4),
        store,
        ("felt",),
        (960, 640),
        layout="table",
        felt_print=np.random.default_rng(9),
    )
    assert printed.printed and not plain.printed
    assert [c.code for c in printed.cards] == [c.code for c in plain.cards]
    for a, b in zip(printed.cards, plain.cards, strict=True):
        np.testing.assert_allclose(a.quad, b.quad)
    on_cards = np.zeros(plain.image.shape[:2], np.uint8)
    for card in plain.cards:
        cv2.fillConvexPoly(on_cards, card.quad.astype(np.int32), 1)
    inside = cv2.erode(on_cards, np.ones((9, 9), np.uint8)) > 0  # past the blur of the print
    change = np.abs(printed.image.astype(int) - plain.image.astype(int)).max(axis=2)
    # The photo's JPEG round trip spreads a print's edge a little within its 8x8 blocks.
    assert float(change[inside].mean()) < 0.5 and float((change[inside] > 12).mean()) < 0.001
    assert int((change[on_cards == 0] > 40).sum()) > 5000  # the print shows on the felt


def test_a_printed_set_holds_the_same_scenes_labelled_printed(
    store: DeckStore, tmp_path: Path
) -> None:
    cards_dir = store.decks[0].parent
    plain, casino = tmp_path / "plain", tmp_path / "casino"
    write_set(plain, 6, held_out=False, seed=6, cards_dir=cards_dir, size=(480, 320))
    write_set(casino, 6, False, 6, cards_dir, size=(480, 320), printed=1.0)
    marked = json.loads((casino / "labels.json").read_text())
    tables = [e["groups"] is not None or "layout" in e for e in marked]
    assert [e.get("printed", False) for e in marked] == tables
    assert any(e.get("printed") for e in marked)
    for e in marked:
        e.pop("printed", None)
    assert marked == json.loads((plain / "labels.json").read_text())


def _face_down(seed: int) -> FaceDown:
    return FaceDown(BackStore(None, held_out=False), np.random.default_rng(seed))


def test_face_down_hands_lie_at_free_places_the_face_up_scene_unchanged(store: DeckStore) -> None:
    laid_down = 0
    for seed in range(4, 12):
        plain = make_scene(np.random.default_rng(seed), store, FAMILIES, (960, 640), "table")
        down = make_scene(
            np.random.default_rng(seed),
            store,
            FAMILIES,
            (960, 640),
            "table",
            face_down=_face_down(seed),
        )
        assert (down.river, down.hands) == (plain.river, plain.hands)
        for a, b in zip(down.cards, plain.cards, strict=True):
            assert a.code == b.code and a.visible == b.visible
            np.testing.assert_allclose(a.quad, b.quad)
        # The scene's own stray backs lie where they lay; the face-down hands come after.
        assert len(down.backs) >= len(plain.backs)
        for a, b in zip(down.backs, plain.backs, strict=False):
            np.testing.assert_allclose(a.mean(axis=0), b.mean(axis=0), atol=0.01)
        width = np.median([np.linalg.norm(c.quad[1] - c.quad[0]) for c in down.cards])
        in_hands = [c.quad.mean(axis=0) for c in down.cards[5:]]
        for hand in down.face_down:
            laid_down += 1
            assert hand and all(k >= len(plain.backs) for k in hand)
            for k in hand:
                centre = down.backs[k].mean(axis=0)
                assert min(np.linalg.norm(centre - c) for c in in_hands) > 1.2 * width
        assert len(down.backs_shown) == len(down.backs)
    assert laid_down >= 6


def test_a_set_with_backs_labels_them_and_the_face_down_places(
    store: DeckStore, tmp_path: Path
) -> None:
    cards_dir = store.decks[0].parent
    plain, down = tmp_path / "plain", tmp_path / "down"
    write_set(plain, 8, held_out=False, seed=6, cards_dir=cards_dir, size=(480, 320))
    write_set(down, 8, False, 6, cards_dir, size=(480, 320), backs=tmp_path / "no_art")
    before = json.loads((plain / "labels.json").read_text())
    after = json.loads((down / "labels.json").read_text())
    places = 0
    for old, new in zip(before, after, strict=True):
        assert old["cards"] == new["cards"] and old["image"] == new["image"]
        assert len(new["backs"]) == len(new["backs_shown"])
        assert new["face_codes"] == sorted(new["face_codes"], key=new["face_codes"].index)
        assert len(new["face_quads"]) == len(new["face_codes"])
        assert all(np.array(q).shape == (4, 2) for q in new["backs"] + new["face_quads"])
        for place, hand in new["face_down"].items():
            places += 1
            assert all(0 <= k < len(new["backs"]) for k in hand)
            if new["groups"] is not None:
                assert new["groups"][place] is None  # as a real label names a hand not shown
        if new["groups"] is not None:
            face_up = {k: v for k, v in new["groups"].items() if v is not None}
            assert face_up == old["groups"]
    assert places > 0
    assert all("backs" not in e and "face_down" not in e for e in before)


def test_a_back_counts_in_view_as_far_as_later_cards_leave_it() -> None:
    quad = np.array([[100.0, 100], [200, 100], [200, 245], [100, 245]])
    assert _shown(quad, [], (400, 400)) == 1.0
    assert _shown(quad, [quad + 1], (400, 400)) < 0.1
    assert _shown(quad, [], (150, 400)) == pytest.approx(0.4)  # its left 2 of 5 columns
    beside = quad + [150, 0]
    assert _shown(quad, [beside], (400, 400)) == 1.0
