"""Card backs for the rendered scenes: every style drawn, the designs split like the decks."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.training.back_art import (
    BACK_WIDTH,
    HELD_OUT_ART,
    HELD_OUT_STYLES,
    STYLES,
    BackStore,
    glossy,
    procedural_back,
    worn,
)


@pytest.mark.parametrize("style", STYLES)
def test_every_style_draws_a_card_with_rounded_corners(style: str) -> None:
    back = procedural_back(np.random.default_rng(1), style, 1.45)
    assert back.shape == (round(BACK_WIDTH * 1.45), BACK_WIDTH, 4) and back.dtype == np.uint8
    alpha = back[:, :, 3]
    assert alpha[0, 0] == alpha[-1, -1] == 0  # the corners are cut round
    assert np.mean(alpha == 255) > 0.97
    # A design, not a blank: the middle of the card is not plain paper.
    middle = back[60:230, 40:160, :3].astype(int)
    assert middle.std() > 10 or np.abs(middle.mean(axis=(0, 1)) - 240).max() > 40


def test_an_unknown_style_is_named() -> None:
    with pytest.raises(ValueError, match="'paisley'"):
        procedural_back(np.random.default_rng(1), "paisley", 1.45)


def test_wear_and_gloss_lighten_a_back_and_keep_its_shape() -> None:
    rng = np.random.default_rng(2)
    back = procedural_back(rng, "logo", 1.45)
    for finished in (worn(rng, back), glossy(rng, back)):
        assert finished.shape == back.shape
        np.testing.assert_array_equal(finished[:, :, 3], back[:, :, 3])
        inside = back[:, :, 3] == 255
        assert finished[:, :, :3][inside].mean() > back[:, :, :3][inside].mean()


def test_the_held_out_designs_are_drawn_only_for_the_held_out_split(tmp_path: Path) -> None:
    names = [*HELD_OUT_ART, "gnome_anglo", "heruka"]
    for k, name in enumerate(names):
        art = np.full((290, 200, 4), 255, np.uint8)
        art[:, :, 0] = 10 * k  # each design its own blue, to tell which was drawn
        cv2.imwrite(str(tmp_path / f"{name}.png"), art)
    held, kept = BackStore(tmp_path, held_out=True), BackStore(tmp_path, held_out=False)
    assert {p.stem for p in held.art} == set(HELD_OUT_ART)
    assert {p.stem for p in kept.art} == {"gnome_anglo", "heruka"}
    assert set(held.styles) == set(HELD_OUT_STYLES)
    assert set(kept.styles) == set(STYLES) - set(HELD_OUT_STYLES)
    rng = np.random.default_rng(3)
    drawn = [tuple(kept.design(rng, 1.5)[100, 100]) for _ in range(60)]
    art = [(10 * k, 255, 255, 255) for k in range(len(names))]
    assert {art[-2], art[-1]} <= set(drawn)  # both art designs drawn
    assert not set(drawn) & set(art[: len(HELD_OUT_ART)])
    assert sum(d not in art for d in drawn) > 20  # and procedural ones


def test_without_art_the_backs_are_procedural(tmp_path: Path) -> None:
    store = BackStore(tmp_path / "none", held_out=False)
    assert store.art == []
    design = store.design(np.random.default_rng(4), 1.4)
    assert design.shape == (280, BACK_WIDTH, 4)
