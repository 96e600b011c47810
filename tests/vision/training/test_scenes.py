"""The synthetic scene generator: its labels come from the geometry."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.vision.training.scenes import (
    BACKGROUND_FAMILIES,
    HELD_OUT_BACKGROUND,
    PARTLY,
    VISIBLE,
    DeckStore,
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


def test_partly_covered_cards_are_labelled_apart(store: DeckStore, tmp_path: Path) -> None:
    """The labels agree with the geometry: seen, partly seen (count neither way), hidden."""
    cards_dir = store.decks[0].parent
    write_set(tmp_path, 24, held_out=False, seed=2, cards_dir=cards_dir, size=(480, 320))
    labels = json.loads((tmp_path / "labels.json").read_text())
    rng = np.random.default_rng(2)  # write_set's own sequence of scenes
    partly_seen = 0
    for entry in labels:
        scene = make_scene(rng, DeckStore(cards_dir, held_out=False), FAMILIES, size=(480, 320))
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
