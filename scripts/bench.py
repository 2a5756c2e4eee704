#!/usr/bin/env python3
"""The speed guard (docs/performance.md, "The benchmark record"): measures the models' kernels,
the CLI's bench, the workbench's frame rate and the default threading under load, writes one
JSON record and compares it with the record committed in docs/bench/record.json.

    scripts/wavebench.sh bench [--quick]          build release, then this script
    python3 scripts/bench.py [--quick] [--out FILE] [--reference FILE]
    python3 scripts/bench.py --compare FILE [--reference FILE]   only the comparison

Absolute times differ from machine to machine and from hour to hour on a shared one, so every
figure compared is a ratio of two things measured in the same run (its "normalised_by" says
which). A figure more than 15 % worse than the reference's is printed as a REGRESSION; the
exit status is still 0 (the record informs, it does not fail CI). It is 1 only when something
failed to run, and then no record is written. Standard library only.
"""
import argparse
import contextlib
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build", "release")
BENCH_BIN = os.path.join(BUILD, "tests", "bench", "wavebench_bench")
CLI = os.path.join(BUILD, "app", "wavebench-cli")
GUI = os.path.join(BUILD, "app", "gui", "wavebench")
REFERENCE = os.path.join(ROOT, "docs", "bench", "record.json")
OUTPUT = os.path.join(ROOT, "build", "bench", "record.json")
TOLERANCE = 0.15  # a figure this much worse than the reference's is a regression
SCHEMA = 1

MODELS = ["damped-wave", "advected-wave", "swe-semi-lagrangian", "swe-adi", "fft-ocean"]
# The kernels: every model's step on an open pool at 256^2 and 1024^2 on one thread, the
# explicit wave scheme on two threads, and advected-wave under wind (a drop alone leaves its
# velocity zero, so the windy step is the one that advects and projects). Each is divided by
# the triad measured at the same grid and thread count.
KERNELS = ([f"step/{m}/{n}/1" for n in (256, 1024) for m in MODELS]
           + ["step/damped-wave/1024/2", "step-wind/advected-wave/256/1"])
TRIADS = ["triad/256/1", "triad/512/1", "triad/1024/1", "triad/1024/2"]
CLI_BENCH_GRID = 512  # the side-by-side grid of docs/performance.md, one thread
LOAD_GRID = 256


class Failure(Exception):
    """Something did not run: reported, and no record is written."""


def log(text):
    print(f"bench: {text}", file=sys.stderr, flush=True)


def run(cmd, env=None, cwd=None, timeout=1800):
    """Runs cmd and returns its stdout; raises Failure naming it on a non-zero exit."""
    full_env = dict(os.environ, **(env or {}))
    result = subprocess.run(cmd, env=full_env, cwd=cwd, capture_output=True, text=True,
                            timeout=timeout)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-5:]
        raise Failure(f"{' '.join(cmd[:3])} ... exited with {result.returncode}: "
                      + " | ".join(tail))
    return result.stdout


class BusyLoop:
    """Another CPU-bound program beside the measurement: one shell spinning on one core."""

    def __enter__(self):
        self.process = subprocess.Popen(["sh", "-c", "while :; do :; done"])
        time.sleep(0.5)  # let it take its core
        return self

    def __exit__(self, *exc):
        self.process.kill()  # by its pid: only the loop this script started
        self.process.wait()


# --- machine facts -------------------------------------------------------------------------

def usable_cores():
    """The rule of core/run/threads.hpp: the affinity mask, capped by SLURM_CPUS_PER_TASK."""
    cores = len(os.sched_getaffinity(0))
    slurm = os.environ.get("SLURM_CPUS_PER_TASK", "")
    if re.fullmatch(r"[0-9]+", slurm) and int(slurm) > 0:
        cores = min(cores, int(slurm))
    return cores


def machine_facts():
    cpu = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    git = ["git", "-C", ROOT]
    commit = run(git + ["rev-parse", "HEAD"]).strip()
    dirty = bool(run(git + ["status", "--porcelain", "--untracked-files=no"]).strip())
    return {"cpu_model": cpu, "cores_usable": usable_cores(), "cores_online": os.cpu_count(),
            "commit": commit, "dirty": dirty,
            "load_average_1min_at_start": round(os.getloadavg()[0], 2)}


# --- the measurements ----------------------------------------------------------------------

def figure(value, better, normalised_by, **raw):
    return {"value": value, "better": better, "normalised_by": normalised_by, "raw": raw}


def google_benchmark(names, quick):
    """Runs wavebench_bench on the named benchmarks; every repetition of each, by name."""
    pattern = "^(" + "|".join(n + "/" for n in names) + ")"  # the names are [a-z0-9/-]
    cmd = [BENCH_BIN, f"--benchmark_filter={pattern}", "--benchmark_format=json",
           f"--benchmark_min_time={0.05 if quick else 0.3}",
           f"--benchmark_repetitions={1 if quick else 3}"]
    out = json.loads(run(cmd, env={"OMP_WAIT_POLICY": "passive"}))
    found = {}
    for b in out["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        # "step-wind/advected-wave/256/1/iterations:2000/real_time" -> the name without options
        name = b.get("run_name", b["name"]).split("/")
        found.setdefault("/".join(p for p in name if ":" not in p and p != "real_time"),
                         []).append(b)
    missing = [n for n in names if n not in found]
    if missing:
        raise Failure(f"wavebench_bench did not report {', '.join(missing)}")
    return found


def kernel_figures(quick):
    """Google Benchmark's step benchmarks: the median cells/s over the repetitions, per triad
    float/s. The triads run before and after the kernels and the best of all their
    repetitions counts: on a shared machine other jobs only ever slow a triad down, and a
    triad taken at one unlucky moment would move every figure divided by it."""
    log(f"kernels: {len(KERNELS)} steps between two runs of {len(TRIADS)} triads"
        + (" (3 repetitions each, medians)" if not quick else ""))
    triads = google_benchmark(TRIADS, quick)
    found = google_benchmark(KERNELS, quick)
    for name, runs in google_benchmark(TRIADS, quick).items():
        triads[name] += runs
    triad = {n: max(b["bytes_per_second"] for b in triads[n]) for n in TRIADS}  # bytes/s
    figures = {}
    for name in KERNELS:
        _, model, n, threads = name.split("/")
        floats = triad[f"triad/{n}/{threads}"] / 4.0  # the triad's floats moved per second
        cells = statistics.median(b["cells_per_s"] for b in found[name])
        raw = {"cells_per_s": cells, "triad_bytes_per_s": triad[f"triad/{n}/{threads}"]}
        if "roofline" in found[name][0]:
            raw["roofline"] = statistics.median(b["roofline"] for b in found[name])
        figures[f"kernel {name}"] = figure(
            cells / floats, "higher",
            f"cells/s / best triad floats/s at {n}^2, {threads} thread(s)", **raw)
    return figures, {n: round(b / 1e9, 3) for n, b in triad.items()}


def cli_bench_figures(quick, triad):
    """wavebench-cli bench --json at 512^2 on one thread, per triad float (the 512^2 triad)."""
    passes = 1 if quick else 3
    log(f"wavebench-cli bench: {len(MODELS)} models at {CLI_BENCH_GRID}^2, one thread, "
        f"{passes} pass(es)")
    rates = {m: [] for m in MODELS}
    for _ in range(passes):
        out = json.loads(run([CLI, "bench", "--models", ",".join(MODELS), "--grid",
                              str(CLI_BENCH_GRID), "--frames", "20" if quick else "50",
                              "--threads", "1", "--json"]))
        for r in out:
            rates[r["model"]].append(r["cells_per_s"])
    floats = triad[f"triad/{CLI_BENCH_GRID}/1"] * 1e9 / 4.0
    return {f"cli-bench {m}/{CLI_BENCH_GRID}/1": figure(
        statistics.median(v) / floats, "higher",
        f"cells/s / triad floats/s at {CLI_BENCH_GRID}^2, 1 thread",
        cells_per_s=statistics.median(v), steps_per_s=statistics.median(v) / CLI_BENCH_GRID**2)
        for m, v in rates.items()}


def gui_stats(folder, scenario, frames, extra_args=(), env=None):
    xvfb = shutil.which("xvfb-run")
    if not xvfb:
        raise Failure("xvfb-run is missing (scripts/wavebench.sh installs it)")
    stats = os.path.join(folder, "stats.json")
    if os.path.exists(stats):
        os.remove(stats)
    run([xvfb, "-a", "-s", "-screen 0 1600x1000x24", GUI, "--scenario", scenario, "--frames",
         str(frames), "--stats-json", stats, "--quit", *extra_args],
        env=dict({"QT_LOGGING_RULES": "*.debug=false"}, **(env or {})), cwd=folder)
    with open(stats) as f:
        return json.load(f)


def gui_figures(quick, folder):
    """The workbench's presented frames/s on builtin:pi-pool (three models, 64^2) and with
    100,000 tracers. The first as a fraction of the 60 frames/s the workbench shows at real
    time; the second relative to the first, measured in the same run (the tracers' cost)."""
    frames = 240 if quick else 600
    log(f"workbench: builtin:pi-pool, then with 100,000 tracers ({frames} frames each)")
    with open(os.path.join(ROOT, "resources", "scenarios", "pi-pool.json")) as f:
        tracers = json.load(f)
    tracers["bodies"] = {"count": 100000, "size": 0.02}
    tracer_file = os.path.join(folder, "tracers.json")
    with open(tracer_file, "w") as f:
        json.dump(tracers, f)
    plain = gui_stats(folder, "builtin:pi-pool", frames)
    dots = gui_stats(folder, tracer_file, frames)
    fps, tracer_fps = plain["presented_fps"], dots["presented_fps"]
    if not fps > 0:
        raise Failure("the workbench presented no frame after its warm-up")
    return {
        "gui pi-pool presented fps / 60": figure(
            fps / 60.0, "higher", "presented frames/s / 60 (real time); depends on the CPU "
            "(software OpenGL): compare on like machines", presented_fps=fps,
            frame_ms_p50=plain["frame_ms_p50"], stage_ms=plain["stage_ms"],
            gl_renderer=plain["gl_renderer"]),
        "gui tracers-100k fps / pi-pool fps": figure(
            tracer_fps / fps, "higher", "presented frames/s with 100,000 tracers / without, "
            "same run", presented_fps=tracer_fps, frame_ms_p50=dots["frame_ms_p50"],
            stage_ms=dots["stage_ms"]),
    }


def median_step_ms(series):
    """The median over frames > 0 of each model's step_ms in series.csv."""
    with open(series) as f:
        header = f.readline().strip().split(",")
        t, step = header.index("time"), header.index("step_ms")
        values = [float(r[step]) for r in (line.strip().split(",") for line in f)
                  if float(r[t]) > 0]
    if not values:
        raise Failure(f"{series}: no timed frame")
    return statistics.median(values)


def load_figures(quick, folder):
    """Part of the thread policy: with one core taken by a busy loop, the default threading
    of `run` (and of the workbench, and a study's tasks) is no slower than one thread. Each
    figure is default / one thread (lower is better; above 1 the default collapses)."""
    passes = 1 if quick else 3
    with open(os.path.join(ROOT, "resources", "scenarios", "pi-pool.json")) as f:
        scenario = json.load(f)
    scenario["grid"] = {"nx": LOAD_GRID, "ny": LOAD_GRID, "dx": 6.4 / LOAD_GRID}
    scenario_file = os.path.join(folder, f"pi-pool-{LOAD_GRID}.json")
    with open(scenario_file, "w") as f:
        json.dump(scenario, f)
    frames = "120" if quick else "300"

    def run_ms(threads):
        out = os.path.join(folder, "run")
        shutil.rmtree(out, ignore_errors=True)
        cmd = [CLI, "run", "--scenario", scenario_file, "--models", "swe-adi", "--frames",
               frames, "--out", out, "--quiet"]
        run(cmd + (["--threads", str(threads)] if threads else []))
        return median_step_ms(os.path.join(out, "series.csv"))

    figures = {}
    log(f"under load: run swe-adi at {LOAD_GRID}^2, default threads vs --threads 1, unloaded "
        f"and beside a busy loop ({passes} alternating pass(es))")
    for loaded in (False, True):
        default, one = [], []
        with BusyLoop() if loaded else contextlib.nullcontext():
            for _ in range(passes):
                default.append(run_ms(0))
                one.append(run_ms(1))
        d, o = statistics.median(default), statistics.median(one)
        key = "load run swe-adi default/1-thread" + (" busy" if loaded else " idle")
        figures[key] = figure(d / o, "lower", "ms/step default threads / ms/step one thread, "
                              "same run" + (", one core busy" if loaded else ""),
                              ms_per_step_default=d, ms_per_step_one_thread=o)

    # A study's tasks: `study run` with its default --jobs (the usable cores / threads) vs
    # --jobs 1, wall time of the whole study beside a busy loop.
    study = {"scenario": "builtin:standing-wave",
             "scenario_patch": {"reference": {"amplitude": 0.0001}},
             "axes": {"models": ["swe-adi", "swe-semi-lagrangian"], "grid": [256, 512]},
             "error": {"at": [2 if quick else 4]}, "warmup": False, "repeats": 1}
    study_file = os.path.join(folder, "load.study")
    with open(study_file, "w") as f:
        json.dump(study, f)

    def study_s(jobs):
        out = os.path.join(folder, "study")
        shutil.rmtree(out, ignore_errors=True)
        start = time.monotonic()
        run([CLI, "study", "run", study_file, "--out", out]
            + (["--jobs", str(jobs)] if jobs else []))
        return time.monotonic() - start

    log("under load: study run (4 runs), default --jobs vs --jobs 1 beside a busy loop")
    default, one = [], []
    with BusyLoop():
        for _ in range(passes):
            default.append(study_s(0))
            one.append(study_s(1))
    d, o = statistics.median(default), statistics.median(one)
    figures["load study default/1-job busy"] = figure(
        d / o, "lower", "study wall s default --jobs / --jobs 1, same run, one core busy",
        seconds_default=d, seconds_one_job=o)

    if not quick:
        # The workbench: its simulation's ms per frame at 256^2, default threads vs one.
        log(f"under load: workbench at {LOAD_GRID}^2, default threads vs OMP_NUM_THREADS=1 "
            "beside a busy loop")
        sim = {}
        with BusyLoop():
            for label, env in (("default", {}), ("one", {"OMP_NUM_THREADS": "1"})):
                stats = gui_stats(folder, "builtin:pi-pool", 300,
                                  ["--grid", str(LOAD_GRID), "--models", "swe-adi"], env)
                # The worker's busy ms per presented frame times presented frames/s is its
                # busy ms per second; over the simulated frames per second (60 at real time
                # for pi-pool's frame_dt of 1/60 s), its busy ms per simulated frame.
                simulated_per_s = 60.0 * stats["real_time_ratio"]
                if not simulated_per_s > 0:
                    raise Failure("the workbench simulated no frame under load")
                sim[label] = (stats["stage_ms"]["simulation"] * stats["presented_fps"]
                              / simulated_per_s)
        figures["load gui swe-adi default/1-thread busy"] = figure(
            sim["default"] / sim["one"], "lower", "the worker's ms per simulated frame, default "
            "threads / one thread, same run, one core busy", ms_per_frame_default=sim["default"],
            ms_per_frame_one_thread=sim["one"])
    return figures


# --- the comparison ------------------------------------------------------------------------

def compare(record, reference_file):
    """Prints each figure beside the reference's; returns the number of regressions."""
    if not os.path.exists(reference_file):
        print(f"bench: no reference record at {reference_file}; nothing to compare")
        return 0
    with open(reference_file) as f:
        reference = json.load(f)
    ref_machine, machine = reference.get("machine", {}), record.get("machine", {})
    print(f"reference: {os.path.relpath(reference_file, ROOT)} "
          f"(commit {ref_machine.get('commit', '?')[:10]}, {ref_machine.get('cpu_model', '?')}"
          f"{', quick' if reference.get('quick') else ''})")
    print(f"this run:  commit {machine.get('commit', '?')[:10]}"
          f"{' + local changes' if machine.get('dirty') else ''}, {machine.get('cpu_model', '?')}"
          f"{', quick' if record.get('quick') else ''}")
    if ref_machine.get("cpu_model") != machine.get("cpu_model"):
        print("note: another CPU model than the reference's: the bandwidth-normalised kernels "
              "compare, the workbench's frame rate less so")
    # The yardstick itself: when the triads moved a lot, the machine's memory was shared
    # differently (other jobs), and the kernels' figures move with them.
    ref_triad, triad = ref_machine.get("triad_gbytes_per_s", {}), machine.get("triad_gbytes_per_s", {})
    print("triad GB/s (reference -> now): " + ", ".join(
        f"{n.removeprefix('triad/')} {ref_triad[n]:.1f} -> {triad[n]:.1f}"
        for n in triad if n in ref_triad))
    print(f"{'figure':<48} {'reference':>10} {'now':>10} {'change':>8}")
    regressions = 0
    ref_figures = reference.get("figures", {})
    for name, f in record["figures"].items():
        old = ref_figures.get(name)
        if old is None or not old["value"]:
            print(f"{name:<48} {'-':>10} {f['value']:>10.4g}      new")
            continue
        change = f["value"] / old["value"] - 1.0
        worse = -change if f["better"] == "higher" else change
        flag = ""
        if worse > TOLERANCE:
            flag = "  REGRESSION"
            regressions += 1
        elif -worse > TOLERANCE:
            flag = "  better"
        print(f"{name:<48} {old['value']:>10.4g} {f['value']:>10.4g} {100 * change:>+7.1f}%{flag}")
    for name in ref_figures:
        if name not in record["figures"]:
            print(f"{name:<48} (in the reference, not measured now)")
    for name, f in record["figures"].items():
        if name.startswith("load ") and name.endswith(" busy") and f["value"] > 1.0 + TOLERANCE:
            print(f"UNDER LOAD: {name} = {f['value']:.2f}: the default threading is slower "
                  "than one thread with a core busy")
    if regressions:
        print(f"bench: {regressions} figure(s) more than {100 * TOLERANCE:.0f} % worse than the "
              "reference (REGRESSION above)")
    else:
        print(f"bench: no figure more than {100 * TOLERANCE:.0f} % worse than the reference")
    return regressions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="shorter runs, one pass each (about a minute; noisier)")
    parser.add_argument("--out", default=OUTPUT, help="the record to write")
    parser.add_argument("--reference", default=REFERENCE, help="the record to compare with")
    parser.add_argument("--compare", metavar="FILE", help="only compare FILE with the reference")
    args = parser.parse_args()
    if args.compare:
        with open(args.compare) as f:
            compare(json.load(f), args.reference)
        return 0
    for binary in (BENCH_BIN, CLI, GUI):
        if not os.access(binary, os.X_OK):
            log(f"{binary} is missing: build release first (scripts/wavebench.sh bench does)")
            return 1
    start = time.monotonic()
    try:
        machine = machine_facts()
        with tempfile.TemporaryDirectory(prefix="wavebench-bench-") as folder:
            figures, triad = kernel_figures(args.quick)
            figures.update(cli_bench_figures(args.quick, triad))
            figures.update(gui_figures(args.quick, folder))
            figures.update(load_figures(args.quick, folder))
    except (Failure, subprocess.TimeoutExpired, OSError, ValueError, KeyError) as error:
        log(f"failed: {error}")
        return 1
    machine["triad_gbytes_per_s"] = triad
    machine["load_average_1min_at_end"] = round(os.getloadavg()[0], 2)
    record = {"schema": SCHEMA, "quick": args.quick,
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "seconds": round(time.monotonic() - start, 1), "machine": machine,
              "figures": figures}
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out + ".tmp", "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    os.replace(args.out + ".tmp", args.out)
    print(f"bench: wrote {args.out} in {record['seconds']:.0f} s")
    compare(record, args.reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
