"""The ``companion`` command: one sub-command module per game or job.

Each module in ``COMMANDS`` exposes ``register(subparsers)``, which adds its parser and sets
``handler`` to a function ``(args) -> int``. Player-facing errors end here as one line, exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from companion.errors import CompanionError

__all__ = ["main", "COMMANDS"]

COMMANDS = ("showdown", "crib", "log", "spit", "app", "analyze", "detect")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table-side companion for The Gang, cribbage and Spit.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"companion.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except CompanionError as error:
        message = error.message(getattr(args, "lang", "en"))
        # One line, whatever a name or a field read from the input holds.
        message = message.replace("\r", "\\r").replace("\n", "\\n")
        print(f"companion: {message}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
