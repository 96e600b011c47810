"""3. Merging: the corner reads merged into cards (``merge``): the surest read of each
physical corner, one place per card (``decks`` places in a game of several decks), the card's
outline between its two index corners where both are read, and each place's doubts.
"""

from companion.vision.merging.merge import merge_reads

__all__ = ["merge_reads"]
