"""5. Backs: the face-down cards of a frame, so that no back is ever read as a face.

``finder``: a small network marks the pixels that show card backs (``BackModel``), each piece
of them shaped like face-down cards is a ``Back`` (``find_backs``), and ``on_backs`` says which
card outlines lie mostly on one. No back model ships (both trainings removed right reads:
``docs/journal.md``), so the detector does not call this stage; ``BackModel(path)`` loads one
to measure (``training.back_eval``).
"""

from companion.vision.backs.finder import (
    BACK_LEVEL,
    DEFAULT_BACKS,
    DEFAULT_SIDE,
    ON_BACK,
    SURE,
    Back,
    BackModel,
    card_points,
    find_backs,
    on_backs,
)

__all__ = [
    "BACK_LEVEL",
    "DEFAULT_BACKS",
    "DEFAULT_SIDE",
    "ON_BACK",
    "SURE",
    "Back",
    "BackModel",
    "card_points",
    "find_backs",
    "on_backs",
]
