"""The live path: webcam frames read one after the other, their reads fused over frames."""

from companion.vision.live.follower import (
    LOOK_CARD,
    LOOK_EVERY,
    LOOK_SIZE,
    MATCH,
    SHOWN,
    STABLE,
    WINDOW,
    FrameFuser,
    LiveReader,
)

__all__ = [
    "LOOK_CARD",
    "LOOK_EVERY",
    "LOOK_SIZE",
    "MATCH",
    "SHOWN",
    "STABLE",
    "WINDOW",
    "FrameFuser",
    "LiveReader",
]
