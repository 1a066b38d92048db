#!/usr/bin/env python3
"""Two ears builds' CPU alone, alternated in one run: issue 20's CPU measurement
(wakebench/cpu.py: three phrases, the first minutes of each negative stream, one process at
a time, each process's start-up taken off, PocketSphinx's keyphrase spotter in the same
repeats) for BEFORE and AFTER, the order swapped every repeat so the machine's drift falls
on both alike. What docs/training.md's rows of CPU-only changes cite.

usage: bench/cpu_ab.py BEFORE AFTER [--models-dir DIR] [--seconds 300] [--repeats 3]
                       [--store bench/out]

Run it with nothing beside it (the benchmark's corpus must exist: make bench-wake-quick)."""
from __future__ import annotations

import argparse
import glob
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from wakebench import config, cpu, runners, streams  # noqa: E402

# The negative streams the target's measurement reads (wakebench/cpu.py reads every one).
NEGATIVE_STREAMS = ["neg-clean", "neg-pink10", "neg-talk"]


def negative_streams(store: str) -> list[streams.Stream]:
    """The newest corpus's negative streams in `store`, as wakebench/cpu.stretches reads them."""
    found = sorted(glob.glob(os.path.join(store, "wake-corpus-*", "streams-*")), key=os.path.getmtime)
    if not found:
        sys.exit(f"cpu_ab: no benchmark corpus in {store}: run make bench-wake-quick first")
    return [streams.Stream(name, "negative", "clean", os.path.join(found[-1], name + ".wav"), 0.0, [], [])
            for name in NEGATIVE_STREAMS]


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--models-dir", help="also measure the trained configuration with these models")
    ap.add_argument("--seconds", type=float, default=cpu.STRETCH_S)
    ap.add_argument("--repeats", type=int, default=cpu.REPEATS)
    ap.add_argument("--store", default=os.path.join(HERE, "out"))
    a = ap.parse_args(argv)
    work = os.path.join(a.store, "cpu-ab")
    os.makedirs(work, exist_ok=True)
    cut = cpu.stretches(negative_streams(a.store), work, a.seconds)
    startup = cpu.silence(work, cpu.STARTUP_S)
    configs = [("ears", [])] + ([("ears trained", ["--models-dir", a.models_dir])] if a.models_dir else [])
    runs = [r for r in runners.plan(cpu.phrases_for(config.PHRASES), configs, [], peers=False, trained_sweep=[])
            if r.default is not None]
    reference = next(r for r in runs if r.family == cpu.REFERENCE_FAMILY)
    builds = {"before": os.path.abspath(a.before), "after": os.path.abspath(a.after)}
    python = runners.peer_python()
    rates: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    for repeat in range(a.repeats):
        kws = cpu.rate(reference, cut, startup, builds["before"], python, work)[0]
        for run in (r for r in runs if r.family == "ears"):
            for build in (["before", "after"] if repeat % 2 == 0 else ["after", "before"]):
                value = cpu.rate(run, cut, startup, builds[build], python, work)[0]
                key = f"{run.system}, {build}"
                rates.setdefault(key, []).append(value)
                ratios.setdefault(key, []).append(value / kws if kws else 0.0)
                print(f"repeat {repeat + 1}: {key} {value:.4f} s per audio s (PocketSphinx kws {kws:.4f})", flush=True)
    for key, values in rates.items():
        print(f"{key}: {statistics.median(values):.4f} ({min(values):.4f}–{max(values):.4f} over {len(values)}; "
              f"×{statistics.median(ratios[key]):.2f} PocketSphinx kws)")


if __name__ == "__main__":
    main(sys.argv[1:])
