"""The app's one font, served by the app itself: Arimo, which draws the suits ♠ ♥ ♦ ♣.

The web client's bundled font has no suit glyphs, and its fallback fetches fonts from the
internet, which a card table may not have: suits showed as empty boxes. Arimo (SIL Open Font
License 1.1, Arial's metrics, so the layouts keep their width) comes from the PyPI package
``fontpkg-arimo``, installed with the app; the file is served unmodified from that package.
"""

from __future__ import annotations

import logging
from importlib import resources
from pathlib import Path
from urllib.parse import quote

__all__ = ["FAMILY", "assets_dir", "font_folder", "font_file", "font_urls"]

logger = logging.getLogger(__name__)

FAMILY = "Arimo"
_PACKAGE = "fontpkg_arimo"
_FILE = "Arimo[wght].ttf"  # one variable font: every weight the app uses


def font_folder() -> Path | None:
    """The installed package's font folder, served as the web app's assets; None where an
    install older than the font lacks the package (the app then runs, suits as boxes)."""
    try:
        return Path(str(resources.files(_PACKAGE) / "files"))
    except ModuleNotFoundError:
        logger.warning("%s is not installed: suits will not show (pip install -e .)", _PACKAGE)
        return None


def assets_dir() -> str | None:
    """The folder the web app serves as its assets: the font's."""
    folder = font_folder()
    return None if folder is None else str(folder)


def font_file() -> Path | None:
    folder = font_folder()
    return None if folder is None else folder / _FILE


def font_urls() -> dict[str, str]:
    """``page.fonts``: the family and where the page fetches it (an asset path, quoted)."""
    return {} if font_folder() is None else {FAMILY: "/" + quote(_FILE)}
