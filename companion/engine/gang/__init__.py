"""The Gang: hands ranked under every table rule, the house variants as data, the showdown.

``ranking`` values five cards (``batch_values``: many at once, in numpy); ``table`` holds what a
showdown reveals; ``variants`` is the registry of house variants (what each deals, how its
cards form hands); ``checks`` says whether a table fits its variant; ``showdown`` orders the
hands and judges the vault; ``words`` says hands and verdicts; ``replay`` replays a heist
street by street.
"""
