"""The characters a TrueType font draws, read from its ``cmap`` table (formats 4 and 12).

Small on purpose: the tests only ask "does the app's font have this character?", and the
app ships no font library.
"""

from __future__ import annotations

import struct
from functools import cache
from pathlib import Path

__all__ = ["characters"]


def _tables(data: bytes) -> dict[bytes, tuple[int, int]]:
    (count,) = struct.unpack_from(">H", data, 4)
    tables = {}
    for i in range(count):
        tag, _checksum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = (offset, length)
    return tables


def _format4(data: bytes, at: int) -> set[int]:
    (segments2,) = struct.unpack_from(">H", data, at + 6)
    n = segments2 // 2
    ends = struct.unpack_from(f">{n}H", data, at + 14)
    starts = struct.unpack_from(f">{n}H", data, at + 16 + segments2)
    deltas = struct.unpack_from(f">{n}h", data, at + 16 + 2 * segments2)
    range_at = at + 16 + 3 * segments2
    offsets = struct.unpack_from(f">{n}H", data, range_at)
    found = set()
    for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
        for code in range(start, end + 1):
            if code == 0xFFFF:
                continue
            if offsets[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                where = range_at + 2 * i + offsets[i] + 2 * (code - start)
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                found.add(code)
    return found


def _format12(data: bytes, at: int) -> set[int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    found = set()
    for i in range(groups):
        start, end, first = struct.unpack_from(">III", data, at + 16 + 12 * i)
        found.update(code for code in range(start, end + 1) if first + code - start)
    return found


@cache
def characters(font: Path) -> frozenset[str]:
    """Every character ``font`` has a glyph for (glyph 0, the empty box, does not count)."""
    data = font.read_bytes()
    offset, _ = _tables(data)[b"cmap"]
    (count,) = struct.unpack_from(">H", data, offset + 2)
    codes: set[int] = set()
    for i in range(count):
        _platform, _encoding, sub = struct.unpack_from(">HHI", data, offset + 4 + 8 * i)
        (kind,) = struct.unpack_from(">H", data, offset + sub)
        if kind == 4:
            codes |= _format4(data, offset + sub)
        elif kind == 12:
            codes |= _format12(data, offset + sub)
    return frozenset(chr(code) for code in codes)
