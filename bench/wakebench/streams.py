"""The audio as a microphone gives it: per condition, all of its files joined
into ONE long WAV, with 1 to 2 s gaps between them (the condition's noise, or
silence when clean), each file's offset known to the sample. Every system reads
each stream once, continuously; its detections are mapped back to files by time."""
from __future__ import annotations

import bisect
import json
import os
import random
import subprocess
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import config
from .audio import RATE, read_wav, rms, write_wav

GAP_S = (1.0, 2.0)
RAMP_S = 0.05  # the noise's gain moves from one file's level to the next over this long, in a gap


@dataclass
class Stream:
    name: str  # e.g. "pos-pink10", "neg-clean", "alike-clean"
    kind: str  # "positive", "negative" or "soundalike"
    condition: str
    wav: str
    seconds: float
    items: list[dict[str, Any]]  # manifest items, in stream order
    starts: list[float]  # each item's start in the stream (s)

    def locate(self, t: float) -> tuple[dict[str, Any], float] | None:
        """The file a stream time falls in (or in the gap after it), and the time within that file."""
        i = bisect.bisect_right(self.starts, t) - 1
        if i < 0:
            return None
        return self.items[i], t - self.starts[i]

    def to_json(self) -> dict[str, Any]:
        return dict(name=self.name, kind=self.kind, condition=self.condition, wav=self.wav, seconds=self.seconds,
                    files=[i["file"] for i in self.items], starts=self.starts)


def pink_noise(path: str, seconds: float) -> np.ndarray:
    subprocess.run(["sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-b", "16", path, "synth", f"{seconds:.3f}", "pinknoise"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return read_wav(path)
    finally:
        os.remove(path)


def build(path: str, name: str, kind: str, condition: config.Condition, items: list[dict[str, Any]],
          babble_bed: str, seed: int) -> Stream:
    """Joins the (clean) files of items into one stream in condition, or finds it built."""
    wav = os.path.join(path, f"{name}.wav")
    index = wav + ".json"
    rng = random.Random(seed)
    order = list(items)
    rng.shuffle(order)  # voices and phrases interleaved, the same way every run
    if os.path.exists(index) and os.path.exists(wav):
        meta = json.load(open(index))
        if meta["files"] == [i["file"] for i in order]:
            return Stream(name, kind, condition.name, wav, meta["seconds"], order, meta["starts"])
    clean = [read_wav(i["file"]) for i in order]
    gaps = [int(rng.uniform(*GAP_S) * RATE) for _ in range(len(order) + 1)]
    total = sum(len(c) for c in clean) + sum(gaps)
    signal = np.zeros(total, dtype=np.float32)
    starts: list[int] = []
    # Segment k = the gap before file k, then file k; the noise in it is set to file k's level.
    bounds: list[tuple[int, int, int]] = []  # (segment start, file start, file end)
    pos = 0
    for c, gap in zip(clean, gaps):
        seg = pos
        pos += gap
        signal[pos:pos + len(c)] = c
        starts.append(pos)
        bounds.append((seg, pos, pos + len(c)))
        pos += len(c)
    if condition.noise != "none":
        if condition.noise == "pink":
            noise = pink_noise(wav + ".noise.wav", total / RATE + 0.1)[:total]
        else:
            bed = read_wav(babble_bed)
            offset = rng.randrange(len(bed))
            noise = np.resize(np.roll(bed, -offset), total)
        gain = np.empty(total, dtype=np.float32)
        previous = None
        for k, ((seg, start, end), c) in enumerate(zip(bounds, clean)):
            seg_end = bounds[k + 1][0] if k + 1 < len(bounds) else total
            g = rms(c) / max(rms(noise[start:end]), 1e-9) / (10 ** (condition.snr_db / 20))
            gain[seg:seg_end] = g
            if previous is not None:
                ramp = min(int(RAMP_S * RATE), seg_end - seg)
                gain[seg:seg + ramp] = np.linspace(previous, g, ramp, dtype=np.float32)
            previous = g
        signal = signal + gain * noise
    write_wav(wav, signal)
    stream = Stream(name, kind, condition.name, wav, total / RATE, order, [s / RATE for s in starts])
    json.dump(dict(files=[i["file"] for i in order], starts=stream.starts, seconds=stream.seconds), open(index, "w"))
    return stream


def build_all(corpus_path: str, manifest: dict[str, Any], conditions: list[str]) -> list[Stream]:
    """Positives in each condition; negatives clean and in pink noise at 10 dB; sound-alikes clean."""
    work = os.path.join(corpus_path, "streams")
    os.makedirs(work, exist_ok=True)
    bed = os.path.join(corpus_path, "babble-bed.wav")
    items = manifest["items"]
    out = []
    for n, cond in enumerate(c for c in config.CONDITIONS if c.name in conditions):
        pos = [i for i in items if i["kind"] == "positive"]
        out.append(build(work, f"pos-{cond.name}", "positive", cond, pos, bed, 100 + n))
    for n, cond in enumerate(config.NEGATIVE_CONDITIONS):
        neg = [i for i in items if i["kind"] == "negative"]
        out.append(build(work, f"neg-{cond.name}", "negative", cond, neg, bed, 200 + n))
    alikes = [i for i in items if i["kind"] == "soundalike"]
    if alikes:
        out.append(build(work, "alike-clean", "soundalike", config.CONDITIONS[0], alikes, bed, 300))
    return out
