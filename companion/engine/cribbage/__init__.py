"""Cribbage (six-card, to 121): ``score`` counts shows and pegging with every combination,
``discard`` ranks the 15 discards by exact expectation, ``game`` plays a game as checked
moves, ``words`` says the counts.
"""
