"""2. Corner reads: each proposed corner cut from the full-resolution frame and read as a card.

``reader``: ``CornerReader``, the gate and three models reading corner crops; ``reframe``: a
doubtful read read again at nearby frames; ``ink``: the index ink's colour against the suit;
``court``: a court card's suit beyond its index (off by default); ``crops``: the crops of
frames; ``reads``: what the reads give, ``CornerRead`` and ``Look``.
"""

from companion.vision.corner_reads.crops import cut
from companion.vision.corner_reads.gate import DEFAULT_GATE
from companion.vision.corner_reads.reader import LOOK_AGAIN, READ_THRESHOLD, CornerReader
from companion.vision.corner_reads.reads import CornerRead, Look, sort_reads
from companion.vision.corner_reads.reframe import SURE

__all__ = [
    "DEFAULT_GATE",
    "LOOK_AGAIN",
    "READ_THRESHOLD",
    "SURE",
    "CornerRead",
    "CornerReader",
    "Look",
    "cut",
    "sort_reads",
]
