#!/usr/bin/env python3
"""How much of a surface rings at the grid's scale, from a run's eta dumps.

For each frame: the RMS of eta less the mean of its four neighbours (a discrete Laplacian, which
passes the two- and three-cell waves and almost nothing of a wave resolved by many cells), and
the RMS of eta itself, over the cells whose five-point stencil was all water at rest (eta = 0 in
frame 0; land and dry cells dump their ground) between columns FIRST and LAST.

    wavebench-cli run --scenario builtin:monai --models swe-adi --frames 500 --dump-every 100 \\
        --out DIR
    scripts/grid_scale_ringing.py DIR/swe-adi 300,400,500 --columns 200:360

docs/monai.md ("What each model gets right and wrong") quotes it.
"""
import argparse
import csv
import math
import sys


def load(path):
    with open(path, newline="") as file:
        return [[float(value) for value in row] for row in csv.reader(file)]


def ringing(eta, rest, first, last):
    ny, nx = len(eta), len(eta[0])
    sum_high = sum_all = 0.0
    cells = 0
    for j in range(1, ny - 1):
        for i in range(max(first, 1), min(last, nx - 1)):
            stencil = ((j, i), (j + 1, i), (j - 1, i), (j, i + 1), (j, i - 1))
            if any(rest[b][a] != 0.0 for b, a in stencil):
                continue
            mean = 0.25 * (eta[j + 1][i] + eta[j - 1][i] + eta[j][i + 1] + eta[j][i - 1])
            sum_high += (eta[j][i] - mean) ** 2
            sum_all += eta[j][i] ** 2
            cells += 1
    if cells == 0:
        sys.exit(f"grid_scale_ringing: no cell of water at rest in columns {first}-{last}")
    return math.sqrt(sum_high / cells), math.sqrt(sum_all / cells), cells


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model_dir", help="a run's DIR/MODEL folder of eta_NNNNN.csv dumps")
    parser.add_argument("frames", help="comma-separated frame numbers")
    parser.add_argument("--columns", default="0:1000000", help="FIRST:LAST columns (LAST excluded)")
    args = parser.parse_args()
    first, last = (int(c) for c in args.columns.split(":"))
    rest = load(f"{args.model_dir}/eta_00000.csv")
    print("frame,highpass_rms_m,eta_rms_m,ratio,cells")
    for frame in args.frames.split(","):
        high, whole, cells = ringing(load(f"{args.model_dir}/eta_{int(frame):05d}.csv"), rest,
                                     first, last)
        print(f"{frame},{high:.3g},{whole:.3g},{high / whole:.3f},{cells}")


if __name__ == "__main__":
    main()
