"""How the "not a table" test (``companion.ui.kit.photo.read.not_a_table``) decides on real images:
screenshots of the app, the fixtures' table photos, real table photos at several sizes and real
phone photos of single cards. Per group: how many are refused, and the two measures it goes by
(the share of reads the reader is sure of, the share of the frame that is card paper).

    PYTHONPATH=. python3 benchmarks/not_a_table.py [--real ../shared/real_photos]

Each image is read as the Showdown screen reads a photo of four players (the table's layout
told); downsized copies of the real tables (1000, 600 and 450 px wide) stand for the 12 MP
copies and small webcam frames players send.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.ui.kit.photo.read import not_a_table
from companion.ui.kit.services import LazyDetector
from companion.vision.base.paper import paper_share
from companion.vision.layouts.expect import Expect
from tests.helpers import FIXTURES, ROOT

WIDTHS = (1000, 600, 450)


def groups(real: Path) -> dict[str, Iterator[tuple[str, np.ndarray]]]:
    def files(paths: list[Path]) -> Iterator[tuple[str, np.ndarray]]:
        for path in paths:
            yield path.name, cv2.imdecode(np.fromfile(path, np.uint8), cv2.IMREAD_COLOR)

    def smaller(paths: list[Path]) -> Iterator[tuple[str, np.ndarray]]:
        for name, image in files(paths):
            for width in WIDTHS:
                height = round(image.shape[0] * width / image.shape[1])
                size = (width, height)
                yield f"{name}@{width}", cv2.resize(image, size, interpolation=cv2.INTER_AREA)

    tables = sorted((real / "iapr2022_poker_table").glob("*.jpg"))
    return {
        "app screenshots (docs, 1x)": files(sorted((ROOT / "docs" / "screenshots").glob("*.png"))),
        "app screenshots (fixtures, 3x)": files(sorted(FIXTURES.glob("app_screenshot_*"))),
        "fixture photos": files(
            sorted(p for p in FIXTURES.glob("*.jpg") if not p.name.startswith("app_"))
        ),
        "real tables (6000x4000)": files(tables),
        "real tables, downsized": smaller(tables),
        "real single cards (phone)": files(sorted((real / "lazarcbs").glob("*.jpg"))),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--real", type=Path, default=ROOT.parent / "shared" / "real_photos")
    args = parser.parse_args()
    reader = LazyDetector()
    for group, images in groups(args.real).items():
        refused: list[str] = []
        sure_shares, papers = [], []
        count = 0
        for name, image in images:
            read = reader.read_layout(image, Expect(5, 4, 2))
            assert read is not None, "the reader is unavailable"
            found = read.detections
            paper = paper_share(image)
            papers.append(paper)
            if len(found):
                sure_shares.append(float(np.mean(~found.check)))
            said = not_a_table(found, paper)
            if said is not None:
                refused.append(f"{name} ({said})")
            count += 1
        sure = f"{min(sure_shares):.2f}..{max(sure_shares):.2f}" if sure_shares else "no read"
        print(
            f"{group}: {len(refused)}/{count} refused; sure share {sure}; "
            f"paper {min(papers):.2f}..{max(papers):.2f} (median {statistics.median(papers):.2f})"
        )
        for line in refused if len(refused) < count else []:
            print("   refused:", line)


if __name__ == "__main__":
    main()
