"""Text and JSON notations shared by the CLI, the app and the game log: the edge where they
become engine values, and where results become JSON again.

``table``: The Gang's table and showdown; ``heist``: a heist's tokens by street and its replay;
``crib``: cribbage shows, pegging counts and discard advice; ``spit``: Spit piles, moves and
rulings.
"""
