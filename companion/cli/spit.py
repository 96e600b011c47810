"""``companion spit``: referee a typed Spit position or a photo, or run the self-play checks."""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from companion.cli import _photo
from companion.cli._io import bounded_int
from companion.cli._progress import Progress
from companion.engine.spit import (
    VARIANTS,
    SpitRules,
    SpitState,
    combined,
)
from companion.engine.spit.referee import referee, typed_position
from companion.engine.spit.sim import DEFAULT_MAX_MOVES, SimulationReport, simulate
from companion.engine.spit.words import explain
from companion.errors import InputError
from companion.formats.spit import parse_move, parse_pile, ruling_to_json
from companion.messages import text
from companion.vision.layouts.spit import SpitPhoto, read_spit, spit_position

__all__ = ["register"]

REFEREE_HELP = """\
Piles and stock spaces are written as tokens:
  7h       a face-up card alone (a spit pile top, or a stock card with nothing under it)
  7h/3     a face-up 7h on a pile of 3 cards (matters for the slap and for uncovering)
  ?        a face-down stock card; ?/3 a face-down top on a pile of 3 (quote it in the shell)
  -        an empty stock space or an empty spit pile
Players, piles and stock spaces count from 1, left to right.
A disputed --move is written like:
  "p1 8d -> pile 1"     player 1 plays 8d on spit pile 1
  "p2 9c -> stock 4"    player 2 moves 9c to the empty stock space 4
  "p1 turn 3"           player 1 turns up the face-down top of stock 3
  "spit" / "spit 2"     both spit / a lone spitter spits on pile 2
  "p1 takes pile 2"     player 1 won the slap for pile 2 (or chose it)
(j1/j2, tas and réserve are accepted too.)
In Speed, --p1/--p2 are the hands, --p1-spit/--p2-spit the draw piles and --side the side piles.
Example:
  companion spit referee --piles 7h Kc --p1 8d 2s '?' - 9c/3 --p2 Qh 5c --p1-spit 4 --p2-spit 6 \\
      --move "p1 8d -> pile 1"

From a photo (--photo IMG instead of --piles/--p1/--p2), taken from player 1's side:
  top row      player 2's stock tops (face up; face-down and empty spaces are not read)
  middle row   the two spit piles, pile 1 on the left (face-down spit cards may lie beside)
  bottom row   player 1's stock tops
The stock tops read count from 1, left to right as the photo shows them (spaces without a
face-up card are skipped). A face-down stock top looks like an empty space: say how many
each player has with --p1-down/--p2-down (they count after the cards read). Spit cards are
not seen on a photo: each player is taken to have some left unless --p1-spit/--p2-spit say
how many.
  companion spit referee --photo table.jpg [--json] [--lang fr]
"""


def _referee(args: argparse.Namespace) -> int:
    rules = combined(args.rules)
    live = None if args.only_pile is None else args.only_pile - 1
    side_left = (args.side[0], args.side[1])
    header: list[str] = []
    extra: dict[str, Any] = {}
    if args.photo is not None:
        photo = _read_photo(args)
        # Spit cards are in the players' hands, off the photo: unless told, each has some left.
        spit_left = (
            1 if args.p1_spit is None else args.p1_spit,
            1 if args.p2_spit is None else args.p2_spit,
        )
        face_down = (args.p1_down, args.p2_down)
        state = spit_position(photo, rules, spit_left, live, side_left, face_down)
        header, extra = [_photo_line(args.photo, photo, args.lang)], _photo_json(args.photo, photo)
    else:
        state = _typed_state(args, rules, live, side_left)
    disputed = None if args.move is None else parse_move(args.move, rules.stock_piles)
    ruling = referee(state, disputed)
    if args.json:
        data = {**ruling_to_json(ruling, args.lang), **extra}
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print("\n".join([*header, *explain(ruling, args.lang)]))
    return 0


def _typed_state(
    args: argparse.Namespace, rules: SpitRules, live: int | None, side_left: tuple[int, int]
) -> SpitState:
    if args.piles is None:
        raise InputError("spit.piles_missing")
    piles = [parse_pile(token, f"--piles {i + 1}") for i, token in enumerate(args.piles)]
    stocks = tuple(
        [parse_pile(token, f"--p{p} stock {i + 1}") for i, token in enumerate(tokens)]
        for p, tokens in ((1, args.p1), (2, args.p2))
    )
    return typed_position(
        rules,
        (piles[0], piles[1]),
        (stocks[0], stocks[1]),
        (args.p1_spit or 0, args.p2_spit or 0),
        live=live,
        side_left=side_left,
    )


def _read_photo(args: argparse.Namespace) -> SpitPhoto:
    typed = [name for name in ("piles", "p1", "p2") if getattr(args, name)]
    if typed:
        raise InputError("spit.photo_and_piles", options=tuple(f"--{name}" for name in typed))
    return read_spit(_photo.read_photo(args.photo, args.model), str(args.photo))


def _photo_json(path: Path, photo: SpitPhoto) -> dict[str, Any]:
    return {
        "photo": {
            "image": str(path),
            "piles": [_photo.seen_json(seen) for seen in photo.piles],
            "p1": [_photo.seen_json(seen) for seen in photo.stocks[0]],
            "p2": [_photo.seen_json(seen) for seen in photo.stocks[1]],
        }
    }


def _photo_line(path: Path, photo: SpitPhoto, lang: str) -> str:
    piles, p1, p2 = (
        " ".join(seen.card.pretty() for seen in row) or "—" for row in (photo.piles, *photo.stocks)
    )
    note = _photo.unsure_note(photo.seen, lang)
    return text("cli.spit_photo", lang, path=str(path), piles=piles, p1=p1, p2=p2) + note


def _report_json(report: SimulationReport, seconds: float) -> dict[str, Any]:
    return {
        "rules": report.rules.name,
        "games": report.games,
        "moves": report.moves,
        "rounds": report.rounds,
        "wins": {"p1": report.wins[0], "p2": report.wins[1]},
        "longest": report.longest,
        "seconds": round(seconds, 3),
        "games_per_second": round(report.games / seconds, 1) if seconds > 0 else None,
        "failures": [{"game": f.game, "move": f.move, "what": f.what} for f in report.failures],
        "points": {"p1": report.points[0], "p2": report.points[1]} if report.rules.speed else None,
    }


def _report_text(report: SimulationReport, seconds: float) -> list[str]:
    per_game = report.moves / max(report.games, 1)
    rate = report.games / seconds if seconds > 0 else float("inf")
    lines = [
        f"{report.rules.name:12} {report.games} games, {report.moves} moves "
        f"({per_game:.0f}/game, longest {report.longest}), {report.rounds} rounds, "
        f"wins p1 {report.wins[0]} p2 {report.wins[1]}, {rate:.1f} games/s, "
        f"{len(report.failures)} failures"
        + (f", points p1 {report.points[0]} p2 {report.points[1]}" if report.rules.speed else "")
    ]
    lines += [f"  game {f.game} move {f.move}: {f.what}" for f in report.failures[:5]]
    return lines


def _simulate(args: argparse.Namespace) -> int:
    names = list(VARIANTS) if args.rules == "all" else [args.rules]
    variants = [combined(name) for name in names]  # every name checked before any game
    rng = random.Random(args.seed)
    runs = []
    with Progress() as progress:
        for rules in variants:

            def played(n: int, rules: SpitRules = rules) -> None:
                line = text("cli.spit_progress", "en", rules=rules.name, n=n, total=args.games)
                progress.show(line, now=n == args.games)

            start = time.perf_counter()
            report = simulate(rules, args.games, rng, args.max_moves, played=played)
            runs.append((report, time.perf_counter() - start))
    if args.json:
        results = [_report_json(report, seconds) for report, seconds in runs]
        print(json.dumps({"seed": args.seed, "results": results}, indent=2))
    else:
        for report, seconds in runs:
            print("\n".join(_report_text(report, seconds)))
    return 1 if any(report.failures for report, _ in runs) else 0


MAX_GAMES = 10_000  # games per variant: minutes of self-play, not days
MAX_MOVES = 1_000_000  # a game's moves before it counts as a failure

# Cards in one pile or hand of a position: a deal has 52.
_cards_count = bounded_int(0, 52)


def register(subparsers: Any) -> None:
    """Add ``companion spit`` with its ``referee`` and ``simulate`` sub-commands."""
    parser = subparsers.add_parser(
        "spit",
        help="Spit: referee a position, or self-play checks",
        description="Referee a typed Spit position, or run the random self-play checks.",
    )
    commands = parser.add_subparsers(dest="spit_command", metavar="ACTION", required=True)
    variants = ", ".join(VARIANTS)

    ref = commands.add_parser(
        "referee",
        help="legal plays, stalemate, or the rule a disputed move breaks",
        description="Rule on a typed Spit position.",
        epilog=REFEREE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ref.add_argument(
        "--rules",
        default="classic",
        help=f"variant: {variants}, or several joined by + (four-stocks+alternate)",
    )
    ref.add_argument("--piles", nargs=2, metavar="PILE", help="the two spit pile tops")
    ref.add_argument(
        "--photo", type=Path, metavar="IMG", help="read the layout from a photo (see below)"
    )
    ref.add_argument("--model", type=Path, metavar="ONNX", help=_photo.MODEL_HELP)
    ref.add_argument("--p1", nargs="*", default=[], metavar="STOCK", help="player 1's stock spaces")
    ref.add_argument("--p2", nargs="*", default=[], metavar="STOCK", help="player 2's stock spaces")
    ref.add_argument(
        "--p1-spit",
        type=_cards_count,
        metavar="N",
        help="player 1's spit cards left (default 0; with --photo, some)",
    )
    ref.add_argument(
        "--p2-spit",
        type=_cards_count,
        metavar="N",
        help="player 2's spit cards left (default 0; with --photo, some)",
    )
    for player in (1, 2):
        ref.add_argument(
            f"--p{player}-down",
            type=_cards_count,
            default=0,
            metavar="N",
            help=f"with --photo: player {player}'s face-down stock tops (unread)",
        )
    ref.add_argument(
        "--only-pile", type=int, choices=(1, 2), help="since a lone spit, the only live pile"
    )
    ref.add_argument(
        "--side",
        type=_cards_count,
        nargs=2,
        default=[0, 0],
        metavar="N",
        help="Speed: side pile sizes",
    )
    ref.add_argument("--move", help='a disputed move, e.g. "p1 8d -> pile 1"')
    ref.add_argument("--json", action="store_true", help="print JSON")
    ref.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the text")
    ref.set_defaults(handler=_referee)

    sim = commands.add_parser(
        "simulate",
        help="random self-play checking the rules engine's invariants",
        description="Play random games; exit 1 if any invariant breaks (cards lost, an illegal "
        "move applied, a game past --max-moves).",
    )
    sim.add_argument(
        "--games",
        type=bounded_int(0, MAX_GAMES),
        default=1000,
        help=f"games per variant (default 1000, at most {MAX_GAMES:,})",
    )
    sim.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    sim.add_argument(
        "--rules",
        default="all",
        help=f"all, or one of {variants}, or several joined by + (four-stocks+alternate)",
    )
    sim.add_argument(
        "--max-moves",
        type=bounded_int(1, MAX_MOVES),
        default=DEFAULT_MAX_MOVES,
        help=f"a game longer than this is a failure (default {DEFAULT_MAX_MOVES})",
    )
    sim.add_argument("--json", action="store_true", help="print JSON")
    sim.set_defaults(handler=_simulate)
