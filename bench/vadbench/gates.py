"""The speech gates bench/vad.py compares (issue 11), each run over a whole stream in
100 ms chunks as ears's Ear feeds its engine: a sample-exact port of EnergySpeechGate,
silero_vad.onnx behind the same chunk gate, and the mask of samples each one fed.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import onnxruntime as ort

SAMPLE_RATE = 16_000
CHUNK_SAMPLES = 1_600  # AudioFormat.chunkSamples: the Ear's 100 ms chunk
RING_SAMPLES = 56_000  # Ear.ringSeconds (3.5 s): the most pre-roll the ring can give
PRE_ROLL_SAMPLES = 4_800  # EnergySpeechGate.defaultPreRollSeconds, 0.3 s
HANGOVER_SAMPLES = 16_000  # EnergySpeechGate.defaultHangoverSeconds, 1.0 s


# ---------------------------------------------------------------- the fed samples


@dataclass
class GateRun:
    """What one gate fed of one stream: a per-sample mask plus the counts `ears scan` reports."""
    fed: np.ndarray  # bool per sample of the stream
    chunks: int = 0
    buffers: int = 0  # chunks plus pre-roll buffers, as the Ear's meter counts `fed`

    def admit_chunk(self, start: int, end: int) -> None:
        self.fed[start:end] = True
        self.buffers += 1

    def admit_pre_roll(self, start: int, end: int) -> None:
        """Feeds [start, end) as the gate does: the remainder first, then whole chunks."""
        length = end - start
        if length <= 0:
            return
        self.fed[start:end] = True
        self.buffers += (length + CHUNK_SAMPLES - 1) // CHUNK_SAMPLES


class ChunkGate:
    """The Ear's gate around any per-chunk speech decision: opens on a speech chunk
    with `PRE_ROLL_SAMPLES` before it (never what was fed already), stays open
    while chunks are speech and for `HANGOVER_SAMPLES` after the last."""

    def __init__(self, run: GateRun) -> None:
        self.run = run
        self.is_open = False
        self.quiet_samples = 0
        self.fed_through = 0

    def take(self, start: int, end: int, speech: bool, speech_start: int | None = None) -> None:
        """One chunk [start, end); `speech_start` (≤ start) is where the speech behind an onset began."""
        self.run.chunks += 1
        if not self.is_open:
            if not speech:
                return
            self.is_open = True
            self.quiet_samples = 0
            onset = min(start, speech_start if speech_start is not None else start)
            held = max(0, min(end, RING_SAMPLES) - (end - start))
            self.run.admit_pre_roll(max(onset - PRE_ROLL_SAMPLES, start - held, self.fed_through), start)
        elif speech:
            self.quiet_samples = 0
        else:
            self.quiet_samples += end - start
            if self.quiet_samples > HANGOVER_SAMPLES:
                self.is_open = False
                return
        self.run.admit_chunk(start, end)
        self.fed_through = end


# ---------------------------------------------------------------- EnergySpeechGate, ported


class EnergyGatePort:
    """Sources/EarsCore/Ear/EnergySpeechGate.swift with its default constants, sample for
    sample: the same integer high-pass, 10 ms frames, 30 ms levels, 1 s noise floor,
    onset and sustain tests. The frame grid and the filter do not depend on chunking
    (chunks are 10 whole frames), so they are computed for the whole stream first."""
    FRAME_SAMPLES = 160
    FRAMES_PER_CHUNK = CHUNK_SAMPLES // FRAME_SAMPLES
    FULL_SCALE_POWER = 32_768.0 * 32_768.0
    MINIMUM_POWER = FULL_SCALE_POWER * 10 ** (-55.0 / 10)
    ONSET_RATIO = 10 ** (10.0 / 10)
    SUSTAIN_RATIO = 10 ** (6.0 / 10)
    MAXIMUM_CROSSINGS = int(0.3 * FRAME_SAMPLES)
    ONSET_VOICED_FRAMES = 10  # 0.1 s of voiced frames ...
    ONSET_WINDOW_MASK = (1 << 20) - 1  # ... within the last 0.2 s
    FLOOR_BLOCKS = 10  # 1 s of 100 ms block minima

    def __init__(self) -> None:
        self.recent = (0.0, 0.0)
        self.frames_judged = 0
        self.block_minima = [float("inf")] * self.FLOOR_BLOCKS
        self.block_cursor = 0
        self.window_minimum = float("inf")
        self.block_minimum = float("inf")
        self.block_frames = 0
        self.voiced_history = 0

    @staticmethod
    def frame_measures(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each whole frame's power (about its mean) and zero crossings, after the high-pass."""
        values = samples.astype(np.int64).tolist()
        filtered = [0] * len(values)
        previous = output = 0
        for index, value in enumerate(values):
            # One-pole high-pass, pole 15/16, in the gate's integer arithmetic.
            output = value - previous + output - (output >> 4)
            previous = value
            filtered[index] = output
        out = np.asarray(filtered, dtype=np.int64)
        positive = out > 0
        crossings = positive != np.concatenate(([False], positive[:-1]))
        frames = len(out) // EnergyGatePort.FRAME_SAMPLES
        shape = (frames, EnergyGatePort.FRAME_SAMPLES)
        used = frames * EnergyGatePort.FRAME_SAMPLES
        sums = out[:used].reshape(shape).sum(axis=1).astype(np.float64)
        squares = (out[:used] * out[:used]).reshape(shape).sum(axis=1).astype(np.float64)
        mean = sums / EnergyGatePort.FRAME_SAMPLES
        power = np.maximum(0.0, squares / EnergyGatePort.FRAME_SAMPLES - mean * mean)
        return power, crossings[:used].reshape(shape).sum(axis=1)

    def floor_power(self) -> float:
        return min(self.window_minimum, self.block_minimum)

    def judge(self, frame: int, power: float, crossings: int) -> int | None:
        """One frame; returns the onset's first sample if speech starts at it."""
        self.frames_judged += 1
        level = (power + self.recent[0] + self.recent[1]) / min(3, self.frames_judged)
        self.recent = (power, self.recent[0])
        floor = self.floor_power()
        voiced = level >= self.MINIMUM_POWER and level >= floor * self.ONSET_RATIO and crossings <= self.MAXIMUM_CROSSINGS
        self.voiced_history = ((self.voiced_history << 1) | int(voiced)) & ((1 << 64) - 1)
        window = self.voiced_history & self.ONSET_WINDOW_MASK
        onset = None
        if bin(window).count("1") >= self.ONSET_VOICED_FRAMES:
            frames_ago = window.bit_length() - 1 + 2  # the first voiced level began two frames before it
            onset = (frame - frames_ago) * self.FRAME_SAMPLES
        self.block_minimum = min(self.block_minimum, level)
        self.block_frames += 1
        if self.block_frames == self.FRAMES_PER_CHUNK:
            self.block_minima[self.block_cursor] = self.block_minimum
            self.block_cursor = (self.block_cursor + 1) % self.FLOOR_BLOCKS
            self.window_minimum = min(self.block_minima)
            self.block_minimum = float("inf")
            self.block_frames = 0
        return onset

    def gate(self, samples: np.ndarray) -> GateRun:
        run = GateRun(np.zeros(len(samples), dtype=bool))
        chunks = ChunkGate(run)
        powers, crossings = self.frame_measures(samples)
        for start in range(0, len(samples), CHUNK_SAMPLES):
            end = min(len(samples), start + CHUNK_SAMPLES)
            first = start // self.FRAME_SAMPLES
            frames = range(first, min(len(powers), end // self.FRAME_SAMPLES))
            onset = None
            for frame in frames:
                frame_onset = self.judge(frame, float(powers[frame]), int(crossings[frame]))
                if onset is None:
                    onset = frame_onset
            if not chunks.is_open:
                chunks.take(start, end, onset is not None, onset)
                continue
            chunk_power = float(sum(float(powers[f]) for f in frames)) / max(1, len(frames))
            sounding = (len(frames) > 0 and chunk_power >= self.MINIMUM_POWER
                        and chunk_power >= self.floor_power() * self.SUSTAIN_RATIO)
            chunks.take(start, end, sounding)
        return run


# ---------------------------------------------------------------- silero


class Silero:
    """silero_vad.onnx as openwakeword/vad.py runs it (input, sr, LSTM state h and c),
    on one thread; keeps the CPU seconds its inferences took."""

    def __init__(self, path: str) -> None:
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(path, sess_options=options, providers=["CPUExecutionProvider"])
        self.cpu_seconds: dict[str, float] = {}

    def probabilities(self, samples: np.ndarray, name: str, frame_samples: int) -> np.ndarray:
        """Speech probability of each consecutive frame (the last one zero-padded), state carried over."""
        padded = np.zeros(-(-len(samples) // frame_samples) * frame_samples, dtype=np.float32)
        padded[:len(samples)] = samples.astype(np.float32) / 32767
        state_h = np.zeros((2, 1, 64), dtype=np.float32)
        state_c = np.zeros((2, 1, 64), dtype=np.float32)
        rate = np.array(SAMPLE_RATE, dtype=np.int64)
        out = np.empty(len(padded) // frame_samples, dtype=np.float32)
        started = time.process_time()
        for index in range(len(out)):
            frame = padded[index * frame_samples:(index + 1) * frame_samples][None, :]
            result, state_h, state_c = self.session.run(None, {"input": frame, "sr": rate, "h": state_h, "c": state_c})
            out[index] = result[0][0]
        self.cpu_seconds[name] = self.cpu_seconds.get(name, 0.0) + time.process_time() - started
        return out


def silero_gate(samples: np.ndarray, probabilities: np.ndarray, frame_samples: int, threshold: float) -> GateRun:
    """A chunk is speech if the highest probability of the frames ending in it reaches threshold."""
    run = GateRun(np.zeros(len(samples), dtype=bool))
    chunks = ChunkGate(run)
    frame_ends = (np.arange(len(probabilities)) + 1) * frame_samples
    for start in range(0, len(samples), CHUNK_SAMPLES):
        end = min(len(samples), start + CHUNK_SAMPLES)
        lo, hi = np.searchsorted(frame_ends, [start + 1, end + 1])
        if end == len(samples):
            hi = len(probabilities)  # the zero-padded last frame ends past the stream
        chunks.take(start, end, bool(hi > lo and probabilities[lo:hi].max() >= threshold))
    return run
