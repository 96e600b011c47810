"""5. Backs: the face-down cards of a frame, so that no back is ever read as a face.

``finder``: a small network marking the pixels that show card backs over a whole photo
(``BackModel``, ``find_backs``, ``on_backs``). ``check``: a small classifier judging the area
round the corner a doubted read was read at (``BackCheck``, ``corner_area``, ``back_rows``).

Neither ships, so the detector calls neither: each was trained twice and failed the rule
written before (``docs/journal.md``, 2026-12-07: the finder removed right reads; the check
removed too few of the backs read as faces). ``BackModel(path)`` and ``BackCheck(path)`` load
one to measure (``training.back_eval``, ``--check``).
"""

from companion.vision.backs.check import (
    BACK_CHECK,
    CROP_HEIGHT,
    CROP_WIDTH,
    BackCheck,
    back_rows,
    card_crop,
    check_input,
    corner_area,
    crops_batch,
)
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
    "BACK_CHECK",
    "BACK_LEVEL",
    "CROP_HEIGHT",
    "CROP_WIDTH",
    "DEFAULT_BACKS",
    "DEFAULT_SIDE",
    "ON_BACK",
    "SURE",
    "Back",
    "BackCheck",
    "BackModel",
    "back_rows",
    "card_crop",
    "card_points",
    "check_input",
    "corner_area",
    "crops_batch",
    "find_backs",
    "on_backs",
]
