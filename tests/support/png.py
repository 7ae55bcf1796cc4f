"""A small PNG reader for tests (zlib only, no Pillow): the pixels of a screenshot.

Reads 8-bit RGB and RGBA images, non-interlaced, as headless chromium writes them,
undoing the five row filters of the PNG format.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

__all__ = ["read_png"]

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path: str) -> np.ndarray:
    """The image at ``path`` as a ``(height, width, channels)`` uint8 array."""
    data = open(path, "rb").read()
    if not data.startswith(_SIGNATURE):
        raise ValueError(f"{path} is not a PNG file")
    at, idat, header = 8, [], None
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        body = data[at + 8 : at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError(f"{path} has no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"{path}: only 8-bit RGB / RGBA, not interlaced, is read here")
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=start + 1).astype(np.int64)
        if kind == 0:
            cur = line
        elif kind == 2:
            cur = (line + prev) & 255
        elif kind in (1, 3, 4):  # these depend on the pixel to the left: one pass per byte
            cur = np.zeros(stride, dtype=np.int64)
            for i in range(stride):
                left = cur[i - channels] if i >= channels else 0
                if kind == 1:
                    pred = left
                elif kind == 3:
                    pred = (left + prev[i]) // 2
                else:
                    upleft = prev[i - channels] if i >= channels else 0
                    pred = _paeth(int(left), int(prev[i]), int(upleft))
                cur[i] = (line[i] + pred) & 255
        else:
            raise ValueError(f"{path}: unknown PNG row filter {kind}")
        out[y] = cur
        prev = cur
    return out.reshape(height, width, channels)
