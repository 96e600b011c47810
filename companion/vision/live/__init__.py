"""The live path: webcam frames read one after the other (``follower``: the cards followed from
frame to frame, ``follow``: the camera's motion), their reads fused over frames (``fuse``)."""

from companion.vision.live.follower import LOOK_EVERY, CardFollower, FrameReading
from companion.vision.live.fuse import SHOWN, STABLE, WINDOW, FrameFuser

__all__ = ["LOOK_EVERY", "SHOWN", "STABLE", "WINDOW", "FrameFuser", "FrameReading", "CardFollower"]
