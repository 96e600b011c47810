"""4. Second look: the frames a first look implies, read again, and the card faces left unread.

``frames``: rejected corners at the read cards' width and the corners they imply, the corners
beside the cards read and between a cascade's ends; ``unread``: the card faces no card read
covers (framed, then reported); ``look``: those frames read (``look_again``), near the places
a told table is short of cards, the contrast-stretched frame's corners (``contrasted_look``)
and the unread faces added to a read (``unread_left``).
"""

from companion.vision.second_look.look import contrasted_look, look_again, unread_left
from companion.vision.second_look.unread import unread_outlines

__all__ = ["contrasted_look", "look_again", "unread_left", "unread_outlines"]
