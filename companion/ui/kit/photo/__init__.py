"""The photo with its reads: where each card was seen (``read``), who sits where (``seats``),
and the photo drawn with its outlines, tapped to fix a card (``view``)."""
