"""A heist replayed street by street: each hand's chance of every final position, the best
tokens and the token mistakes.

``odds`` computes them (``replay_table``); ``stood`` gives the other view, the hands as they
stood at each street and the tokens judged by them; ``hands`` says which hands a street's
tokens rank; ``deals`` counts the deals of unseen cards; ``board_values``
is the numpy path; ``best_tokens`` finds the likeliest opening tokens; ``records`` holds the
result records; ``words`` says them.
"""
