"""What every peer runner shares: the stream, the detection record, the
refractory period, the command line and the JSON it prints."""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import wave
from dataclasses import dataclass, field
from typing import Callable, Iterator, Protocol, Sequence

SAMPLE_RATE = 16000
REFRACTORY_S = 2.0  # after a detection, the same keyword is not reported again for this long (as ears does)


@dataclass(frozen=True)
class Detection:
    keyword: str  # the engine's own keyword name (e.g. "hey_jarvis")
    t: float  # seconds into the stream at the end of the frame that fired
    score: float


@dataclass
class Refractory:
    """One detection per call: a keyword that fired is quiet for REFRACTORY_S seconds."""
    seconds: float = REFRACTORY_S
    last: dict[str, float] = field(default_factory=dict)

    def allow(self, keyword: str, t: float) -> bool:
        before = self.last.get(keyword)
        if before is not None and t - before < self.seconds:
            return False
        self.last[keyword] = t
        return True


def frames(path: str, size: int) -> Iterator[bytes]:
    """The WAV's samples in frames of `size` samples (bytes, S16 little-endian), in
    order, as a microphone would deliver them; a short last frame is zero-padded."""
    with wave.open(path, "rb") as w:
        if (w.getnchannels(), w.getsampwidth(), w.getframerate()) != (1, 2, SAMPLE_RATE):
            raise SystemExit(f"{path}: need 16 kHz mono S16, got {w.getframerate()} Hz, "
                             f"{w.getnchannels()} channel(s), {8 * w.getsampwidth()} bit")
        while True:
            data = w.readframes(size)
            if not data:
                return
            if len(data) < 2 * size:
                data += b"\0" * (2 * size - len(data))
            yield data


def audio_seconds(path: str) -> float:
    with wave.open(path, "rb") as w:
        return w.getnframes() / w.getframerate()


class Scorer(Protocol):
    """An engine fed one frame at a time; returns each keyword's score for that frame
    (only the keywords with a score worth looking at; none is fine)."""
    frame_samples: int

    def feed(self, frame: bytes) -> dict[str, float]: ...


def detect(path: str, scorer: Scorer, thresholds: dict[str, dict[str, float]]) -> dict[str, list[Detection]]:
    """Runs the scorer over the whole stream once. thresholds: label -> {keyword: threshold};
    a keyword fires under a label when its score reaches that threshold (then
    REFRACTORY_S of quiet for that keyword under that label). The scores do not
    depend on the threshold, so one pass serves every label."""
    out: dict[str, list[Detection]] = {label: [] for label in thresholds}
    refractory = {label: Refractory() for label in thresholds}
    consumed = 0
    for frame in frames(path, scorer.frame_samples):
        consumed += scorer.frame_samples
        now = consumed / SAMPLE_RATE
        for keyword, score in scorer.feed(frame).items():
            for label, by_keyword in thresholds.items():
                if score >= by_keyword[keyword] and refractory[label].allow(keyword, now):
                    out[label].append(Detection(keyword, round(now, 3), round(float(score), 4)))
    return out


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


Factory = Callable[[list[str], list[str]], tuple[Scorer, dict[str, dict[str, float]]]]


def main(engine: str, keywords: Sequence[str], make: Factory, argv: Sequence[str] | None = None) -> None:
    """The command line every runner has:
        RUNNER WAV --keywords a,b --thresholds 0.3,0.5,default
    `make(keywords, thresholds)` builds the engine and returns it with, per
    threshold label, the score each keyword must reach ("default": the engine's
    own per-keyword setting). Porcupine takes its sensitivity inside the engine,
    so it takes one threshold per process and its scorer reports 1.0 when it fires.
    Prints one JSON object: engine, keywords, audio_s, cpu_s (this process, model
    loading included), wall_s, detections = {label: [[keyword, t, score], ...]}."""
    ap = argparse.ArgumentParser(description=f"{engine} over one continuous 16 kHz mono S16 WAV")
    ap.add_argument("wav")
    ap.add_argument("--keywords", default=",".join(keywords), help=f"comma-separated, of: {', '.join(keywords)}")
    ap.add_argument("--thresholds", default="default",
                    help='comma-separated detection thresholds (sensitivities for Porcupine); "default": the engine\'s own')
    a = ap.parse_args(argv)
    wanted = [k for k in a.keywords.split(",") if k]
    unknown = [k for k in wanted if k not in keywords]
    if unknown:
        raise SystemExit(f"{engine}: unknown keyword(s) {unknown}; known: {list(keywords)}")
    labels = [t for t in a.thresholds.split(",") if t]
    started = time.monotonic()
    scorer, thresholds = make(wanted, labels)
    found = detect(a.wav, scorer, thresholds)
    json.dump(dict(engine=engine, keywords=wanted, audio_s=audio_seconds(a.wav), cpu_s=round(cpu_seconds(), 3),
                   wall_s=round(time.monotonic() - started, 3),
                   detections={label: [[d.keyword, d.t, d.score] for d in ds] for label, ds in found.items()}),
              sys.stdout)
    sys.stdout.write("\n")


def uniform(labels: Sequence[str], keywords: Sequence[str], defaults: dict[str, float]) -> dict[str, dict[str, float]]:
    """Per label, each keyword's threshold: the label's number, or the engine's default."""
    return {label: {k: defaults[k] if label == "default" else float(label) for k in keywords} for label in labels}
