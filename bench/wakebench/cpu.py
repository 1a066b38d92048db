"""Issue 20's CPU target measured as the issue states it: ears listening for three
phrases over continuous speech without the phrase, each process alone on the machine,
repeated, beside PocketSphinx's keyphrase spotter on the same audio in the same step.

Why a step of its own: the scans run `--jobs` (two) at a time, and on two shared cores
a process beside another is charged up to a third more CPU time for the same work
(memory and cache contention: `ears scan` of the same ten minutes of read speech took
17.5 CPU s beside another scan and 12.8-13.2 s alone, 2026-12-06). The figure in the
summary table (every phrase, beside the other scans) says what the run cost; this one
says what ears costs a machine it runs on, and its ratio to PocketSphinx's spotter,
measured in the same minutes, says it in a unit the machine's mood does not move.

Each process's start-up (loading the models and engines, about a CPU second) is
measured in the same repeat on a second of silence and taken off: a daemon loads once,
and over the quick run's one-minute stretches start-up alone would add 0.015 s per
audio s. Nothing here is cached: CPU time is the machine's now, not the audio's."""
from __future__ import annotations

import os
import statistics
import wave
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from . import audio, config, runners, streams

# How many phrases the target counts ("CPU s per audio s, 3 phrases, continuous speech").
PHRASE_COUNT = 3
# Seconds cut from the start of each negative stream (read speech clean, at 10 dB, the
# conversation), and how many times each system reads them; --quick uses less of both.
STRETCH_S = 300.0
REPEATS = 3
QUICK_STRETCH_S = 60.0
QUICK_REPEATS = 3
# The same-step reference: PocketSphinx's keyphrase spotter alone.
REFERENCE_FAMILY = "kws"
# Seconds of silence a process reads to measure its start-up alone.
STARTUP_S = 1.0


@dataclass
class Alone:
    """One system's CPU over the stretches, per repeat, and the reference's in the same repeats."""
    system: str
    phrases: list[str]
    audio_s: float  # audio read per repeat
    cpu_per_audio_s: list[float] = field(default_factory=list)  # one per repeat, start-up taken off
    reference_per_audio_s: list[float] = field(default_factory=list)  # PocketSphinx kws, the same repeats
    startup_cpu_s: list[float] = field(default_factory=list)  # one process's start-up, per repeat

    @property
    def median(self) -> float | None:
        return statistics.median(self.cpu_per_audio_s) if self.cpu_per_audio_s else None

    @property
    def spread(self) -> tuple[float, float] | None:
        return (min(self.cpu_per_audio_s), max(self.cpu_per_audio_s)) if self.cpu_per_audio_s else None

    @property
    def reference_ratio(self) -> float | None:
        """Median over repeats of (this system's CPU / the reference's) in that repeat."""
        pairs = [c / r for c, r in zip(self.cpu_per_audio_s, self.reference_per_audio_s) if r > 0]
        return statistics.median(pairs) if pairs else None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(d: dict[str, Any]) -> "Alone":
        return Alone(d["system"], list(d["phrases"]), d["audio_s"], list(d["cpu_per_audio_s"]),
                     list(d["reference_per_audio_s"]), list(d.get("startup_cpu_s", [])))


def phrases_for(phrases: list[str]) -> list[str]:
    """The target's three phrases: the first three the reference can spot (every word in
    PocketSphinx's dictionary), else the first three listened for."""
    spotted = runners.kws_phrases(phrases)
    return (spotted if len(spotted) >= PHRASE_COUNT else phrases)[:PHRASE_COUNT]


def stretches(stream_list: list[streams.Stream], work: str, seconds: float) -> list[tuple[str, str, float]]:
    """(name, wav, seconds) of the first `seconds` of each negative stream, written into `work`."""
    out = []
    for s in stream_list:
        if s.kind != "negative":
            continue
        path = os.path.join(work, f"cpu-{s.name}-{seconds:g}s.wav")
        with wave.open(s.wav, "rb") as src:
            frames = min(src.getnframes(), int(seconds * src.getframerate()))
            data = src.readframes(frames)
            params = src.getparams()
        with wave.open(path + ".tmp", "wb") as dst:
            dst.setparams(params)
            dst.writeframes(data)
        os.replace(path + ".tmp", path)
        out.append((s.name, path, frames / params.framerate))
    return out


def measure(ears: str, ears_configs: list[tuple[str, list[str]]], phrases: list[str], stream_list: list[streams.Stream],
            work: str, python: str, log: Callable[..., None], seconds: float = STRETCH_S,
            repeats: int = REPEATS) -> list[Alone]:
    """Each ears configuration at its default, listening for `phrases_for(phrases)`, and the
    reference, over the negative streams' first `seconds`, one process at a time (the caller
    runs nothing beside), `repeats` times in turn, so drift in the machine's load falls on
    every system alike. Empty when the run has no negative stream. A system whose process
    fails (say, a configuration whose models lack one of the three phrases) is logged and
    left out, as is every system when the reference fails: the scans before this step took
    most of an hour and must still be written; the targets table then says "not measured alone"."""
    chosen = phrases_for(phrases)
    cut = stretches(stream_list, work, seconds)
    if not cut:
        return []
    startup = silence(work, STARTUP_S)
    runs = [r for r in runners.plan(chosen, ears_configs, [], peers=False, trained_sweep=[]) if r.default is not None]
    reference = next((r for r in runs if r.family == REFERENCE_FAMILY), None)
    systems = [r for r in runs if r.family == "ears"]
    audio_s = sum(s for _, _, s in cut)
    results = {r.system: Alone(r.system, chosen, audio_s) for r in systems}
    failed: set[str] = set()
    for repeat in range(repeats):
        try:
            reference_rate = rate(reference, cut, startup, ears, python, work)[0] if reference else 0.0
        except RuntimeError as e:
            log(f"wake: CPU alone not measured: PocketSphinx kws failed: {e}")
            return []
        for run in systems:
            if run.system in failed:
                continue
            try:
                value, startup_cpu = rate(run, cut, startup, ears, python, work)
            except RuntimeError as e:
                log(f"wake: CPU alone not measured for {run.system}: {e}")
                failed.add(run.system)
                continue
            results[run.system].cpu_per_audio_s.append(value)
            results[run.system].reference_per_audio_s.append(reference_rate)
            results[run.system].startup_cpu_s.append(startup_cpu)
            log(f"wake: CPU alone, repeat {repeat + 1}/{repeats}: {run.system} {value:.4f} s per audio s "
                f"(PocketSphinx kws {reference_rate:.4f}; start-up {startup_cpu:.2f} CPU s taken off) over "
                f"{audio_s:.0f} s of speech, {len(chosen)} phrases")
    return [a for a in results.values() if a.system not in failed]


def silence(work: str, seconds: float) -> tuple[str, str, float]:
    """(name, wav, seconds) of `seconds` of digital silence in `work`: what a process reads to start up."""
    path = os.path.join(work, f"cpu-startup-{seconds:g}s.wav")
    audio.write_wav(path, np.zeros(int(seconds * audio.RATE), dtype=np.float32))
    return ("startup", path, seconds)


def rate(run: runners.Run, cut: list[tuple[str, str, float]], startup: tuple[str, str, float], ears: str, python: str,
         work: str) -> tuple[float, float]:
    """CPU s per audio s of `run` over the stretches, one process per stretch, each with one
    start-up (the CPU of a process reading `startup`'s second of silence) taken off; and that start-up."""
    name, wav, secs = startup
    startup_cpu = runners.execute(run, name, wav, secs, ears, python, work).cpu_s
    cpu = audio = 0.0
    for name, wav, secs in cut:
        result = runners.execute(run, name, wav, secs, ears, python, work)
        cpu += max(0.0, result.cpu_s - startup_cpu)
        audio += result.audio_s
    return (cpu / audio if audio else 0.0), startup_cpu


def cell(alone: Alone | None) -> str:
    """How the targets table shows one system's measurement ("0.019 alone (0.018–0.020 over 3; ×1.10 PocketSphinx kws)"),
    start-up taken off (see the module's doc)."""
    if alone is None or alone.median is None or alone.spread is None:
        return "not measured"
    low, high = alone.spread
    ratio = alone.reference_ratio
    return (f"{alone.median:.3f} alone ({low:.3f}–{high:.3f} over {len(alone.cpu_per_audio_s)}"
            + (f"; ×{ratio:.2f} PocketSphinx kws" if ratio is not None else "") + ")")
