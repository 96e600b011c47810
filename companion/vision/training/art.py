"""Render card-face art into ``cache/cards/<deck>/<code>.png`` (RGBA, 200 px wide), and the
card backs of that art into ``cache/backs/<source>_<design>.png``.

Third-party art never enters git: it is rendered here at build time from the Debian package
``gnome-cards-data`` (``/usr/share/aisleriot/cards/*.svgz``) and the npm packages
``@heruka_urgyen/react-playing-cards`` and ``cardsJS`` installed under ``cache/npm``.
Procedural designs drawn with the system's free fonts add English and French (R/D/V) indices
(procedural backs are drawn as scenes are rendered: ``back_art``).

    python -m companion.vision.training.art --cache cache
"""

from __future__ import annotations

import argparse
import glob
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

RANKS = "23456789TJQKA"
SUITS = "shdc"
CARD_WIDTH = 200

# GNOME sheets: 13 columns (A, 2..10, J, Q, K) x rows clubs, diamonds, hearts, spades.
GNOME_COLUMNS = "A23456789TJQK"
GNOME_ROWS = "cdhs"
# Decks whose corner index reads as a rank we know. Letters are mapped onto English ranks by the
# artwork position, so French R/D/V and German K/D/B courts are learned as K/Q/J.
GNOME_DECKS = (
    "anglo",
    "anglo_bitmap",
    "anglo_modern",
    "anglo_modern_4_color",
    "anglo_poker",
    "atlasnye",
    "bellot",
    "dondorf",
    "gnomangelo",
    "gnomangelo_bitmap",
    "neoclassical",
    "neoclassical_4_color",
    "orell",
    "ornamental",
    "paris",
    "plastic",
    "simplistic",
    "tango",
    "tango_nuevo",
    "tigullio",
    "ancient_french",
    "tarocco",
    "atlasnye_skat",
    "berlin",
    "lattmann",
    "rheinland",
)
HELD_OUT_DECK = "tigullio"

NPM_HERUKA = "npm/node_modules/@heruka_urgyen/react-playing-cards/src/images"
NPM_CARDSJS = "npm/node_modules/cardsJS/cards"
GNOME_SHEETS = Path("/usr/share/aisleriot/cards")
# A cell of a sheet's fifth row, past its two jokers, is a back until one is mostly plain paper
# (``ornamental`` fills the rest of its row with blank faces).
BLANK_PAPER = 0.8
# Sheets whose file name is not ASCII.
SHEET_NAMES = {"\u0410\u0442\u043b\u0430\u0441\u043d\u044b\u0435": "atlasnye_cyrillic"}

FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/truetype/liberation",
    "/usr/share/fonts/truetype/liberation2",
    "/usr/share/fonts/truetype/freefont",
)


def card_code(rank: str, suit: str) -> str:
    return rank + suit


def _save(card: np.ndarray, path: Path) -> None:
    height = round(card.shape[0] * CARD_WIDTH / card.shape[1])
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), cv2.resize(card, (CARD_WIDTH, height), interpolation=cv2.INTER_AREA))


def _trim(card: np.ndarray) -> np.ndarray:
    """Cut a rendered card to the bounding box of its opaque pixels."""
    ys, xs = np.nonzero(card[:, :, 3] > 32)
    return card[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def render_gnome(out: Path) -> None:
    for deck in GNOME_DECKS:
        src = GNOME_SHEETS / f"{deck}.svgz"
        if not src.exists() or (out / deck / "As.png").exists():
            continue
        out.mkdir(parents=True, exist_ok=True)
        sheet_path = out / f"_{deck}_sheet.png"
        subprocess.run(["rsvg-convert", "-h", "2000", str(src), "-o", str(sheet_path)], check=True)
        sheet = cv2.imread(str(sheet_path), cv2.IMREAD_UNCHANGED)
        sheet_path.unlink()
        if sheet is None:
            raise FileNotFoundError(f"{sheet_path}: rsvg-convert wrote no readable PNG")
        cell_w, cell_h = sheet.shape[1] / 13, sheet.shape[0] / 5
        for row, suit in enumerate(GNOME_ROWS):
            for col, rank in enumerate(GNOME_COLUMNS):
                cell = sheet[
                    round(row * cell_h) : round((row + 1) * cell_h),
                    round(col * cell_w) : round((col + 1) * cell_w),
                ]
                _save(_trim(cell), out / deck / f"{card_code(rank, suit)}.png")
        print(f"rendered {deck}", flush=True)


def _paper_share(cell: np.ndarray) -> float:
    """The share of a cell's opaque pixels that are plain light paper (near white, grey)."""
    bgr = cell[:, :, :3][cell[:, :, 3] > 32].astype(np.int32)
    paper = (bgr.min(axis=1) > 190) & (bgr.max(axis=1) - bgr.min(axis=1) < 45)
    return float(paper.mean()) if len(bgr) else 1.0


def _sheet_backs(sheet: np.ndarray) -> list[np.ndarray]:
    """The backs in a GNOME sheet's fifth row: its cells from the third on, until one is empty
    or a blank face."""
    cell_w, cell_h = sheet.shape[1] / 13, sheet.shape[0] / 5
    backs = []
    for col in range(2, 13):
        cell = sheet[round(4 * cell_h) :, round(col * cell_w) : round((col + 1) * cell_w)]
        if np.mean(cell[:, :, 3] > 32) < 0.5 or _paper_share(cell) > BLANK_PAPER:
            break
        backs.append(_trim(cell))
    return backs


def _thumb(card: np.ndarray) -> np.ndarray:
    """A coarse copy of a card, to tell one design printed in two sheets."""
    return cv2.resize(card, (16, 24), interpolation=cv2.INTER_AREA).astype(np.float32)


def render_backs(cache: Path, out: Path) -> None:
    """Every back the card art holds, once each: the GNOME sheets' (``gnome_<sheet>``, a
    second one ``_2``), ``@heruka_urgyen/react-playing-cards``' and ``cardsJS``' red and blue."""
    if out.is_dir() and any(out.glob("*.png")):
        return
    found: list[tuple[str, np.ndarray]] = []
    for src in sorted(GNOME_SHEETS.glob("*.svgz")):
        name = SHEET_NAMES.get(src.name.removesuffix(".svgz"), src.name.removesuffix(".svgz"))
        for k, back in enumerate(_sheet_backs(_rsvg(str(src), 2000))):
            found.append(
                (f"gnome_{name.replace('-', '_')}" + ("" if k == 0 else f"_{k + 1}"), back)
            )
    heruka = cache / NPM_HERUKA / "back.svg"
    if heruka.exists():
        found.append(("heruka", _trim(_rsvg(str(heruka)))))
    for colour in ("Red", "Blue"):
        src = cache / NPM_CARDSJS / f"{colour}_Back.svg"
        if src.exists():
            found.append((f"cardsjs_{colour.lower()}", _trim(_rsvg(str(src)))))
    seen: list[np.ndarray] = []
    for name, back in found:
        thumb = _thumb(back)
        if all(np.mean(np.abs(thumb - other)) > 3 for other in seen):  # 0-0.1 for one design
            seen.append(thumb)
            _save(back, out / f"{name}.png")
    print(f"rendered {len(seen)} backs of {len(found)} in {out}", flush=True)


def _rsvg(src: str, height: int = 700) -> np.ndarray:
    png = subprocess.run(
        ["rsvg-convert", "-h", str(height), src], check=True, capture_output=True
    ).stdout
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise ValueError(f"{src}: rsvg-convert gave no readable PNG")
    return image


def render_npm(cache: Path, out: Path) -> None:
    heruka = cache / NPM_HERUKA
    for variant in ("2color", "2color-bf", "4color", "4color-bf"):
        deck = f"heruka_{variant}"
        if not (heruka / variant).exists() or (out / deck / "As.png").exists():
            continue
        for rank in RANKS:
            for suit in SUITS:
                src = heruka / variant / f"{rank}{suit.upper()}.svg"
                _save(_trim(_rsvg(str(src))), out / deck / f"{card_code(rank, suit)}.png")
        print(f"rendered {deck}", flush=True)
    cardsjs = cache / NPM_CARDSJS
    if cardsjs.exists() and not (out / "cardsjs" / "As.png").exists():
        for rank in RANKS:
            for suit in SUITS:
                name = {"T": "10"}.get(rank, rank)
                src = cardsjs / f"{name}{suit.upper()}.svg"
                _save(_trim(_rsvg(str(src))), out / "cardsjs" / f"{card_code(rank, suit)}.png")
        print("rendered cardsjs", flush=True)


SUIT_GLYPHS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
ENGLISH = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
FRENCH = {"T": "10", "J": "V", "Q": "D", "K": "R", "A": "1"}


def _fonts() -> list[str]:
    fonts: list[str] = []
    for folder in FONT_DIRS:
        fonts += sorted(glob.glob(f"{folder}/*.ttf"))
    return [f for f in fonts if "Mono" not in f and "ExtraLight" not in f and "Math" not in f]


def render_procedural(out: Path, count: int, seed: int = 7) -> None:
    """Simple designs: rank letter + suit glyph in the corners, a big suit glyph in the middle."""
    from PIL import Image, ImageDraw, ImageFont  # training-only dependency

    rng = np.random.default_rng(seed)
    fonts = _fonts()
    for index in range(count):
        deck = f"proc_{index:02d}"
        if (out / deck / "As.png").exists():
            continue
        font_path = fonts[rng.integers(len(fonts))]
        names = FRENCH if rng.random() < 0.35 else ENGLISH
        four_colour = rng.random() < 0.25
        colours = {"s": (0, 0, 0), "c": (0, 0, 0), "h": (200, 20, 30), "d": (200, 20, 30)}
        if four_colour:
            colours.update(c=(10, 120, 40), d=(20, 60, 200))
        tint = tuple(int(255 - v) for v in rng.integers(0, 18, 3))
        w, h = 400, int(400 * rng.uniform(1.38, 1.56))
        rank_size = int(rng.uniform(0.13, 0.22) * w)
        suit_size = int(rank_size * rng.uniform(0.65, 1.0))
        margin = int(rng.uniform(0.02, 0.06) * w)
        stacked = rng.random() < 0.85  # suit under the rank (else beside it)
        rank_font = ImageFont.truetype(font_path, rank_size)
        suit_font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", suit_size)
        for rank in RANKS:
            for suit in SUITS:
                img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
                draw = ImageDraw.Draw(img)
                draw.rounded_rectangle(
                    (0, 0, w - 1, h - 1),
                    radius=int(0.06 * w),
                    fill=tint + (255,),
                    outline=(90, 90, 90, 255),
                    width=2,
                )
                corner = Image.new("RGBA", (w // 2, h // 2), (0, 0, 0, 0))
                cdraw = ImageDraw.Draw(corner)
                text = ENGLISH.get(rank, rank) if names is ENGLISH else names.get(rank, rank)
                colour = colours[suit] + (255,)
                box = cdraw.textbbox((0, 0), text, font=rank_font)
                tw = box[2] - box[0]
                cx = margin + max(tw, suit_size) // 2 if stacked else margin + tw // 2
                cdraw.text(
                    (cx - tw // 2 - box[0], margin - box[1]), text, font=rank_font, fill=colour
                )
                sbox = cdraw.textbbox((0, 0), SUIT_GLYPHS[suit], font=suit_font)
                sw = sbox[2] - sbox[0]
                if stacked:
                    sx = cx - sw // 2 - sbox[0]
                    sy = margin + (box[3] - box[1]) + margin // 2 - sbox[1]
                else:
                    sx, sy = margin + tw + margin // 2 - sbox[0], margin - sbox[1]
                cdraw.text((sx, sy), SUIT_GLYPHS[suit], font=suit_font, fill=colour)
                img.alpha_composite(corner, (0, 0))
                img.alpha_composite(corner.rotate(180), (w - w // 2, h - h // 2))
                big = ImageFont.truetype(
                    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                    int(w * (0.5 if rank in "JQKA" else 0.3)),
                )
                bbox = draw.textbbox((0, 0), SUIT_GLYPHS[suit], font=big)
                draw.text(
                    (w // 2 - (bbox[0] + bbox[2]) // 2, h // 2 - (bbox[1] + bbox[3]) // 2),
                    SUIT_GLYPHS[suit],
                    font=big,
                    fill=colour,
                )
                rgba = np.array(img)[:, :, [2, 1, 0, 3]]
                _save(rgba, out / deck / f"{card_code(rank, suit)}.png")
        print(f"rendered {deck} ({os.path.basename(font_path)})", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, default=Path("cache"))
    parser.add_argument("--procedural", type=int, default=16)
    args = parser.parse_args(argv)
    out = args.cache / "cards"
    render_gnome(out)
    render_npm(args.cache, out)
    render_procedural(out, args.procedural)
    decks = sorted(p.name for p in out.iterdir() if p.is_dir())
    print(f"{len(decks)} decks in {out}")
    render_backs(args.cache, args.cache / "backs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
