"""Photos as BGR pixels: a file or an upload decoded once, for the CLI and the app alike.

The size a file declares in its header is checked before anything is decoded: a 631-byte JPEG
may claim 30000x30000 pixels, which would take gigabytes to decode only to be refused.

>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + b"\\x00\\x00\\x00\\rIHDR" + (60000).to_bytes(4, "big") * 2
>>> declared_size(png)
(60000, 60000)
"""

from __future__ import annotations

import os
import stat
import struct
from pathlib import Path

# OpenCV's own cap (read when it first decodes), for formats whose header is not read here.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(100_000_000))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.errors import ImageDecodeError  # noqa: E402
from companion.messages import phrase  # noqa: E402

__all__ = [
    "MAX_PIXELS",
    "MAX_FILE_BYTES",
    "MIN_IMAGE_SIDE",
    "declared_size",
    "decode_image",
    "load_image",
    "refuse_too_large",
    "refuse_too_small",
]

MIN_IMAGE_SIDE = 16  # pixels: a smaller picture cannot show a readable card
MAX_PIXELS = 100_000_000  # 100 megapixels: twice a 48 MP phone photo; 300 MB decoded
MAX_FILE_BYTES = 300_000_000  # 100 megapixels stored uncompressed (a BMP) fit
_HEADER_BYTES = 1 << 18  # a JPEG's frame header follows its EXIF, ICC... segments (64 KiB each)

# JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic), which carry the size.
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_STANDALONE = {0x01, *range(0xD0, 0xD8)}  # markers without a length


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in _STANDALONE:
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in _SOF and at + 9 <= len(data):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        if marker == 0xDA:  # start of scan: the frame header should have come before
            return None
        at += 2 + length
    return None


def declared_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) as a PNG, JPEG, WebP or BMP header declares it, or None if unknown."""
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR" and len(head) >= 24:
        width, height = struct.unpack(">II", head[16:24])
        return width, height
    if head[:2] == b"\xff\xd8":
        return _jpeg_size(head)
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP" and len(head) >= 30:
        kind = head[12:16]
        if kind == b"VP8X":
            width = int.from_bytes(head[24:27], "little") + 1
            height = int.from_bytes(head[27:30], "little") + 1
            return width, height
        if kind == b"VP8L":
            bits = int.from_bytes(head[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if kind == b"VP8 ":
            width, height = struct.unpack("<HH", head[26:30])
            return width & 0x3FFF, height & 0x3FFF
    if head[:2] == b"BM" and len(head) >= 26:
        width, height = struct.unpack("<ii", head[18:26])
        return abs(width), abs(height)
    return None


def refuse_too_large(size: tuple[int, int] | None, name: str) -> None:
    """Refuse, naming the file, an image whose pixels would pass ``MAX_PIXELS``."""
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageDecodeError(
            name,
            phrase(
                "image.too_many_pixels",
                width=size[0],
                height=size[1],
                limit=MAX_PIXELS // 1_000_000,
            ),
        )


def refuse_too_small(image: np.ndarray, name: str) -> np.ndarray:
    """``image``, unless it is too small to show a card: then an ``ImageDecodeError`` naming
    the file (``detect`` only accepts pictures of at least ``MIN_IMAGE_SIDE`` pixels)."""
    height, width = image.shape[:2]
    if min(height, width) < MIN_IMAGE_SIDE:
        raise ImageDecodeError(name, phrase("image.too_small", width=width, height=height))
    return image


# An iPhone saves its photos as HEIC (HEIF) by default, which OpenCV does not decode: the
# brand in the file's leading 'ftyp' box says so.
_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1")


def _is_heif(head: bytes) -> bool:
    return head[4:8] == b"ftyp" and head[8:12] in _HEIF_BRANDS


def _undecodable(head: bytes, declared: tuple[int, int] | None) -> str:
    """Why a file OpenCV cannot decode is no photo the app can read, as a phrase key."""
    if _is_heif(head):
        return "image.heif"
    # A photo's own header that does not decode is a file cut short (an upload broken off)
    # or damaged, which a player fixes otherwise than a file of another kind.
    return "image.damaged" if declared is not None else "image.not_an_image"


def _decoded(data: np.ndarray, name: str) -> np.ndarray:
    """The BGR pixels of an encoded image's bytes, checked for size before and after."""
    head = data[:_HEADER_BYTES].tobytes()
    declared = declared_size(head)
    refuse_too_large(declared, name)
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    except cv2.error:  # OpenCV refuses some truncated headers (or its pixel cap) by raising
        image = None
    if image is None:
        raise ImageDecodeError(name, phrase(_undecodable(head, declared)))
    height, width = image.shape[:2]
    refuse_too_large((width, height), name)  # a format whose header is not read here
    return refuse_too_small(image, name)


def _regular_file(path: Path) -> int:
    """A descriptor of ``path`` opened to read, or an ``ImageDecodeError``: only a regular file
    of at most ``MAX_FILE_BYTES`` is a photo (a pipe would wait for a writer forever, a device
    or a huge sparse file would be read to no end)."""
    name = str(path)
    try:
        # Non-blocking: opening a pipe with no writer returns at once instead of waiting.
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        reason = phrase("image.cannot_open", reason=error.strerror or "")
        raise ImageDecodeError(name, reason) from None
    info = os.fstat(handle)
    if not stat.S_ISREG(info.st_mode):
        os.close(handle)
        raise ImageDecodeError(name, phrase("image.not_a_file"))
    if info.st_size > MAX_FILE_BYTES:
        os.close(handle)
        raise ImageDecodeError(name, phrase("image.too_large", limit=MAX_FILE_BYTES // 10**6))
    os.set_blocking(handle, True)
    return handle


def load_image(path: Path) -> np.ndarray:
    """Decode ``path`` as a BGR image, or raise ``ImageDecodeError`` naming it; its header is
    checked before the rest of it is read."""
    name = str(path)
    with os.fdopen(_regular_file(path), "rb") as file:
        try:
            head = file.read(_HEADER_BYTES)
            if not head:
                raise ImageDecodeError(name, phrase("image.empty"))
            declared = declared_size(head)
            refuse_too_large(declared, name)
            if declared is None and not _is_heif(head) and not cv2.haveImageReader(name):
                raise ImageDecodeError(name, phrase("image.not_an_image"))
            data = np.frombuffer(head + file.read(), dtype=np.uint8)
        except OSError as error:
            reason = phrase("image.cannot_open", reason=error.strerror or "")
            raise ImageDecodeError(name, reason) from None
    return _decoded(data, name)


def decode_image(data: bytes, name: str) -> np.ndarray:
    """BGR pixels of an uploaded file's bytes; anything that is not an image is refused by
    ``name``."""
    if not data:
        raise ImageDecodeError(name, phrase("image.empty"))
    return _decoded(np.frombuffer(data, np.uint8), name)
