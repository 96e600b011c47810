"""The app's one font, served by the app itself: Arimo, which draws the suits ♠ ♥ ♦ ♣.

The web client's bundled font has no suit glyphs, and its fallback fetches fonts from the
internet, which a card table may not have: suits showed as empty boxes. Arimo (SIL Open Font
License 1.1, Arial's metrics, so the layouts keep their width) comes from the PyPI package
``fontpkg-arimo``, installed with the app; the file is served unmodified from that package.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from urllib.parse import quote

__all__ = ["FAMILY", "font_folder", "font_file", "font_urls"]

FAMILY = "Arimo"
_PACKAGE = "fontpkg_arimo"
_FILE = "Arimo[wght].ttf"  # one variable font: every weight the app uses


def font_folder() -> Path:
    """The installed package's font folder, served as the web app's assets."""
    return Path(str(resources.files(_PACKAGE) / "files"))


def font_file() -> Path:
    return font_folder() / _FILE


def font_urls() -> dict[str, str]:
    """``page.fonts``: the family and where the page fetches it (an asset path, quoted)."""
    return {FAMILY: "/" + quote(_FILE)}
