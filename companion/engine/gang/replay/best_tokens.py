"""The token assignment likeliest to open the vault, from the final orders a street can lead to.

Knowing every hole card, a street leads to final orders of the hands with known chances (each
order given as how many hands each hand beats; see ``replay_fast.order_patterns``). Tokens
1..N open the vault when the hands, revealed by token, never get weaker: tokens that place
tied hands either way round are fine. So an assignment opens on exactly the final orders it is a
way of listing (weakest first, tied hands in any order), and its chance is the total weight of
those orders.

Only an assignment that lists at least one final order can have any weight. So every way of
listing every final order is counted once, with that order's weight: an order without ties is
listed one way (its hands sorted), an order with tied groups of sizes g1, g2, ... in g1! g2! ...
ways; summing the weights per listing gives every assignment's chance exactly, and the best is
the answer. Orders with too many listings (a river where eight hands play the board) are not
listed; they are checked against the best listings instead, and when they weigh more than the
best found, the answer says it is not proven best.

>>> import numpy as np
>>> patterns = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [0, 0, 2]])  # how many each beats
>>> best = best_order(patterns, np.array([5.0, 3.0, 1.0, 2.0]))
>>> best.order, best.weight, best.complete
((0, 1, 2), 7.0, True)
>>> opening_weight(patterns, np.array([5.0, 3.0, 1.0, 2.0]), (1, 0, 2))
3.0
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["BestOrder", "best_order", "opening_weight"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

LISTING_LIMIT = 300_000  # listings of tied orders counted at most (rows of ``N`` hands)
CHECK_LIMIT = 2_000  # listings checked at most against the orders left unlisted


@dataclass(frozen=True)
class BestOrder:
    order: tuple[int, ...]  # hand indices in token order: order[0] takes token 1
    weight: float  # the weight of the orders this assignment opens the vault on
    complete: bool  # False: orders left unlisted might make another assignment better


def opening_weight(patterns: IntArray, weights: FloatArray, order: tuple[int, ...]) -> float:
    """The weight of the final orders on which revealing hands in ``order`` opens the vault."""
    ranked = patterns[:, list(order)]
    opens = (np.diff(ranked, axis=1) >= 0).all(axis=1)
    return float(weights[opens].sum())


def _listings(pattern: list[int]) -> list[tuple[int, ...]]:
    """Every hand order listing this final order weakest first, tied hands in every order."""
    groups: dict[int, list[int]] = {}
    for hand, beaten in enumerate(pattern):
        groups.setdefault(beaten, []).append(hand)
    parts = [list(itertools.permutations(groups[k])) for k in sorted(groups)]
    return [tuple(itertools.chain.from_iterable(pick)) for pick in itertools.product(*parts)]


def best_order(
    patterns: IntArray, weights: FloatArray, listing_limit: int = LISTING_LIMIT
) -> BestOrder:
    """The hand order (token 1 first) opening the vault on the most weight (of equal ones, the
    first found: the likeliest listings first, then by hand indices)."""
    patterns = np.asarray(patterns, dtype=np.int64)
    weights = np.asarray(weights, dtype=np.float64)
    hands = patterns.shape[1]
    # How many listings each order has: 1 without ties, else the product of g! per tied group.
    ranked = np.sort(patterns, axis=1)
    strict = ~(ranked[:, 1:] == ranked[:, :-1]).any(axis=1)
    ties = np.ones(len(patterns))
    for index in np.flatnonzero(~strict).tolist():
        sizes = np.unique(patterns[index], return_counts=True)[1]
        ties[index] = math.prod(math.factorial(int(g)) for g in sizes)
    # Orders without ties: one listing each, its hands sorted.
    rows = [np.argsort(patterns[strict], axis=1)]
    row_weights = [weights[strict]]
    # Orders with ties: every listing, fewest first, while the limit allows.
    unlisted = np.zeros(len(patterns), dtype=bool)
    budget = listing_limit
    for index in np.flatnonzero(~strict)[np.argsort(ties[~strict], kind="stable")].tolist():
        if ties[index] > budget:
            unlisted[index] = True
            continue
        budget -= int(ties[index])
        ways = _listings(patterns[index].tolist())
        rows.append(np.array(ways, dtype=np.int64))
        row_weights.append(np.full(len(ways), weights[index]))
    # The hands sorted by how many they beat on average: the answer where nothing is listed.
    beaten = weights @ patterns / max(float(weights.sum()), 1.0)
    rows.append(np.argsort(beaten, kind="stable")[None, :])
    row_weights.append(np.zeros(1))
    listed = np.concatenate(rows).reshape(-1, hands)
    if hands**hands < 2**62:  # one integer per listing: much faster to group than rows
        keys = listed @ (hands ** np.arange(hands, dtype=np.int64))
        _, first, where = np.unique(keys, return_index=True, return_inverse=True)
        orders = listed[first]
    else:
        orders, where = np.unique(listed, axis=0, return_inverse=True)
    totals = np.bincount(where.ravel(), weights=np.concatenate(row_weights), minlength=len(orders))
    # Unlisted orders add to the listings they allow; try the listings that could still win.
    rest_patterns, rest_weights = patterns[unlisted], weights[unlisted]
    rest = float(rest_weights.sum())
    best_weight, best = -1.0, 0
    checked_all = True
    for checked, candidate in enumerate(np.argsort(-totals, kind="stable").tolist()):
        if totals[candidate] + rest <= best_weight:
            break
        if checked == CHECK_LIMIT:
            checked_all = False
            break
        total = totals[candidate]
        if rest:
            listing = tuple(int(h) for h in orders[candidate])
            total += opening_weight(rest_patterns, rest_weights, listing)
        if total > best_weight:
            best_weight, best = float(total), candidate
    order = tuple(int(h) for h in orders[best])
    # Any other order lists no listed order: it opens on unlisted ones only.
    return BestOrder(order, best_weight, checked_all and best_weight >= rest)
