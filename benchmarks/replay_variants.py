"""Heist replay speed per variant and street: the time of each answer, and how it was obtained.

    python3 benchmarks/replay_variants.py [--variant NAME ...] [--repeat N]

For one table of each variant (and of every table rule: lowball, wrap, wild cards free and
bound, two decks, three hole cards), prints per street the seconds of
``everyone_odds`` (knowing every hole card), of ``own_odds`` (each hand's own cards only), each
with its method, and of ``best_tokens`` (``everyone_odds`` plus the search for the assignment
likeliest to open the vault) with that chance, then the whole replay's time (``replay_table``,
the hands as they stood included, whose own time ``stood_streets`` is shown beside it) against
the plain game's (the README example, ``examples/heist.json``, in the same run); methods
read
``exact/N`` for N deals enumerated, ``mc/N`` for N samples with the largest standard error. The
best of ``--repeat`` warm runs counts; the lookup tables are built before timing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replay_preflop import _best as _timed  # noqa: E402  (this script's folder is on the path)

from companion.bench.cpu import describe_cpu
from companion.engine.cards import parse_cards  # noqa: E402
from companion.engine.gang.ranking import Ranking, Straights, TableRules  # noqa: E402
from companion.engine.gang.replay.odds import (  # noqa: E402
    Method,
    Street,
    best_tokens,
    everyone_odds,
    own_odds,
    replay_table,
)
from companion.engine.gang.replay.stood import stood_streets  # noqa: E402
from companion.engine.gang.table import Player, SharedHand, Table  # noqa: E402
from companion.formats.table import table_from_json  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "heist.json"

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
    "classic-low-a5": Table(TWO, BOARD, rules=TableRules(ranking=Ranking.LOW_A5)),
    "classic-wrap": Table(TWO, BOARD, rules=TableRules(straights=Straights.WRAP)),
    "classic-joker": Table(_players("Ah *", "Th 9h", "3c 2c"), BOARD),
    "classic-bound-wild": Table(_players("Ah Ad", "Th *h", "3c 2c"), BOARD),
    "classic-two-decks": Table(
        _players("Ah Ac", "Th 9h", "Ah 2c"), BOARD, rules=TableRules(decks=2)
    ),
    "classic-3-cards": Table(_players("Ah Ad 6c", "Th 9h 8d", "3c 2c Jh"), BOARD),
    "high-low-low-27": Table(
        FOUR, BOARD, variant="high-low", rules=TableRules(ranking=Ranking.LOW_27)
    ),
    "francois": Table(
        tuple(
            Player(n, parse_cards(h), parse_cards(f)[0])
            for n, h, f in (
                ("Ana", "Ah Ad 6c", "5d"),
                ("Bob", "Th 9h 8d", "4h"),
                ("Cy", "3c 2c Jh", "Tc"),
            )
        ),
        BOARD,
        variant="francois",
    ),
    "circular-low-a5": Table(
        TWO,
        BOARD,
        variant="circular",
        rules=TableRules(ranking=Ranking.LOW_A5),
        shared=(
            SharedHand(("Ana", "Bob"), parse_cards("6d 6h")),
            SharedHand(("Bob", "Cy"), parse_cards("Jd Tc")),
            SharedHand(("Cy", "Ana"), parse_cards("4d 5d")),
        ),
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
    print(f"CPU: {describe_cpu()}")
    everyone_odds(TABLES["classic"], Street.TURN)  # builds the lookup tables
    example = table_from_json(json.loads(EXAMPLE.read_text()))
    plain_s, _ = _timed(lambda: replay_table(example), args.repeat)
    print(f"plain game (README example, {EXAMPLE.name}): whole replay {plain_s:.3f} s")
    print(
        f"{'table':<20} {'street':<8} {'everyone s':>10} {'method':<16} {'own s':>7} "
        f"{'method':<16} {'best tokens s':>13}  P(open)"
    )
    for name in args.variant or list(TABLES):
        table = TABLES[name]
        replay_table(table)  # builds the rules' tables of fives
        whole_s, _ = _timed(lambda t=table: replay_table(t), args.repeat)
        stood_s, _ = _timed(lambda t=table: stood_streets(t), args.repeat)
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
        print(
            f"{name:<20} {'total':<8} {total:10.3f}   whole replay {whole_s:.3f} s = "
            f"{whole_s / plain_s:.1f}x the plain game (as they stood: {stood_s:.3f} s)"
        )


if __name__ == "__main__":
    main()
