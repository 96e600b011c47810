"""Players' names in one spelling.

The same name can reach Companion in two Unicode spellings: "Chloé" with one letter é (NFC, what
most keyboards type) or with an e and a combining accent (NFD, what some phones and file systems
give). They look alike and are one player, so every name is kept, compared and used as a key in
NFC: hands, tokens and token moves then meet whatever spelling each came in.

>>> same_name(" Chloe\\u0301 ") == "Chlo\\u00e9"
True
"""

from __future__ import annotations

import unicodedata

__all__ = ["same_name"]


def same_name(name: str) -> str:
    """``name`` trimmed, in its one spelling (Unicode NFC)."""
    return unicodedata.normalize("NFC", name.strip())
