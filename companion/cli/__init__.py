"""The ``companion`` command: one sub-command module per game or job.

Each module in ``COMMANDS`` exposes ``register(subparsers)``, which adds its parser and sets
``handler`` to a function ``(args) -> int``. Every failure ends here as one line naming it
and what to do, exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Sequence

from companion.cli._out import ClosedOutput, Discarded, OutputClosedError, shown, silence_stdout
from companion.errors import PATH_SHOWN, CompanionError, shortened
from companion.messages import text

__all__ = ["main", "COMMANDS"]

COMMANDS = ("showdown", "crib", "log", "spit", "app", "analyze", "detect")
DEBUG_ENV = "COMPANION_DEBUG"  # set: a bug's traceback is printed before its one line
INTERRUPTED = 130  # the shell's status for a command stopped by Ctrl-C
READER_LEFT = 141  # the shell's status for a Unix tool whose reader left (128 + SIGPIPE)
BUG_SHOWN = 200  # characters of an unexpected error's own words in its line


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
    """Entry point of the console script: every failure ends here as one line, exit 2."""
    # Started with standard output or error closed (``>&-``): Python gives None, where print
    # writes nothing and says nothing.
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    if sys.stderr is None:
        sys.stderr = Discarded()
    parser = build_parser()
    args = parser.parse_args(argv)
    lang = getattr(args, "lang", "en")
    try:
        code: int = args.handler(args)
        sys.stdout.flush()  # what print left buffered fails here, not at exit
    except CompanionError as error:
        return _refuse(error.message(lang))
    except KeyboardInterrupt:
        return _refuse(text("cli.interrupted", lang), INTERRUPTED)
    except MemoryError:
        return _refuse(text("cli.out_of_memory", lang))
    except BrokenPipeError:
        # The reader left (``| head``): nothing more to say, as a Unix tool says nothing.
        silence_stdout()
        return READER_LEFT
    except OutputClosedError:
        return _refuse(text("cli.stdout_closed", lang))
    except OSError as error:
        return _refuse(text("cli.system_error", lang, **_os_params(error)))
    except Exception as error:  # a bug: said in one line, its traceback kept for a report
        if os.environ.get(DEBUG_ENV):
            traceback.print_exc()
        detail = shortened(f"{type(error).__name__}: {error}", BUG_SHOWN)
        return _refuse(text("cli.bug", lang, detail=detail, env=DEBUG_ENV))
    return code


def _os_params(error: OSError) -> dict[str, str]:
    """What an OSError names: the file (``-`` when it names none) and the system's reason."""
    path = error.filename if error.filename is not None else "-"
    reason = error.strerror or type(error).__name__
    return {"path": shortened(str(path), PATH_SHOWN), "reason": reason}


def _refuse(message: str, code: int = 2) -> int:
    try:
        print(f"companion: {shown(message)}", file=sys.stderr, flush=True)
    except OSError:  # standard error itself is gone: the exit status still says it
        pass
    return code


if __name__ == "__main__":
    sys.exit(main())
