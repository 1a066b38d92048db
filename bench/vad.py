"""Issue 11: silero_vad.onnx as the speech gate, measured against ears's EnergySpeechGate.

For each condition of the wake benchmark (clean, 40 dB floor, pink 20/10/5 dB,
babble 10 dB) a sample of positives and of negatives (read speech) is joined
into one stream per kind with bench/wakebench/streams.py (1 to 2 s gaps of the
condition's noise, or silence when clean), inside a private temp dir removed on
exit. Every stream is then gated in 100 ms chunks, as ears's Ear feeds its engine:

- energy: the real gate, `ears scan --json` with `--speech-gate on` (chunks and
  fed) and `off` (the engine's CPU ungated), and a sample-exact port of
  EnergySpeechGate (bench/vadbench/gates.py) for what `ears scan` does not print: which samples
  were fed. The port's chunk and fed counts are checked against the binary's.
- silero: the speech probability of each 30 ms frame (a chunk takes the highest
  of the frames that end in it) or of each whole 100 ms chunk, a chunk speech
  if that is at least 0.3, 0.5 or 0.7, with the energy gate's 0.3 s pre-roll
  and 1 s hang-over.

Measured per gate and condition: the share of audio admitted (what the acoustic
engine must decode), of idle audio (further than the pre-roll before or the
hang-over after any phrase), of read speech, the share of phrases whose whole
span [phrase_start, phrase_end] was fed, and silero's CPU per audio second on
one thread. The Markdown tables go to stdout.

With --noise-steps, only a check of the gates on pink noise alone whose level
steps up and down (no corpus, nothing written to disk).

usage: PYTHONPATH=.deps/onnx python3 bench/vad.py [--positives 40] [--negatives 40] [--seed 11] [--noise-steps]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import wave
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import onnxruntime as ort

from vadbench.gates import (CHUNK_SAMPLES, HANGOVER_SAMPLES, PRE_ROLL_SAMPLES, SAMPLE_RATE, EnergyGatePort, GateRun,
                            Silero, silero_gate)
from wakebench import config
from wakebench.streams import Stream, build

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "bench", "out", "wake-corpus-b88436e6f18b")
EARS = os.path.join(ROOT, ".build", "release", "ears")
SILERO = os.path.join(ROOT, ".deps", "onnx", "openwakeword", "resources", "models", "silero_vad.onnx")

SILERO_THRESHOLDS = (0.3, 0.5, 0.7)
SILERO_FRAMES = {"30 ms": 480, "100 ms": CHUNK_SAMPLES}  # samples per inference
LEAD_S, TAIL_S = 0.8, 1.0  # bench/corpus.py: silence before and after each synthesis
STEP_NOISE_SECONDS = 60  # --noise-steps: length of the noise
STEP_SECONDS = 4  # --noise-steps: seconds between level changes
STEP_DECIBELS = (0, 6, 10, 15)  # --noise-steps: how far the level steps


# ---------------------------------------------------------------- the real gate


@dataclass
class ScanSummary:
    chunks: int
    fed: int
    cpu_seconds: float
    audio_seconds: float


def ears_scan(wav: str, gate_on: bool) -> ScanSummary:
    """`ears scan --json` over one stream with the acoustic engine only (no trained models)."""
    phrases = [arg for phrase in config.PHRASES for arg in ("--phrase", phrase)]
    command = [EARS, "scan", "--json", "--trained-models", "off", "--speech-gate", "on" if gate_on else "off",
               *phrases, wav]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    summary = next(json.loads(line) for line in done.stdout.splitlines() if '"summary"' in line)
    return ScanSummary(int(summary["chunks"]), int(summary["fed"]), float(summary["cpu_s"]), float(summary["audio_s"]))


# ---------------------------------------------------------------- measures


def read_samples(path: str) -> np.ndarray:
    with wave.open(path, "rb") as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.int64)


def phrase_spans(stream: Stream) -> list[tuple[int, int]]:
    """Each positive's [phrase_start, phrase_end] in stream samples."""
    return [(int((start + item["phrase_start"]) * SAMPLE_RATE), int(np.ceil((start + item["phrase_end"]) * SAMPLE_RATE)))
            for item, start in zip(stream.items, stream.starts)]


def speech_spans(stream: Stream) -> list[tuple[int, int]]:
    """Where each file's speech is in stream samples: bench/corpus.py pads every
    synthesis with `LEAD_S` of silence before and `TAIL_S` after."""
    return [(int((start + LEAD_S) * SAMPLE_RATE), int((start + item["seconds"] - TAIL_S) * SAMPLE_RATE))
            for item, start in zip(stream.items, stream.starts)]


def idle_mask(length: int, spans: list[tuple[int, int]]) -> np.ndarray:
    """Samples no gate has reason to feed: further than the pre-roll before and the
    hang-over after all speech (the gaps and the silence leading into each file)."""
    idle = np.ones(length, dtype=bool)
    for start, end in spans:
        idle[max(0, start - PRE_ROLL_SAMPLES):end + HANGOVER_SAMPLES] = False
    return idle


@dataclass
class Measure:
    """One gate in one condition."""
    admitted_positive: float  # share of the positive stream fed
    admitted_negative: float  # share of the read-speech stream fed
    admitted_idle: float  # share of both streams' idle audio fed
    phrases_whole: float  # share of phrases fed from start to end


def measure(positive: GateRun, negative: GateRun, streams: dict[str, Stream]) -> Measure:
    idle_positive = idle_mask(len(positive.fed), speech_spans(streams["positive"]))
    idle_negative = idle_mask(len(negative.fed), speech_spans(streams["negative"]))
    idle_fed = int(positive.fed[idle_positive].sum()) + int(negative.fed[idle_negative].sum())
    whole = [bool(positive.fed[start:end].all()) for start, end in phrase_spans(streams["positive"])]
    return Measure(float(positive.fed.mean()), float(negative.fed.mean()),
                   idle_fed / max(1, int(idle_positive.sum()) + int(idle_negative.sum())), sum(whole) / len(whole))


@dataclass
class ConditionResult:
    condition: str
    measures: dict[str, Measure] = field(default_factory=dict)  # gate label -> measure
    scans: dict[str, tuple[ScanSummary, ScanSummary]] = field(default_factory=dict)  # kind -> (gate on, off)
    port_counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # kind -> (chunks, fed) by the port


def run_condition(condition: config.Condition, positives: list[dict[str, Any]], negatives: list[dict[str, Any]],
                  work: str, silero: Silero, seed: int) -> ConditionResult:
    bed = os.path.join(CORPUS, "babble-bed.wav")
    result = ConditionResult(condition.name)
    streams = {kind: build(work, f"{kind}-{condition.name}", kind, condition, items, bed, seed)
               for kind, items in (("positive", positives), ("negative", negatives))}
    samples = {kind: read_samples(stream.wav) for kind, stream in streams.items()}
    runs: dict[str, dict[str, GateRun]] = {}
    for kind, stream in streams.items():
        result.scans[kind] = (ears_scan(stream.wav, True), ears_scan(stream.wav, False))
        energy = EnergyGatePort().gate(samples[kind])
        result.port_counts[kind] = (energy.chunks, energy.buffers)
        runs.setdefault("energy (EnergySpeechGate)", {})[kind] = energy
        for frame_name, frame_samples in SILERO_FRAMES.items():
            probabilities = silero.probabilities(samples[kind], frame_name, frame_samples)
            for threshold in SILERO_THRESHOLDS:
                label = f"silero {frame_name} ≥ {threshold}"
                runs.setdefault(label, {})[kind] = silero_gate(samples[kind], probabilities, frame_samples, threshold)
        os.remove(stream.wav)  # nothing heard stays on disk longer than it is needed
    for label, by_kind in runs.items():
        result.measures[label] = measure(by_kind["positive"], by_kind["negative"], streams)
    return result


# ---------------------------------------------------------------- report


def percent(value: float) -> str:
    return f"{100 * value:.1f} %"


def table(results: list[ConditionResult], title: str, value: Callable[[Measure], float]) -> list[str]:
    labels = list(results[0].measures)
    lines = [f"**{title}**", "", "| gate | " + " | ".join(config.CONDITION_BY_NAME[r.condition].label for r in results) + " |",
             "|---|" + "---:|" * len(results)]
    for label in labels:
        lines.append(f"| {label} | " + " | ".join(percent(value(r.measures[label])) for r in results) + " |")
    return lines + [""]


def report(results: list[ConditionResult], silero: Silero, audio_seconds: float, args: argparse.Namespace) -> str:
    lines = [f"{args.positives} positives and {args.negatives} negatives per condition, seed {args.seed}; "
             f"{audio_seconds / 60:.1f} min of audio in all.", ""]
    lines += table(results, "Phrases fed whole (start to end; higher is better)", lambda m: m.phrases_whole)
    lines += table(results, "Audio fed, calls (phrase and command) between gaps (lower saves the engine's CPU)",
                   lambda m: m.admitted_positive)
    lines += table(results, "Audio fed, read speech between gaps", lambda m: m.admitted_negative)
    lines += table(results, "Idle audio fed (silence or noise over 0.3 s before or 1 s after any speech; both streams)",
                   lambda m: m.admitted_idle)
    lines += ["**The real gate** (`ears scan`, acoustic engine; the port's counts must equal the binary's)", "",
              "| condition | stream | chunks | fed, binary | fed, port | engine CPU s per audio s, gated | ungated |",
              "|---|---|---:|---:|---:|---:|---:|"]
    for r in results:
        for kind, (on, off) in r.scans.items():
            chunks, fed = r.port_counts[kind]
            agree = "" if (chunks, fed) == (on.chunks, on.fed) else " ≠"
            lines.append(f"| {r.condition} | {kind} | {on.chunks} | {on.fed} | {fed}{agree} | "
                         f"{on.cpu_seconds / on.audio_seconds:.4f} | {off.cpu_seconds / off.audio_seconds:.4f} |")
    lines += ["", "**silero CPU** (one thread, onnxruntime " + ort.__version__ + ")", "",
              "| frame | CPU s per audio s |", "|---|---:|"]
    for name, seconds in silero.cpu_seconds.items():
        lines.append(f"| {name} | {seconds / audio_seconds:.4f} |")
    return "\n".join(lines) + "\n"


def noise_steps() -> str:
    """Steady pink noise whose level steps up and down every 4 s: what each gate feeds of it.
    The noise is piped from sox, never written to disk."""
    command = ["sox", "-R", "-n", "-t", "raw", "-r", str(SAMPLE_RATE), "-e", "signed", "-b", "16", "-c", "1", "-",
               "synth", str(STEP_NOISE_SECONDS), "pinknoise", "vol", "0.05"]
    noise = np.frombuffer(subprocess.run(command, capture_output=True, check=True).stdout, dtype="<i2").astype(np.float64)
    silero = Silero(SILERO)
    period = STEP_SECONDS * SAMPLE_RATE
    lines = [f"**Pink noise alone, {STEP_NOISE_SECONDS} s, its level stepping up and down every {STEP_SECONDS} s: "
             "audio fed**", "", "| step | energy | silero 30 ms ≥ 0.5 | silero 100 ms ≥ 0.5 |", "|---|---:|---:|---:|"]
    for step_decibels in STEP_DECIBELS:
        louder = (np.arange(len(noise)) // period) % 2 == 1
        gain = np.where(louder, 10 ** (step_decibels / 20), 1.0)
        samples = np.clip(np.round(noise * gain), -32768, 32767).astype(np.int64)
        cells = [percent(float(EnergyGatePort().gate(samples).fed.mean()))]
        for name in ("30 ms", "100 ms"):
            frame_samples = SILERO_FRAMES[name]
            probabilities = silero.probabilities(samples, name, frame_samples)
            cells.append(percent(float(silero_gate(samples, probabilities, frame_samples, 0.5).fed.mean())))
        lines.append(f"| {step_decibels} dB | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positives", type=int, default=40)
    parser.add_argument("--negatives", type=int, default=40)
    parser.add_argument("--seed", type=int, default=11)
    # The room conditions need pyroomacoustics (the bench virtualenv), which this script does not.
    parser.add_argument("--conditions", default=",".join(c.name for c in config.CONDITIONS if not c.room))
    parser.add_argument("--noise-steps", action="store_true", help="only the pink-noise level-step check")
    args = parser.parse_args()
    for path, what in ((EARS, "swift build -c release"), (SILERO, "make deps (openwakeword's wheel into .deps/onnx)")):
        if not os.path.exists(path):
            sys.exit(f"bench/vad.py: {path} is missing; run `{what}` first.")
    if args.noise_steps:
        print(noise_steps(), end="")
        return 0
    manifest = json.load(open(os.path.join(CORPUS, "manifest.json")))
    rng = random.Random(args.seed)
    positives = rng.sample([i for i in manifest["items"] if i["kind"] == "positive"], args.positives)
    negatives = rng.sample([i for i in manifest["items"] if i["kind"] == "negative"], args.negatives)
    silero = Silero(SILERO)
    results: list[ConditionResult] = []
    with tempfile.TemporaryDirectory(prefix="ears-vad-") as work:
        for number, name in enumerate(args.conditions.split(",")):
            started = time.monotonic()
            results.append(run_condition(config.CONDITION_BY_NAME[name], positives, negatives, work, silero,
                                         args.seed + number))
            print(f"{name}: {time.monotonic() - started:.0f} s", file=sys.stderr)
    audio_seconds = sum(on.audio_seconds for r in results for on, _ in r.scans.values())
    print(report(results, silero, audio_seconds, args), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
