#!/usr/bin/env python3
"""The table of docs/monai.md from a study of builtin:monai.

    wavebench-cli study run builtin:monai --out DIR --jobs 1
    scripts/monai_table.py DIR

Two markdown tables. Per model, grid and gauge: the peak's error (% of the tank's peak), the
peak's time error and the best-aligning shift (s, > 0: the model late), the RMS error over the
record's window (cm) and the arrival's error (s). Per model and grid: the run-up (m above the
still water; none for a model that takes land as a wall), the timed pass's wall time as a ratio to
swe-semi-lagrangian's on the same grid in the same study (the machine's load changes absolute
times, not much their ratios), and the L2 error against the finest run at the end. Reads
DIR/study.csv and DIR/gauge_summary.csv (docs/studies.md).
"""
import csv
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: monai_table.py STUDY_DIR")
    folder = sys.argv[1]
    runs = list(csv.DictReader(open(f"{folder}/study.csv")))
    gauges = list(csv.DictReader(open(f"{folder}/gauge_summary.csv")))
    names = []
    for row in gauges:
        if row["gauge"] not in names:
            names.append(row["gauge"])

    def cell(value, scale=1.0, digits=2, sign=True):
        if value in ("", "nan"):
            return "-"
        return f"{float(value) * scale:{'+' if sign else ''}.{digits}f}"

    print("| model | cells | gauge | peak error | peak time error s | best shift s | RMS cm |"
          " arrival error s |")
    print("|---|---|---|---|---|---|---|---|")
    for run in runs:
        for name in names:
            g = next(r for r in gauges if r["run"] == run["run"] and r["gauge"] == name)
            print(f"| {run['model']} | {run['nx']} x {run['ny']} | {name} |"
                  f" {cell(g['peak_error_rel'], 100, 0)} % | {cell(g['peak_time_error'])} |"
                  f" {cell(g['best_shift'])} | {cell(g['rms_error'], 100, 2, False)} |"
                  f" {cell(g['arrival_time_error'])} |")
    print()
    print("| model | cells | run-up m | wall / swe-semi-lagrangian's | L2 error against the finest |")
    print("|---|---|---|---|---|")

    def wall(run):
        return float(run["wall_s"]) if run["wall_s"] not in ("", "nan") else float("nan")

    for run in runs:
        note = run["run_up_note"]
        runup = cell(run["run_up"], 1, 3, False) if note == "measured" else (
            "none: land is a wall" if note == "no_wet_dry" else note or "-")
        base = next((wall(r) for r in runs
                     if r["model"] == "swe-semi-lagrangian" and r["nx"] == run["nx"]), float("nan"))
        print(f"| {run['model']} | {run['nx']} x {run['ny']} | {runup} | {wall(run) / base:.2f} |"
              f" {cell(run['error_l2'], 1, 3, False)} |")
    loads = sorted(float(r["load_average"]) for r in runs if r["load_average"] not in ("", "nan"))
    if loads:
        print(f"\n{runs[0]['cpu_model']}, {runs[0]['cores']} cores, {runs[0]['threads']} threads"
              f" per run, load average {loads[0]:.1f} to {loads[-1]:.1f} at the runs' starts.")


if __name__ == "__main__":
    main()
