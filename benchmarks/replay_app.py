"""How long the app's replay screen waits, per variant: the whole replay of one saved heist.

    python3 benchmarks/replay_app.py [--six-three]

Runs ``replay_table`` under the app's settings (``companion.ui.replay_actions.SETTINGS``) on a
3-player table of each variant (six-three-hands, 2 players, only with ``--six-three``: about a
minute) and prints the seconds each takes; the first line includes building the lookup tables.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.bench.cpu import describe_cpu
from companion.engine.gang.replay.odds import replay_table  # noqa: E402
from companion.formats.table import table_from_json  # noqa: E402
from companion.ui.replay.actions import SETTINGS

BOARD = "As Kd Qh 7c 2s"
TWO = [("Ana", "Ah Ad"), ("Bob", "Th 9h"), ("Cy", "3c 2c")]
FOUR = [("Ana", "Ah Ad 6c 5c"), ("Bob", "Th 9h 8d 8c"), ("Cy", "3c 2c Jh Js")]


def _players(hands: list[tuple[str, str]]) -> list[dict[str, Any]]:
    return [{"name": name, "cards": cards} for name, cards in hands]


def tables(six_three: bool) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {
        "classic, 3 players": {"board": BOARD, "players": _players(TWO)},
        "classic, 6 players": {
            "board": BOARD,
            "players": _players(TWO + [("Di", "4h 4s"), ("Ed", "Jc Tc"), ("Fa", "5s 6s")]),
        },
        "classic, two rivers": {
            "board": BOARD,
            "two_rivers": True,
            "board2": "3d 4d 5h 8s 9c",
            "players": _players(TWO),
        },
        "classic, low-a5 ranking": {
            "board": BOARD,
            "rules": {"ranking": "low-a5"},
            "players": _players(TWO),
        },
        "two-of-four": {"variant": "two-of-four", "board": BOARD, "players": _players(FOUR)},
        "four-two-hands": {"variant": "four-two-hands", "board": BOARD, "players": _players(FOUR)},
        "high-low": {"variant": "high-low", "board": BOARD, "players": _players(FOUR)},
        "francois": {
            "variant": "francois",
            "board": BOARD,
            "players": [
                {"name": name, "cards": f"{cards} {extra}", "francois_card": given}
                for (name, cards), extra, given in zip(
                    TWO, ("4c", "8d", "Js"), ("5d", "6h", "Jh"), strict=True
                )
            ],
        },
    }
    if six_three:
        found["six-three-hands, 2 players"] = {
            "variant": "six-three-hands",
            "board": BOARD,
            "players": _players([("Ana", "Ah Ad 6c 5c 4s 3s"), ("Bob", "Th 9h 8d 8c Jh Js")]),
        }
    return found


def main(argv: list[str]) -> int:
    print(f"CPU: {describe_cpu()}")
    print(
        f"app settings: budget {SETTINGS.budget_s} s per street and view, "
        f"{SETTINGS.samples} samples at most, {SETTINGS.min_samples} at least"
    )
    for name, raw in tables("--six-three" in argv).items():
        table = table_from_json(raw)
        start = time.perf_counter()
        replay_table(table, None, SETTINGS)
        print(f"{name:28s} {time.perf_counter() - start:6.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
