"""The app's font drawn with OpenCV alone: suits and accents, which Hershey fonts lack."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.messages import LANGS, en, text
from companion.share.glyphs import Font, FontError, load_font, text_lines
from companion.share.picture import font
from tests.ui.glyphs import characters


def _ink(words: str, size: float = 60.0) -> np.ndarray:
    face = font()
    canvas = np.zeros((160, 400, 3), np.uint8)
    face.draw(canvas, words, (20, 130), size, (255, 255, 255))
    return canvas[..., 0] > 128


def test_the_font_has_the_suits_and_the_accents() -> None:
    face = font()
    assert all(face.has(ch) for ch in "♠♥♦♣éèçœÉ")


def test_an_accent_is_drawn_above_its_letter() -> None:
    plain, accented = _ink("e"), _ink("é")
    assert np.array_equal(plain & accented, plain)  # the same e...
    above = accented & ~plain
    rows = np.nonzero(above.any(axis=1))[0]
    assert above.sum() > 40 and rows.max() < np.nonzero(plain.any(axis=1))[0].min()  # ...and on top


@pytest.mark.parametrize(("plain", "marked"), [("A", "Å"), ("a", "å"), ("c", "ḉ")])
def test_overlapping_contours_are_filled_not_cut(plain: str, marked: str) -> None:
    # The ring of Å lies on the A's apex (a variable font keeps the overlap): filled by parity,
    # the apex would be cut out; TrueType fills by the non-zero rule.
    base, whole = _ink(plain, 100), _ink(marked, 100)
    assert (base & ~whole).sum() <= 4, (base & ~whole).sum()


@pytest.mark.parametrize("suit", "♠♥♦♣")
def test_each_suit_is_a_filled_shape_of_its_own(suit: str) -> None:
    ink = _ink(suit)
    rows, columns = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
    box = (rows.max() - rows.min() + 1) * (columns.max() - columns.min() + 1)
    assert ink.sum() > 0.4 * box > 300  # filled (a diamond fills half its box), not an outline
    others = {s: _ink(s) for s in "♠♥♦♣" if s != suit}
    assert all(not np.array_equal(ink, other) for other in others.values())


def test_text_is_drawn_as_wide_as_measured() -> None:
    face = font()
    ink = _ink("Chloé A♠", 40)
    columns = np.nonzero(ink.any(axis=0))[0]
    assert abs((columns.max() - columns.min()) - face.width("Chloé A♠", 40)) < 12


def test_lines_break_between_words_and_cut_a_word_too_long() -> None:
    face = font()
    lines = text_lines(face, "Bob's two pair beats Zoë's pair", 30, 200)
    assert len(lines) > 1 and all(face.width(line, 30) <= 200 for line in lines)
    assert " ".join(lines) == "Bob's two pair beats Zoë's pair"
    long = text_lines(face, "x" * 80, 30, 200)
    assert "".join(long) == "x" * 80 and all(face.width(line, 30) <= 200 for line in long)


def test_a_file_that_is_no_truetype_font_is_named(tmp_path: Path) -> None:
    with pytest.raises(FontError, match="not a TrueType font"):
        Font(b"not a font at all, just some bytes.....", "bad.ttf")
    with pytest.raises(FontError, match="missing.ttf"):
        load_font(tmp_path / "missing.ttf")


def test_the_reader_maps_the_same_characters_as_an_independent_cmap_reader() -> None:
    # ``tests/ui/glyphs.py`` reads the same table its own way (formats 4 and 12).
    face = font()
    drawn = characters(Path(face.name))
    bmp = {chr(code) for code in range(0x20, 0xFFFE) if not 0xD800 <= code < 0xE000}
    assert {ch for ch in bmp if face.has(ch) and not ch.isspace()} == {
        ch for ch in drawn if ch in bmp and not ch.isspace()
    }


def test_every_word_of_the_picture_is_in_the_font() -> None:
    face = font()
    for lang in LANGS:
        for key in [k for k in en.MESSAGES if k.startswith("share.")] + ["river", "river2"]:
            words = text(key, lang, n=2, token=1, name="Zoë", night=1, when="2026-12-07")
            assert all(face.has(ch) for ch in words), (lang, key, words)
