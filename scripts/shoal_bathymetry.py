#!/usr/bin/env python3
"""Writes resources/scenarios/shoal-bathymetry.png, the ground of builtin:shoal (16-bit grey,
black = -0.25 m, white = 1 m, the scenario's min_depth and max_depth; row 0 is the largest y).

The basin is 32 m by 16 m, 1 m deep; a Gaussian seamount (sigma 2 m) at (12, 8) m rises to
0.2 m below the rest level; a 1:8 beach from x = 22 m reaches the rest level at x = 30 m and
rises to 0.25 m of dry land at the east wall. Plain Python (zlib), no imaging library.

    python3 scripts/shoal_bathymetry.py resources/scenarios/shoal-bathymetry.png
"""
import math
import struct
import sys
import zlib

WIDTH, HEIGHT = 512, 256          # pixels: 1/16 m, the reference run's cells
LX, LY = 32.0, 16.0               # m
MIN_DEPTH, MAX_DEPTH = -0.25, 1.0  # m, black and white


def depth(x, y):
    d = 1.0 - 0.8 * math.exp(-((x - 12.0) ** 2 + (y - 8.0) ** 2) / (2.0 * 2.0 ** 2))
    if x > 22.0:
        d = min(d, 1.0 - (x - 22.0) / 8.0)
    return d


def main(path):
    rows = []
    for row in range(HEIGHT):
        y = (HEIGHT - row - 0.5) * LY / HEIGHT  # row 0 at the top: the largest y
        line = bytearray([0])                  # filter: none
        for col in range(WIDTH):
            x = (col + 0.5) * LX / WIDTH
            grey = (depth(x, y) - MIN_DEPTH) / (MAX_DEPTH - MIN_DEPTH)
            line += struct.pack(">H", round(65535 * min(max(grey, 0.0), 1.0)))
        rows.append(bytes(line))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 16, 0, 0, 0, 0)  # 16-bit greyscale
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
                  chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    main(sys.argv[1])
