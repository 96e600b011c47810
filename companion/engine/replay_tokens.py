"""The token assignment likeliest to open the vault, from the final orders a street can lead to.

Knowing every hole card, a street leads to final orders of the hands with known chances (each
order given as how many hands each hand beats; see ``replay_fast.order_patterns``). Tokens
1..N open the vault when the hands, revealed by token, never get weaker: tokens that place
tied hands either way round are fine. This module finds the assignment that opens on the most
weight, and how much weight a given assignment opens on.

The search is exact: a depth-first walk over the hands taking tokens 1, 2, ..., keeping only
the orders still consistent with the tokens so far (each new hand must beat or tie the last),
visiting the most promising hand first and dropping any branch whose remaining weight cannot beat
the best assignment found. With up to 8 hands that is at most 8! leaves and usually a few dozen;
past ``node_limit`` visited branches it stops and says its answer is the best found, not proven.

>>> import numpy as np
>>> patterns = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2]])  # how many each hand beats
>>> best = best_order(patterns, np.array([5.0, 3.0, 1.0]))
>>> best.order, best.weight, best.complete
((0, 1, 2), 5.0, True)
>>> opening_weight(patterns, np.array([5.0, 3.0, 1.0]), (1, 0, 2))
1.0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["BestOrder", "best_order", "opening_weight"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

NODE_LIMIT = 200_000


@dataclass(frozen=True)
class BestOrder:
    order: tuple[int, ...]  # hand indices in token order: order[0] takes token 1
    weight: float  # the weight of the orders this assignment opens the vault on
    complete: bool  # False: the search stopped at its node limit (best found, not proven)


def opening_weight(patterns: IntArray, weights: FloatArray, order: tuple[int, ...]) -> float:
    """The weight of the final orders on which revealing hands in ``order`` opens the vault."""
    ranked = patterns[:, list(order)]
    opens = (np.diff(ranked, axis=1) >= 0).all(axis=1)
    return float(weights[opens].sum())


def best_order(patterns: IntArray, weights: FloatArray,
               node_limit: int = NODE_LIMIT) -> BestOrder:
    """The hand order (token 1 first) opening the vault on the most weight; ties in weight go to
    the order found first (likeliest branches first, then lower hand index)."""
    hands = patterns.shape[1]
    best_weight = -1.0
    best: tuple[int, ...] = tuple(range(hands))
    visited = 0
    complete = True

    def walk(prefix: tuple[int, ...], rest: list[int], alive: IntArray,
             alive_weights: FloatArray) -> None:
        nonlocal best_weight, best, visited, complete
        if not rest:
            best_weight, best = float(alive_weights.sum()), prefix
            return
        if prefix:
            fits = alive[:, rest] >= alive[:, [prefix[-1]]]  # the next hand beats or ties the last
        else:
            fits = np.ones((len(alive), len(rest)), dtype=bool)
        scores = alive_weights @ fits
        for j in sorted(range(len(rest)), key=lambda j: (-scores[j], rest[j])):
            if scores[j] <= best_weight:
                break  # every later branch weighs no more
            visited += 1
            if visited > node_limit:
                complete = False
                return
            keep = fits[:, j]
            walk((*prefix, rest[j]), rest[:j] + rest[j + 1 :], alive[keep], alive_weights[keep])
            if not complete:
                return

    walk((), list(range(hands)), np.asarray(patterns), np.asarray(weights, dtype=np.float64))
    return BestOrder(best, max(best_weight, 0.0), complete)
