"""Where each game lays its cards on a photo: from ``Detections`` to a game's places.

``places``: each read as a card with its centre and its row in the detections; ``gang``: the
river and the hands of a table of The Gang; ``cribbage``: a show's hand and starter; ``spit``:
a Spit layout's piles and stocks; ``read``: a table of The Gang read told its layout (the
reader looking again where the read does not fit), grouped once.
"""
