#!/usr/bin/env python3
"""Writes resources/scenarios/shoal-reference.csv, the gauge records of builtin:shoal: swe-adi
(the linear long-wave equation h_tt = g div(d grad h)) on a grid of 1/16 m (512 x 256, twice
the study's finest) at a quarter of its explicit limit, its gauges.csv turned into one column
per gauge (time, then the gauges in the scenario's order, eta in m).

    python3 scripts/shoal_records.py build/release/app/wavebench-cli [NX]

NX (default 512) is the grid's cells along x; with another NX the table goes to stdout's
named file shoal-reference-NX.csv in the current folder (to measure the reference's own
error against a coarser one).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.join(HERE, "..", "resources", "scenarios")


def main(cli, nx=512):
    with open(os.path.join(SCENARIOS, "shoal.json")) as f:
        scenario = json.load(f)
    for gauge in scenario["gauges"]:
        gauge.pop("record", None)
    scenario["grid"] = {"nx": nx, "ny": nx // 2, "dx": 32.0 / nx}
    scenario["water"]["bathymetry"]["png"] = os.path.join(SCENARIOS, "shoal-bathymetry.png")
    scenario["models"] = {"swe-adi": {}}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "shoal-reference.json")
        with open(path, "w") as f:
            json.dump(scenario, f)
        # A quarter of the explicit limit dx / sqrt(g d_max), rounded down to the tick's
        # whole steps by the runner: the trapezoidal rule's period error falls 16-fold.
        dt = 0.25 * (32.0 / nx) / (9.81 ** 0.5)
        subprocess.run([cli, "run", "--scenario", path, "--models", "swe-adi", "--out", os.path.join(tmp, "run"),
                        "--set", "swe-adi.dt=%.9g" % dt], check=True, stdout=subprocess.DEVNULL)
        names = [g["name"] for g in scenario["gauges"]]
        rows = {}
        with open(os.path.join(tmp, "run", "gauges.csv")) as f:
            for row in csv.DictReader(f):
                rows.setdefault(row["time"], {})[row["gauge"]] = row["eta"]
    out = os.path.join(SCENARIOS, "shoal-reference.csv") if nx == 512 else \
        "shoal-reference-%d.csv" % nx
    with open(out, "w") as f:
        times = list(rows)
        f.write("# swe-adi, %d x %d cells of %g m, dt %.6g s (scripts/shoal_records.py)\n" %
                (nx, nx // 2, 32.0 / nx, float(times[1]) - float(times[0])))
        f.write("time," + ",".join(names) + "\n")
        for time, values in rows.items():
            f.write(time + "," + ",".join(values[n] for n in names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 512)
