"""Spit screen: how long one tap takes to answer (the ruling, then the whole page built).

    python3 benchmarks/spit_screen.py [--positions N] [--seed S]

Every field typed or tapped rebuilds the page, so a ruling and the page are made per tap.
Prints the first page apart (one-time set-up), then the median and worst time over random
positions dealt by the engine (stock tops, pile tops, a disputed move), for the ruling alone
and for the page, and the page's share of it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.bench.cpu import describe_cpu
from companion.engine.cards import parse_cards  # noqa: E402
from companion.engine.spit import VARIANTS, Stock, apply_move, legal_moves, new_game  # noqa: E402
from companion.engine.spit.referee import PileView  # noqa: E402
from companion.ui.shell.root import root_view
from companion.ui.shell.state import AppState
from companion.ui.spit.state import SpitScreen

TAP_BUDGET_MS = 100.0  # a tap that answers within this feels immediate


def random_screen(rng: random.Random) -> SpitScreen:
    """A position some moves into a random game, as the table would see it."""
    variant = rng.choice([v for v in VARIANTS if v != "speed"])
    state = new_game(VARIANTS[variant], rng)
    for _ in range(rng.randrange(1, 40)):
        moves = legal_moves(state)
        if not moves:
            break
        state = apply_move(state, rng.choice(moves))
    if not all(state.piles):
        seven, king, eight, two, queen = parse_cards("7h Kc 8d 2s Qh")
        piles = (PileView(seven), PileView(king))
        return SpitScreen(variant, piles, ((PileView(eight), PileView(two)), (PileView(queen),)))

    def view(stock: Stock) -> PileView:
        return PileView(
            stock.cards[-1] if stock.face_up and stock.cards else None, len(stock.cards)
        )

    stocks = tuple(tuple(view(s) for s in side.stocks) for side in state.players)
    tops = (PileView(state.piles[0][-1]), PileView(state.piles[1][-1]))
    first = stocks[0][0].top
    move = "" if first is None else f"p1 {first} -> pile 1"
    spit = (len(state.players[0].spit), len(state.players[1].spit))
    return SpitScreen(variant, tops, (stocks[0], stocks[1]), spit, move=move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    print(f"CPU: {describe_cpu()}")
    rng = random.Random(args.seed)
    screens = [random_screen(rng) for _ in range(args.positions)]
    ruling_ms, page_ms = [], []
    # The first page pays for Flet's one-time set-up; it is printed apart.
    start = time.perf_counter()
    root_view(AppState(screen="spit", spit=screens[0]), lambda action: None)
    print(f"first page (one-time set-up) {(time.perf_counter() - start) * 1000:.1f} ms")
    for screen in screens:
        start = time.perf_counter()
        screen.ruling()
        ruling_ms.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        root_view(AppState(screen="spit", spit=screen), lambda action: None)
        page_ms.append((time.perf_counter() - start) * 1000)
    for name, times in (("ruling", ruling_ms), ("page (ruling included)", page_ms)):
        print(
            f"{name:24s} median {statistics.median(times):6.2f} ms   "
            f"worst {max(times):6.2f} ms   over {len(times)} positions"
        )
    ratio = statistics.median(page_ms) / statistics.median(ruling_ms)
    print(
        f"page / ruling (median): {ratio:.1f}x; worst page is "
        f"{max(page_ms) / TAP_BUDGET_MS:.0%} of a {TAP_BUDGET_MS:.0f} ms tap"
    )


if __name__ == "__main__":
    main()
