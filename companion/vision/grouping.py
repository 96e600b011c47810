"""Split read cards into the river (a row of up to five) and hands (clusters of the rest)."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from companion.vision.detections import Detections, Grouping

__all__ = ["group_cards"]

# Cards of one hand overlap (centres closer than this many card widths); river cards lie side
# by side, about one card width or more apart.
HAND_LINK = 0.85
# A row: every centre within this many card widths of the fitted line, gaps at most this wide.
ROW_RESIDUAL = 0.35
ROW_MAX_GAP = 2.8


def _components(centres: np.ndarray, link: float) -> list[list[int]]:
    n = len(centres)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if np.linalg.norm(centres[i] - centres[j]) < link:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _row_score(points: np.ndarray, width: float) -> float | None:
    """Straightness of a row of centres (lower is better), or None when it is not a row."""
    mean = points.mean(axis=0)
    _, _, vt = np.linalg.svd(points - mean)
    direction, normal = vt[0], vt[1]
    residual = np.abs((points - mean) @ normal).max() / width
    along = np.sort((points - mean) @ direction)
    gaps = np.diff(along) / width
    if residual > ROW_RESIDUAL or gaps.max() > ROW_MAX_GAP or gaps.min() < 0.8:
        return None
    return float(residual + 0.1 * (gaps.max() - gaps.min()))


def group_cards(detections: Detections, card_width: float) -> Grouping:
    """River = the straightest row of up to five lone cards; hands = clusters of the others."""
    if len(detections) == 0:
        return Grouping((), (), 0.0)
    centres = detections.centres.astype(np.float64)
    width = max(card_width, 1.0)
    clusters = _components(centres, HAND_LINK * width)
    lone = [c[0] for c in clusters if len(c) == 1]
    river: tuple[int, ...] = ()
    for size in (5, 4, 3):
        best: tuple[float, tuple[int, ...]] | None = None
        for subset in combinations(lone, size):
            score = _row_score(centres[list(subset)], width)
            if score is not None and (best is None or score < best[0]):
                best = (score, subset)
        if best is not None:
            river = best[1]
            break
    # River cards in reading order along the row.
    if river:
        pts = centres[list(river)]
        direction = np.linalg.svd(pts - pts.mean(axis=0))[2][0]
        if abs(direction[0]) < abs(direction[1]):
            direction = direction if direction[1] > 0 else -direction
        else:
            direction = direction if direction[0] > 0 else -direction
        river = tuple(sorted(river, key=lambda i: float(centres[i] @ direction)))
    hands = [sorted(c) for c in clusters if not set(c) & set(river)]
    hands.sort(key=lambda c: (float(centres[c].mean(axis=0)[1]), float(centres[c].mean(axis=0)[0])))
    codes = detections.codes
    confidence = float(np.mean(detections.confidence))
    if len(river) != 5:
        confidence *= 0.4
    if any(len(h) != 2 for h in hands):
        confidence *= 0.6
    return Grouping(tuple(codes[i] for i in river),
                    tuple(tuple(codes[i] for i in h) for h in hands), round(confidence, 3))
