"""Heist replay speed per variant and street: the time of each answer, and how it was obtained.

    python3 benchmarks/replay_variants.py [--variant NAME ...] [--repeat N]

For one table of each variant (and of a few table rules), prints per street the seconds of
``everyone_odds`` (knowing every hole card), of ``own_odds`` (each hand's own cards only), each
with its method, and of ``best_tokens`` (``everyone_odds`` plus the search for the assignment
likeliest to open the vault) with that chance; methods read
``exact/N`` for N deals enumerated, ``mc/N`` for N samples with the largest standard error. The
best of ``--repeat`` warm runs counts; the lookup tables are built before timing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replay_preflop import _best as _timed  # noqa: E402  (this script's folder is on the path)

from companion.engine.cards import parse_cards  # noqa: E402
from companion.engine.gang.ranking import Ranking, TableRules  # noqa: E402
from companion.engine.gang.replay.odds import (  # noqa: E402
    Method,
    Street,
    best_tokens,
    everyone_odds,
    own_odds,
)
from companion.engine.gang.table import Player, Table  # noqa: E402

BOARD = parse_cards("As Kd Qh 7c 2s")


def _players(*hands: str) -> tuple[Player, ...]:
    names = ("Ana", "Bob", "Cy")
    return tuple(Player(n, parse_cards(h)) for n, h in zip(names, hands, strict=False))


TWO = _players("Ah Ad", "Th 9h", "3c 2c")
FOUR = _players("Ah Ad 6c 5c", "Th 9h 8d 8c", "3c 2c Jh Js")

TABLES: dict[str, Table] = {
    "classic": Table(TWO, BOARD),
    "classic-low-27": Table(TWO, BOARD, rules=TableRules(ranking=Ranking.LOW_27)),
    "classic-two-rivers": Table(TWO, BOARD, two_rivers=True, board2=parse_cards("3d 4d 5h 8s 9c")),
    "two-of-four": Table(FOUR, BOARD, variant="two-of-four"),
    "four-two-hands": Table(FOUR, BOARD, variant="four-two-hands"),
    "high-low": Table(FOUR, BOARD, variant="high-low"),
    "six-three-hands": Table(
        _players("Ah Ad 6c 5c 4s 3s", "Th 9h 8d 8c Jh Js"), BOARD, variant="six-three-hands"
    ),
    "six-three-low-27": Table(
        _players("Ah Ad 6c 5c 4s 3s", "Th 9h 8d 8c Jh Js"),
        BOARD,
        variant="six-three-hands",
        rules=TableRules(ranking=Ranking.LOW_27),
    ),
}


def _method(methods: list[Method]) -> str:
    worst = max(methods, key=lambda m: (not m.exact, m.std_error))
    if worst.exact:
        return f"exact/{worst.count}"
    return f"mc/{worst.count}±{100 * worst.std_error:.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variant",
        action="append",
        choices=sorted(TABLES),
        help="only this table (repeatable; default every one)",
    )
    parser.add_argument("--repeat", type=int, default=2, help="warm runs (the best counts)")
    args = parser.parse_args()
    everyone_odds(TABLES["classic"], Street.TURN)  # builds the lookup tables
    print(
        f"{'table':<20} {'street':<8} {'everyone s':>10} {'method':<16} {'own s':>7} "
        f"{'method':<16} {'best tokens s':>13}  P(open)"
    )
    for name in args.variant or list(TABLES):
        table = TABLES[name]
        total = 0.0
        for street in Street:
            e_s, everyone = _timed(lambda s=street, t=table: everyone_odds(t, s), args.repeat)
            o_s, own = _timed(lambda s=street, t=table: own_odds(t, s), args.repeat)
            b_s, best = _timed(lambda s=street, t=table: best_tokens(t, s), args.repeat)
            total += o_s + b_s  # as in street_odds: best_tokens includes everyone_odds
            print(
                f"{name:<20} {street.value:<8} {e_s:10.3f} "
                f"{_method([h.method for h in everyone]):<16} {o_s:7.3f} "
                f"{_method([h.method for h in own]):<16} {b_s:13.3f}  "
                f"{100 * best.p_open:.1f}%{'' if best.complete else ' (unproven)'}"
            )
        print(f"{name:<20} {'total':<8} {total:10.3f}")


if __name__ == "__main__":
    main()
