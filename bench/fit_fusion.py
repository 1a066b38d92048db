#!/usr/bin/env python3
"""Fits the fusion of a trained head with the acoustic verifier (issue 20).

A phrase with a trained model is heard by its head (cheap, always on); every
candidate the head proposes at a low score is measured on its own audio by
the acoustic verifier (PocketSphinx, trained on people), and one logistic
model over both decides (`Sources/EarsPhonetics/Verify/FusionCalibration.swift`).
This script finds that model's weights, on the benchmark's own streams, with a
whole engine held out:

1. runs `ears scan --json --candidates --trained-threshold HEAD` over the
   benchmark's continuous streams (calls clean, at pink 10 and 5 dB, in babble
   and in a room; read speech clean and at 10 dB; the conversation; the
   near-miss sentences), every phrase at once, with the benchmark's trained
   models, so every candidate the heads propose is measured and printed
   (numbers only);
2. labels each trained candidate by where it falls: 1 inside a call of the
   phrase it names, at or after the phrase starts; 0 anywhere else;
3. drops every candidate said by a voice of the held-out engine (festival:
   the engine `ears train` never hears), fits an L2-regularised logistic
   regression on the rest (fit_verifier's, deterministic), and chooses the fused
   threshold on the rest too: the lowest whose false wakes per hour over
   those voices' negative streams is at most TARGET_FALSE_WAKES_PER_HOUR,
   so the held-out engine's figures, printed last, are an honest estimate;
4. writes Sources/EarsPhonetics/Verify/FusionWeights.swift, naming this command.

usage: bench/fit_fusion.py EARS [--corpus DIR] [--streams DIR] [--models DIR]
(`make fit-fusion`; by default the newest benchmark corpus under bench/out, its
full-size streams and the newest trained models: run `make bench-wake` first)
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import glob
import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fit_verifier  # noqa: E402  (one logistic regression for both calibrations)
from wakebench import config  # noqa: E402  (bench/ is not a package)

FEATURES = ["head", "llr", "margin", "phones", "duration"]
HELD_OUT_ENGINE = "festival"
STREAMS = ["pos-clean", "pos-pink10", "pos-pink5", "pos-babble10", "pos-room10",
           "neg-clean", "neg-pink10", "neg-talk", "alike-clean"]
HEAD_THRESHOLD = 0.3
TARGET_FALSE_WAKES_PER_HOUR = 0.5
THRESHOLDS = [round(0.05 * i, 2) for i in range(1, 20)] + [0.96, 0.97, 0.98, 0.99]


@dataclass
class Candidate:
    """One trained candidate: its features, label and where it was heard."""
    stream: str
    phrase: str
    t: float
    features: list[float]
    competitor_wins: bool
    label: int
    engine: str
    item: str  # the corpus file it fell in


def scan(ears: str, stream_wav: str, models: str, phrases: list[str]) -> list[dict]:
    """Every trained candidate line `ears scan --candidates` prints for one stream."""
    args = [ears, "scan", "--json", "--candidates", "--trained-threshold", str(HEAD_THRESHOLD), "--models-dir", models]
    for phrase in phrases:
        args += ["--phrase", phrase]
    out = subprocess.run(args + [stream_wav], capture_output=True, text=True, check=True).stdout
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return [line for line in lines if line.get("event") == "candidate" and line.get("route") == "trained"]


def locate(starts: list[float], files: list[str], t: float) -> str:
    """The corpus file a stream time falls in (or in the gap after it)."""
    index = max(0, int(np.searchsorted(np.asarray(starts), t, side="right")) - 1)
    return files[index]


def label(stream: str, line: dict, item: dict, t_in_file: float) -> int:
    """1 for a candidate inside a call of the phrase it names, at or after the phrase starts."""
    return int(stream.startswith("pos-") and item.get("phrase") == line["phrase"] and t_in_file >= item["phrase_start"])


def collect(ears: str, streams_dir: str, manifest: dict, models: str, phrases: list[str],
            cache_dir: str) -> tuple[list[Candidate], dict[str, dict[str, float]], dict[str, dict[str, int]]]:
    """Candidates of every stream, negative seconds per engine and stream, and calls per engine and stream."""
    by_file = {item["file"]: item for item in manifest["items"]}
    os.makedirs(cache_dir, exist_ok=True)

    def one(name: str) -> tuple[str, list[dict]]:
        info = json.load(open(os.path.join(streams_dir, name + ".wav.json")))
        cached = os.path.join(cache_dir, f"{name}-{info['digest']}.json")
        if os.path.exists(cached):
            return name, json.load(open(cached))
        lines = scan(ears, os.path.join(streams_dir, name + ".wav"), models, phrases)
        json.dump(lines, open(cached, "w"))
        print(f"fit_fusion: scanned {name}: {len(lines)} trained candidates", file=sys.stderr)
        return name, lines

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        scanned = dict(pool.map(one, STREAMS))
    candidates: list[Candidate] = []
    negative_seconds: dict[str, dict[str, float]] = {}
    calls: dict[str, dict[str, int]] = {}
    for name in STREAMS:
        info = json.load(open(os.path.join(streams_dir, name + ".wav.json")))
        files, starts = info["files"], info["starts"]
        for index, file in enumerate(files):
            item = by_file[file]
            engine = config.voice_engine(item["voice"])
            if name.startswith("neg-"):
                end = starts[index + 1] if index + 1 < len(files) else info["seconds"]
                negative_seconds.setdefault(engine, {}).setdefault(name, 0.0)
                negative_seconds[engine][name] += end - starts[index]
            elif name.startswith("pos-") and item["phrase"] in phrases:
                calls.setdefault(engine, {}).setdefault(name, 0)
                calls[engine][name] += 1
        for line in scanned[name]:
            file = locate(starts, files, line["t"])
            item = by_file[file]
            t_in_file = line["t"] - starts[files.index(file)]
            candidates.append(Candidate(stream=name, phrase=line["phrase"], t=line["t"],
                                        features=[float(line[f]) for f in FEATURES],
                                        competitor_wins=bool(line["competitor_wins"]),
                                        label=label(name, line, item, t_in_file),
                                        engine=config.voice_engine(item["voice"]), item=file))
    return candidates, negative_seconds, calls


def nothing_to_fit(train: list[Candidate]) -> str | None:
    """Why `train` cannot be fitted (no candidate, or one class only), or None."""
    if not train:
        return ("ears scan --candidates printed no trained candidate: check that the models folder holds a model "
                "per phrase and that the verifier is on (ears model status --models-dir DIR)")
    labels = {c.label for c in train}
    if labels != {0, 1}:
        kind = "in calls" if labels == {1} else "outside calls"
        return f"every one of the {len(train)} trained candidates is {kind}: a fit needs both"
    return None


def fit(rows: np.ndarray, labels: np.ndarray) -> tuple[float, np.ndarray]:
    """The verifier's logistic regression (`fit_verifier.fit`: standardised
    features, each class weighing half, L2), on the fusion's features."""
    data = [fit_verifier.Candidate(features=[float(v) for v in row], label=int(label), file="", kind="")
            for row, label in zip(rows, labels)]
    bias, weights = fit_verifier.fit(data)
    return bias, np.array(weights)


def fused(bias: float, weights: np.ndarray, features: list[float]) -> float:
    """The fused score of one candidate (the verifier's logistic, `fit_verifier.score`)."""
    return fit_verifier.score(bias, list(weights), features)


@dataclass
class Point:
    """What one fused threshold does on a set of engines."""
    threshold: float
    heard: int
    calls: int
    false_wakes: int
    negative_hours: float
    near_misses: int

    @property
    def recall(self) -> float:
        return self.heard / max(1, self.calls)

    @property
    def false_wakes_per_hour(self) -> float:
        return self.false_wakes / max(1e-9, self.negative_hours)


def evaluate(candidates: list[Candidate], bias: float, weights: np.ndarray, threshold: float, engines: set[str],
             negative_seconds: dict[str, dict[str, float]], calls: dict[str, dict[str, int]]) -> Point:
    """Calls heard, false wakes and near-misses woken at `threshold` over `engines` (no contest: `trained_contest` is off by default)."""
    kept = [c for c in candidates if c.engine in engines and fused(bias, weights, c.features) >= threshold]
    heard = len({(c.stream, c.item) for c in kept if c.label == 1})
    false_wakes = sum(1 for c in kept if c.stream.startswith("neg-"))
    near_misses = len({c.item for c in kept if c.stream.startswith("alike-")})
    total_calls = sum(n for e in engines for n in calls.get(e, {}).values())
    hours = sum(s for e in engines for s in negative_seconds.get(e, {}).values()) / 3600
    return Point(threshold, heard, total_calls, false_wakes, hours, near_misses)


def write_swift(path: str, bias: float, weights: np.ndarray, threshold: float, summary: list[str], command: str) -> None:
    """FusionWeights.swift with the fitted numbers and how they were made."""
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = ["// Generated by bench/fit_fusion.py; do not edit by hand.", f"// Command: {command}", f"// Fitted {stamp}."]
    lines += [f"// {line}" for line in summary]
    lines += ["", "/// The fusion's fitted logistic weights (see `FusionCalibration`), the fused",
              "/// threshold and the head score at which candidates are put to the verifier.",
              "enum FusionWeights {", "    /// Bias term.", f"    static let bias = {bias:.6f}",
              "    /// One weight per `FusionCalibration.featureNames` entry (head, llr, margin, phones, duration).",
              "    static let weights = [" + ", ".join(f"{w:.6f}" for w in weights) + "]",
              "    /// The fused score a candidate needs to wake.", f"    static let threshold = {threshold}",
              "    /// The smoothed head score at which a candidate is put to the verifier (0: each model's own threshold).",
              f"    static let headThreshold = {HEAD_THRESHOLD}", "}", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def describe(point: Point) -> str:
    return (f"recall {point.heard}/{point.calls} ({100 * point.recall:.1f}%), {point.false_wakes} false wakes in "
            f"{point.negative_hours:.2f} h ({point.false_wakes_per_hour:.2f}/h), {point.near_misses} near-miss sentences woke")


def newest(pattern: str, exclude: str = "") -> str | None:
    """The most recently changed path matching `pattern` (none containing `exclude`)."""
    paths = [p for p in glob.glob(pattern) if not (exclude and exclude in p)]
    return max(paths, key=os.path.getmtime) if paths else None


def full_streams(corpus: str) -> str | None:
    """The corpus' streams folder with the most calls (the full run's, not the quick share)."""
    folders = [f for f in glob.glob(os.path.join(corpus, "streams-*")) if os.path.exists(os.path.join(f, "pos-clean.wav.json"))]
    return max(folders, key=lambda f: len(json.load(open(os.path.join(f, "pos-clean.wav.json")))["files"]), default=None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ears", help="the ears binary (release build)")
    parser.add_argument("--corpus", help="the benchmark corpus (default: the newest bench/out/wake-corpus-…)")
    parser.add_argument("--streams", help="its full-size streams folder (default: its streams-… with the most calls)")
    parser.add_argument("--models", help="the benchmark's trained models (default: the newest bench/out/models-…)")
    parser.add_argument("--out", default=os.path.join(ROOT, "Sources/EarsPhonetics/Verify/FusionWeights.swift"))
    parser.add_argument("--cache", default=os.path.join(ROOT, "bench/out/fusion"))
    args = parser.parse_args()
    out = os.path.join(ROOT, "bench", "out")
    args.corpus = args.corpus or newest(os.path.join(out, "wake-corpus-*"))
    args.streams = args.streams or (full_streams(args.corpus) if args.corpus else None)
    args.models = args.models or newest(os.path.join(out, "models-*"), exclude="models-none")
    if not (args.corpus and args.streams and args.models):
        parser.error("no benchmark corpus, streams or trained models under bench/out: run make bench-wake first")
    manifest = json.load(open(os.path.join(args.corpus, "manifest.json")))
    phrases = list(config.PHRASES)
    # Candidates are kept per models folder (named by its contents' digest) and ears binary.
    with open(args.ears, "rb") as f:
        binary = hashlib.sha256(f.read()).hexdigest()[:12]
    kept = os.path.join(args.cache, f"{os.path.basename(os.path.normpath(args.models))}-ears-{binary}")
    candidates, negative_seconds, calls = collect(args.ears, args.streams, manifest, args.models, phrases, kept)
    engines = {c.engine for c in candidates} | set(calls) | set(negative_seconds)
    fitted_on = engines - {HELD_OUT_ENGINE}
    train = [c for c in candidates if c.engine in fitted_on]
    problem = nothing_to_fit(train)
    if problem:
        print(f"fit_fusion: {problem}", file=sys.stderr)
        return 1
    rows = np.array([c.features for c in train])
    labels = np.array([c.label for c in train], dtype=float)
    bias, weights = fit(rows, labels)
    print(f"fit_fusion: {len(train)} candidates ({int(labels.sum())} in calls) from {', '.join(sorted(fitted_on))}; "
          f"weights {dict(zip(FEATURES, np.round(weights, 3)))}, bias {bias:.3f}")
    print("threshold | fitted-on engines | held-out engine")
    points = []
    for threshold in THRESHOLDS:
        mine = evaluate(candidates, bias, weights, threshold, fitted_on, negative_seconds, calls)
        held = evaluate(candidates, bias, weights, threshold, {HELD_OUT_ENGINE}, negative_seconds, calls)
        points.append((mine, held))
        print(f"{threshold:.2f} | {describe(mine)} | {describe(held)}")
    quiet = [p for p in points if p[0].false_wakes_per_hour <= TARGET_FALSE_WAKES_PER_HOUR]
    chosen = quiet[0] if quiet else min(points, key=lambda p: (p[0].false_wakes_per_hour, -p[0].recall))
    mine, held = chosen
    summary = [f"Head candidates at {HEAD_THRESHOLD} on the benchmark's streams ({', '.join(STREAMS)});",
               f"fitted and thresholded on {', '.join(sorted(fitted_on))} voices only, {HELD_OUT_ENGINE} held out:",
               f"{len(train)} candidates, {int(labels.sum())} in calls. At threshold {mine.threshold}:",
               f"fitted-on voices {describe(mine)};", f"held-out {HELD_OUT_ENGINE} voices {describe(held)}."]
    command = "bench/fit_fusion.py " + " ".join(os.path.relpath(a, ROOT) if os.path.exists(a) else a for a in sys.argv[1:])
    write_swift(args.out, bias, weights, mine.threshold, summary, command)
    print("\n".join(summary))
    print(f"fit_fusion: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
