"""``analyze`` and ``showdown`` on the hardest tables the checks accept (issue #44): big hands,
wild-card tables of every variant, long names; and round three's (#53): a street of 3 million
token moves, one name in two Unicode spellings. Each case runs in a process of its own; its wall
time and peak memory (the process's maximum resident set) are printed, with the time as a
ratio of a plain four-player table's in the same run.

Run: ``python3 benchmarks/adversarial.py [--only WORD] [--timeout S]``. A case past the timeout
is printed as such; a refused table prints its one-line refusal.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.bench.cpu import describe_cpu

ROOT = Path(__file__).resolve().parents[1]
DECK = [r + s for s in "shdc" for r in "23456789TJQKA"]
BOARD = "2h 7d 9s Jc Kd"

# Runs the command in the child and reports its own time and peak memory on the last line.
_CHILD = """
import json, os, resource, sys, time
from companion.cli import main
argv = json.loads(sys.argv[1])
sys.stdout = open(os.devnull, "w")
start = time.perf_counter()
code = main(argv)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"code": code, "seconds": seconds, "peak_mb": peak}), file=sys.stderr)
"""


def _players(hands: list[str], names: list[str] | None = None) -> list[dict[str, str]]:
    names = names or [f"P{i}" for i in range(len(hands))]
    return [{"name": n, "cards": cards} for n, cards in zip(names, hands, strict=True)]


def _dealt(players: int, each: int) -> list[str]:
    """Distinct real cards, ``each`` per player, none on the board."""
    free = [c for c in DECK if c not in BOARD.split()]
    return [" ".join(free[i * each : (i + 1) * each]) for i in range(players)]


def _wild(players: int, each: int, card: str = "*") -> list[str]:
    return [" ".join([card] * each)] * players


def _table(hands: list[str], variant: str = "classic", **more: Any) -> dict[str, Any]:
    return {"variant": variant, "board": BOARD, "players": _players(hands), **more}


def _francois(n: int) -> dict[str, Any]:
    wild = " ".join(["*"] * n)
    players = [{"name": f"P{i}", "cards": wild, "francois_card": "*"} for i in range(n)]
    return {"variant": "francois", "board": BOARD, "players": players}


def _circular(n: int) -> dict[str, Any]:
    shared = [{"between": [f"P{i}", f"P{(i + 1) % n}"], "cards": "* *"} for i in range(n)]
    return _table(_wild(n, 2), "circular", shared=shared)


def _two_decks(each: int) -> dict[str, Any]:
    cards = DECK * 2
    for card in BOARD.split():
        cards.remove(card)
    hands = [" ".join(cards[:each]), " ".join(cards[each : 2 * each])]
    return _table(hands, rules={"decks": 2})


def _jokers(table: dict[str, Any]) -> int:
    places = [table["board"], table.get("board2", "")]
    places += [p["cards"] + " " + p.get("francois_card", "") for p in table["players"]]
    places += [s["cards"] for s in table.get("shared", ())]
    return sum(place.split().count("*") for place in places)


def _with_trumps(table: dict[str, Any]) -> dict[str, Any]:
    """The table with the fewest decks whose tarot trumps (22 a deck) hold its jokers, up to
    three: since issue #54 one deck refuses a 23rd joker."""
    decks = -(-_jokers(table) // 22)
    if decks <= 1 or "rules" in table:
        return table
    return {**table, "rules": {"decks": min(decks, 3)}}


def cases() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(name, command, table) for every case; the first is the reference."""
    for name, command, table in _cases():
        yield name, command, _with_trumps(table)


def _cases() -> Iterator[tuple[str, str, dict[str, Any]]]:
    yield "reference: classic, 4 x 2 cards", "analyze", _table(_dealt(4, 2))
    for h in (6, 8, 10, 11, 12, 16, 22):
        yield f"classic, 2 x {h} cards", "analyze", _table(_dealt(2, h))
    for h in (8, 12, 22):
        yield f"classic, 2 x {h} '*'", "analyze", _table(_wild(2, h))
    yield "classic, 5 x 8 cards", "analyze", _table(_dealt(5, 8))
    yield "classic, 4 x 10 cards", "analyze", _table(_dealt(4, 10))
    for command in ("showdown", "analyze"):
        wild_river = {**_table(_dealt(2, 22)), "board": "* * * * *"}
        yield f"classic, 2 x 22 cards, a wild river ({command})", command, wild_river
        yield f"classic, two decks, 2 x 49 cards ({command})", command, _two_decks(49)
    yield "classic, 5 x 6 '*'", "analyze", _table(_wild(5, 6))
    yield "classic, 10 x 3 '*'", "analyze", _table(_wild(10, 3))
    bound = {**_table(_wild(10, 3, "*s")), "board": "*h *h *h *h *h"}
    yield "classic, 10 x 3 '*s', a river of '*h'", "analyze", bound
    yield "two-of-four, 10 x 4 '*'", "analyze", _table(_wild(10, 4), "two-of-four")
    yield "high-low, 10 x 4 '*'", "analyze", _table(_wild(10, 4), "high-low")
    two_rivers = {
        **_table(_wild(5, 4), "four-two-hands", two_rivers=True, board2="* * * * *"),
        "board": "* * * * *",
    }
    yield "four-two-hands, 5 x 4 '*', two wild rivers", "analyze", two_rivers
    six_three = {**_table(_wild(2, 6), "six-three-hands"), "board": "* * * * *"}
    yield "six-three-hands, all '*'", "analyze", six_three
    for n in (5, 6, 10):
        yield f"francois, {n} x ({n} + 1) '*'", "analyze", _francois(n)
    yield "circular, 10 x 2 '*', shared '*'", "analyze", _circular(10)
    names = [chr(ord("A") + i) * 10_000 for i in range(10)]
    for command in ("showdown", "analyze"):
        long_names = {"board": BOARD, "players": _players(_dealt(10, 2), names)}
        yield f"classic, 10 names of 10,000 characters ({command})", command, long_names
    # Round three (#53): a street of 3 million token moves (57 MB, under the reader's 64 MiB)
    # took showdown 62 s and 1 GB; one name in two Unicode spellings was two players.
    for count in (3_000_000, 400_000):
        for command in ("showdown", "analyze"):
            flooded = {"board": BOARD, "players": _players(_dealt(2, 2), ["A", "B"])}
            flooded["token_moves"] = {"flop": [{"by": "A", "take": 1}] * count}
            yield f"{count:,} token moves on the flop ({command})", command, flooded
    for command in ("showdown", "analyze"):
        twice = {"board": BOARD, "players": _players(_dealt(2, 2), ["Chlo\u00e9", "Chloe\u0301"])}
        yield f"'Chloé' in NFC and in NFD ({command})", command, twice


def run_case(command: str, table: dict[str, Any], timeout: float) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(table, file, separators=(",", ":"))
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, json.dumps([command, file.name])],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    finally:
        os.unlink(file.name)
    lines = done.stderr.strip().splitlines()
    result: dict[str, Any] = json.loads(lines[-1]) if lines else {"code": done.returncode}
    if len(lines) > 1:
        result["said"] = lines[-2][:100]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", default="", help="run the cases whose name holds this")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per case")
    args = parser.parse_args()
    print(f"CPU: {describe_cpu()}")
    reference: float | None = None
    print(f"{'case':<52} {'command':<9} {'time':>8} {'ratio':>6} {'peak':>8}  result")
    for name, command, table in cases():
        if reference is not None and args.only not in name:
            continue
        result = run_case(command, table, args.timeout)
        if result.get("timeout"):
            print(f"{name:<52} {command:<9} {'>' + str(int(args.timeout)) + ' s':>8}")
            continue
        seconds = result["seconds"]
        reference = reference or seconds
        outcome = "ok" if result["code"] == 0 else f"exit {result['code']}"
        if "said" in result:
            outcome += f": {result['said']}"
        print(
            f"{name:<52} {command:<9} {seconds:7.1f}s {seconds / reference:6.1f} "
            f"{result['peak_mb']:6.0f}MB  {outcome}"
        )


if __name__ == "__main__":
    main()
