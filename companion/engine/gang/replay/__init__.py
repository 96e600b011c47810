"""A heist replayed street by street: each hand's chance of every final position, the best
tokens and the token mistakes.

``odds`` computes them (``replay_table``); ``deals`` counts the deals of unseen cards; ``fast``
is the numpy path; ``best_tokens`` finds the likeliest opening tokens; ``types`` holds the
result records; ``words`` says them.
"""
