"""The renderer lays cards out as ``companion.vision.layouts`` reads them (checked on its true
outlines)."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.vision import Detections
from companion.vision.layouts.cribbage import read_show
from companion.vision.layouts.spit import read_spit
from companion.vision.training.render import FIXTURES, Rendered, render_show, render_spit
from companion.vision.training.scenes import DeckStore
from tests.helpers import CODES, cards, draw_plain_deck
from tests.helpers import FIXTURES as FIXTURE_FOLDER


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> DeckStore:
    return DeckStore(draw_plain_deck(tmp_path_factory.mktemp("cards")), held_out=False)


def true_reads(rendered: Rendered) -> Detections:
    """What a perfect detector would report: every face-up card at its drawn outline."""
    seen = cards(" ".join(code for code, _ in rendered.cards))
    quads = np.array([quad for _, quad in rendered.cards]).reshape(-1, 4, 2)
    boxes = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
    return Detections(seen, np.ones(len(seen)), boxes, quads)


def names(seen: tuple) -> tuple:  # type: ignore[type-arg]
    return tuple(s.card for s in seen)


@pytest.mark.parametrize("entry", FIXTURES, ids=[e["image"] for e in FIXTURES])
def test_fixture_layouts_read_back_from_their_true_outlines(store: DeckStore, entry: dict) -> None:
    rng = np.random.default_rng(5)
    turn = entry.get("turn", 0.0)
    if entry["kind"] == "spit":
        rendered = render_spit(
            rng, store, tuple(entry["piles"]), entry["p1"], entry["p2"], turn=turn
        )
        photo = read_spit(true_reads(rendered), entry["image"])
        assert names(photo.piles) == cards(" ".join(entry["piles"]))
        assert names(photo.stocks[0]) == cards(" ".join(c for c in entry["p1"] if c))
        assert names(photo.stocks[1]) == cards(" ".join(c for c in entry["p2"] if c))
    else:
        rendered = render_show(rng, store, entry["hand"], entry["starter"], turn=turn)
        show = read_show(true_reads(rendered), entry["image"])
        assert show.cards == cards(" ".join(entry["hand"]))
        assert show.starter.card == cards(entry["starter"])[0]
    assert rendered.image.shape == (768, 1024, 3) and rendered.image.dtype == np.uint8


@pytest.mark.parametrize("seed", range(4))
def test_random_spit_layouts_read_back(store: DeckStore, seed: int) -> None:
    rng = np.random.default_rng(seed)
    drawn = [CODES[i] for i in rng.permutation(52)[:12]]
    p1: list[str | None] = list(drawn[2:7])
    p2: list[str | None] = list(drawn[7:12])
    p1[int(rng.integers(5))] = None  # an emptied stock space
    rendered = render_spit(rng, store, (drawn[0], drawn[1]), p1, p2, turn=rng.uniform(-0.1, 0.1))
    photo = read_spit(true_reads(rendered), "x")
    assert [str(c) for c in names(photo.piles)] == drawn[:2]
    assert [str(c) for c in names(photo.stocks[0])] == [c for c in p1 if c]
    assert [str(c) for c in names(photo.stocks[1])] == p2


def test_fixture_files_are_small_jpegs_with_labels() -> None:
    folder = FIXTURE_FOLDER
    for entry in FIXTURES:
        path = folder / entry["image"]
        assert path.stat().st_size < 200_000, path
        assert cv2.imread(str(path)).shape == (768, 1024, 3)
    labels = json.loads((folder / "photo_labels.json").read_text())
    assert [{k: v for k, v in e.items() if k != "source"} for e in labels] == list(FIXTURES)
