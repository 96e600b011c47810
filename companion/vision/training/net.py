"""The corner-index classifier's network: a 56x40 crop -> rank and suit logits.

Its own module: training builds it and ``onnx_init`` fills it from a shipped model, and neither
imports the other for it.
"""

from __future__ import annotations

import torch
from torch import nn

from companion.vision.training.patches import RANKS, SUITS

__all__ = ["CornerNet"]


def _block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


def _patches(cin: int, cout: int, size: int) -> nn.Sequential:
    """A stem that cuts the crop into ``size`` x ``size`` patches, each one pixel out."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, size, size, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class CornerNet(nn.Module):  # type: ignore[misc,unused-ignore]  # torch: untyped where types are checked
    """156 k parameters, about 20 MFLOP per crop (``width`` 1; channels scale with it).

    A 56x40 BGR crop -> rank (13 + no index) and suit logits. Its ``front`` layers bring the
    crop to 14x10 pixels of ``c[1]`` channels: a 3x3 stem at stride 2, a block at 28x20 and a
    pool; or, with ``patch``, a 4x4 patch stem at stride 4 and the block at 14x10 (about 14
    MFLOP, and about 0.6 of the time in int8 on 2 cores: onnxruntime's int8 convolutions run
    a 3-channel 3x3 stem at a tenth of their usual speed). The layers after are the same.
    """

    def __init__(self, width: float = 1.0, patch: bool = False) -> None:
        super().__init__()
        self.width = width
        c = [round(n * width) for n in (32, 48, 64, 128)]
        front = (
            [_patches(3, c[0], 4), _block(c[0], c[1])]
            if patch
            else [_block(3, c[0], stride=2), _block(c[0], c[1]), nn.MaxPool2d(2)]
        )
        self.front = len(front)
        self.features = nn.Sequential(
            *front,
            _block(c[1], c[2]),
            _block(c[2], c[2]),
            nn.MaxPool2d(2),
            _block(c[2], c[3]),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.1),
        )
        self.rank = nn.Linear(c[3], len(RANKS) + 1)
        self.suit = nn.Linear(c[3], len(SUITS))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.read_front(self.front_features(x))

    def front_features(self, x: torch.Tensor) -> torch.Tensor:
        """The crops at 14x10 pixels, after the ``front`` layers."""
        # Input: uint8-range BGR as float, N x H x W x 3 (the layout numpy crops come in).
        features: torch.Tensor = self.features[: self.front](x.permute(0, 3, 1, 2) / 255.0 - 0.5)
        return features

    def read_front(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Rank and suit logits from ``front_features``."""
        f = self.features[self.front :](features)
        return self.rank(f), self.suit(f)
