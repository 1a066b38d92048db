"""The audio as a microphone gives it: per condition, all of its files joined
into ONE long WAV, with 1 to 2 s gaps between them (the condition's noise, or
silence when clean), each file's offset known to the sample. Every system reads
each stream once, continuously; its detections are mapped back to files by time."""
from __future__ import annotations

import bisect
import hashlib
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
    # What made it (recipe()): a stream is built again when its recipe changes.
    recipe: str = ""
    # The digest of its samples (audio_digest()): a system's result on the stream is kept
    # under it (bench/wakebench/cache.py), so rebuilding the same audio loses nothing.
    digest: str = ""

    def locate(self, t: float) -> tuple[dict[str, Any], float] | None:
        """The file a stream time falls in (or in the gap after it), and the time within that file."""
        i = bisect.bisect_right(self.starts, t) - 1
        if i < 0:
            return None
        return self.items[i], t - self.starts[i]

    def to_json(self) -> dict[str, Any]:
        return dict(name=self.name, kind=self.kind, condition=self.condition, wav=self.wav, seconds=self.seconds,
                    files=[i["file"] for i in self.items], starts=self.starts, recipe=self.recipe, digest=self.digest)


def pink_noise(path: str, seconds: float) -> np.ndarray:
    subprocess.run(["sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-b", "16", path, "synth", f"{seconds:.3f}", "pinknoise"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return read_wav(path)
    finally:
        os.remove(path)


def recipe(condition: config.Condition, files: list[str], seed: int, gap_s: tuple[float, float]) -> str:
    """A digest of everything a stream's samples depend on: its files (their paths name
    the corpus, which is keyed by its own recipe), the condition, the seed, the gaps,
    and this file's source (how streams are joined)."""
    h = hashlib.sha256()
    h.update(json.dumps([repr(condition), files, seed, list(gap_s)]).encode())
    with open(os.path.abspath(__file__), "rb") as f:
        h.update(f.read())
    return h.hexdigest()[:16]


def cache_digest(parts: list[Any]) -> str:
    """A short digest of parts (their JSON), for folder names."""
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:12]


def audio_digest(wav: str) -> str:
    """sha256 of a stream's file, 16 hex digits: the same samples give the same digest."""
    h = hashlib.sha256()
    with open(wav, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


ROOMS = 8  # simulated rooms; each file is heard in one of them (seeded)
CONVERSATION_GAP_S = (-0.4, 0.5)  # between turns: a negative gap is an overlap (talkers interrupt)


def room_impulse_responses(path: str, distance_m: float, count: int = ROOMS, seed: int = 11) -> list[np.ndarray]:
    """`count` room impulse responses (pyroomacoustics' image-source shoebox: rooms of
    3–7 × 3–6 × 2.4–3.2 m, RT60 0.3–0.7 s, talker `distance_m` from the microphone),
    cached in path as .npy. Each starts at its direct path (so a phrase's end time in
    the file stays where it was) and is scaled to unit energy."""
    file = os.path.join(path, f"rirs-{distance_m:g}m-{count}-{seed}.npy")
    if os.path.exists(file):
        stacked = np.load(file)
        return [np.trim_zeros(r, "b") for r in stacked]
    import pyroomacoustics as pra  # the bench virtualenv has it (make bench-setup)

    rng = random.Random(seed)
    out: list[np.ndarray] = []
    while len(out) < count:
        dims = [rng.uniform(3, 7), rng.uniform(3, 6), rng.uniform(2.4, 3.2)]
        rt60 = rng.uniform(0.3, 0.7)
        absorption, order = pra.inverse_sabine(rt60, dims)
        room = pra.ShoeBox(dims, fs=RATE, materials=pra.Material(absorption), max_order=min(order, 17))
        mic = [rng.uniform(0.5, dims[0] - 0.5), rng.uniform(0.5, dims[1] - 0.5), rng.uniform(0.7, 1.5)]
        angle = rng.uniform(0, 2 * np.pi)
        src = [mic[0] + distance_m * np.cos(angle), mic[1] + distance_m * np.sin(angle), rng.uniform(1.2, 1.8)]
        if not (0.3 < src[0] < dims[0] - 0.3 and 0.3 < src[1] < dims[1] - 0.3):
            continue  # the talker would stand outside this room: try another
        room.add_source(src)
        room.add_microphone(mic)
        room.compute_rir()
        rir = np.asarray(room.rir[0][0], dtype=np.float64)
        peak = int(np.argmax(np.abs(rir)))
        rir = rir[max(0, peak - 8):]  # from the direct path (8 samples of its filter's lead)
        out.append((rir / np.sqrt(np.sum(rir ** 2))).astype(np.float32))
    longest = max(len(r) for r in out)
    np.save(file, np.stack([np.pad(r, (0, longest - len(r))) for r in out]))
    return out


def reverberate(clean: np.ndarray, rir: np.ndarray) -> np.ndarray:
    """clean heard through rir (FFT convolution), its tail kept, at clean's RMS."""
    n = len(clean) + len(rir) - 1
    size = 1 << (n - 1).bit_length()
    wet = np.fft.irfft(np.fft.rfft(clean, size) * np.fft.rfft(rir, size), size)[:n].astype(np.float32)
    return wet * (rms(clean) / max(rms(wet), 1e-9))


def build(path: str, name: str, kind: str, condition: config.Condition, items: list[dict[str, Any]],
          babble_bed: str, seed: int, gap_s: tuple[float, float] = GAP_S) -> Stream:
    """Joins the (clean) files of items into one stream in condition, or finds it built.
    gap_s: the range of the pause between files (negative: they overlap; only without noise)."""
    wav = os.path.join(path, f"{name}.wav")
    index = wav + ".json"
    rng = random.Random(seed)
    order = list(items)
    rng.shuffle(order)  # voices and phrases interleaved, the same way every run
    key = recipe(condition, [i["file"] for i in order], seed, gap_s)
    if os.path.exists(index) and os.path.exists(wav):
        meta = json.load(open(index))
        if meta.get("recipe") == key and meta.get("digest"):
            return Stream(name, kind, condition.name, wav, meta["seconds"], order, meta["starts"], key, meta["digest"])
    clean = [read_wav(i["file"]) for i in order]
    speech_rms = [rms(c) for c in clean]  # the level the noise is set against (before level_db)
    if condition.room:
        rirs = room_impulse_responses(path, condition.room_distance_m)
        clean = [reverberate(c, rirs[rng.randrange(len(rirs))]) for c in clean]
    level = np.float32(10 ** (condition.level_db / 20))
    gaps = [int(rng.uniform(*gap_s) * RATE) for _ in range(len(order) + 1)]
    gaps[0] = max(gaps[0], int(GAP_S[0] * RATE))
    if min(gaps) < 0 and condition.noise != "none":
        raise ValueError("overlapping files are joined without noise only")
    # Segment k = the gap before file k, then file k; the noise in it is set to file k's level.
    starts: list[int] = []
    bounds: list[tuple[int, int, int]] = []  # (segment start, file start, file end)
    pos = 0
    for c, gap in zip(clean, gaps):
        seg = pos
        start = max(pos + gap, starts[-1] + 1 if starts else 0)
        starts.append(start)
        bounds.append((min(seg, start), start, start + len(c)))
        pos = max(pos, start + len(c))
    total = pos + max(gaps[-1], int(GAP_S[0] * RATE))
    signal = np.zeros(total, dtype=np.float32)
    for c, start in zip(clean, starts):
        signal[start:start + len(c)] += c * level
    if condition.noise != "none":
        if condition.noise == "pink":
            noise = pink_noise(wav + ".noise.wav", total / RATE + 0.1)[:total]
        else:
            bed = read_wav(babble_bed)
            offset = rng.randrange(len(bed))
            noise = np.resize(np.roll(bed, -offset), total)
        gain = np.empty(total, dtype=np.float32)
        previous = None
        for k, ((seg, start, end), level_rms) in enumerate(zip(bounds, speech_rms)):
            seg_end = bounds[k + 1][0] if k + 1 < len(bounds) else total
            g = level_rms / max(rms(noise[start:end]), 1e-9) / (10 ** (condition.snr_db / 20))
            gain[seg:seg_end] = g
            if previous is not None:
                ramp = min(int(RAMP_S * RATE), seg_end - seg)
                gain[seg:seg + ramp] = np.linspace(previous, g, ramp, dtype=np.float32)
            previous = g
        signal = signal + gain * noise
    write_wav(wav, signal)
    stream = Stream(name, kind, condition.name, wav, total / RATE, order, [s / RATE for s in starts], key, audio_digest(wav))
    json.dump(dict(files=[i["file"] for i in order], starts=stream.starts, seconds=stream.seconds, recipe=key,
                   digest=stream.digest), open(index, "w"))
    return stream


def first_minutes(items: list[dict[str, Any]], minutes: float | None, seed: int) -> list[dict[str, Any]]:
    """The items (in a seeded order, voices interleaved) whose speech adds up to about
    `minutes` (files whole; every item when minutes is None)."""
    if minutes is None:
        return items
    order = list(items)
    random.Random(seed).shuffle(order)
    kept, total = [], 0.0
    for item in order:
        if total >= minutes * 60:
            break
        kept.append(item)
        total += float(item.get("seconds", 0.0))
    return kept


def first_per(items: list[dict[str, Any]], key: Any, count: int | None) -> list[dict[str, Any]]:
    """The first `count` items (corpus order) of each key(item); every item when count is None."""
    if count is None:
        return items
    seen: dict[Any, int] = {}
    kept = []
    for item in items:
        k = key(item)
        seen[k] = seen.get(k, 0) + 1
        if seen[k] <= count:
            kept.append(item)
    return kept


def build_all(corpus_path: str, manifest: dict[str, Any], conditions: list[str], size: config.Size) -> list[Stream]:
    """Positives in each condition; negatives (read speech) clean and in pink noise at 10 dB;
    the conversation; sound-alikes clean."""
    # Each share of the corpus has its own folder: the quick and full runs share the corpus
    # and may run at once, so one must never rewrite the other's streams.
    work = os.path.join(corpus_path, "streams-" + cache_digest([repr(size), conditions]))
    os.makedirs(work, exist_ok=True)
    bed = os.path.join(corpus_path, "babble-bed.wav")
    items = manifest["items"]
    out = []
    calls = first_per([i for i in items if i["kind"] == "positive"], lambda i: (i["voice"], i["phrase"]),
                      size.calls_per_voice_phrase)
    for n, cond in enumerate(c for c in config.CONDITIONS if c.name in conditions):
        pos = calls
        out.append(build(work, f"pos-{cond.name}", "positive", cond, pos, bed, 100 + n))
    # The same read speech in every negative condition (cut to read_minutes of speech).
    read = first_minutes([i for i in items if i["kind"] == "negative" and i["condition"] == "clean"], size.read_stream_minutes, 500)
    for n, cond in enumerate(config.NEGATIVE_CONDITIONS):
        neg = read
        out.append(build(work, f"neg-{cond.name}", "negative", cond, neg, bed, 200 + n))
    turns = first_minutes([i for i in items if i["kind"] == "conversation"], size.talk_stream_minutes, 600)
    if turns:
        out.append(build(work, "neg-talk", "negative", config.CONVERSATION, turns, bed, 400, CONVERSATION_GAP_S))
    alikes = first_per([i for i in items if i["kind"] == "soundalike"], lambda i: i["text"], size.alike_voices)
    if alikes:
        out.append(build(work, "alike-clean", "soundalike", config.CONDITIONS[0], alikes, bed, 300))
    return out
