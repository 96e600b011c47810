"""The command line of the tools that rewrite model files in place (``requantize``,
``narrow``): each named file rewritten, a line printed for each, a missing one named."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

__all__ = ["rewrite_files"]


def rewrite_files(
    argv: list[str] | None, description: str, rewrite: Callable[[Path], int], done: str
) -> int:
    """Run ``rewrite`` on each model file of ``argv`` and print ``path: N done``; 2 (and
    nothing rewritten from there on) at the first file that does not exist."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("models", type=Path, nargs="+")
    args = parser.parse_args(argv)
    for path in args.models:
        if not path.is_file():
            print(f"{path}: no such model file", file=sys.stderr)
            return 2
        print(f"{path}: {rewrite(path)} {done}")
    return 0
