"""The measured phases of bench/wyoming_bench.py, each on one running wake service.

A phase streams clips to the server (one at a time or from N workers at
once, paced at real time or as fast as the server takes them) and reads the
server's CPU time and peak RSS from /proc around it.
"""
from __future__ import annotations

import math
import queue
import threading
import time
from dataclasses import dataclass, field

from proc_meter import cpu_seconds, rss_megabytes
from .corpus import Clip
from .servers import Server
from .session import SessionResult, stream

SETTLE_SECONDS = 5.0  # after streams end, before "RSS after" is read


@dataclass
class PhaseResult:
    """Sessions of one phase (in clip order) with the server's cost over it."""

    sessions: list[tuple[Clip, SessionResult]] = field(default_factory=list)
    cpu_seconds: float = 0.0
    audio_seconds: float = 0.0
    peak_rss_megabytes: float = 0.0

    @property
    def cpu_per_audio_second(self) -> float:
        return self.cpu_seconds / self.audio_seconds if self.audio_seconds else math.nan


def run_phase(server: Server, clips: list[Clip], streams: int, paced: bool) -> PhaseResult:
    """Streams every clip, `streams` sessions at a time; raises if any session failed."""
    work: queue.Queue[tuple[int, Clip]] = queue.Queue()
    for index, clip in enumerate(clips):
        work.put((index, clip))
    results: dict[int, SessionResult] = {}
    failures: list[BaseException] = []

    def worker() -> None:
        while True:
            try:
                index, clip = work.get_nowait()
            except queue.Empty:
                return
            try:
                results[index] = stream(server.uri, clip.pcm(), server.names, paced, clip.phrase_end_seconds)
            except BaseException as failure:  # reported after the phase, with the clip
                failures.append(RuntimeError(f"{server.name}: session on {clip.path.name} failed: {failure!r}"))

    server.rss.reset_peak()
    cpu_before = cpu_seconds(server.pid)
    threads = [threading.Thread(target=worker) for _ in range(max(1, streams))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    phase = PhaseResult(cpu_seconds=cpu_seconds(server.pid) - cpu_before,
                        peak_rss_megabytes=server.rss.current_peak())
    if failures:
        raise failures[0]
    phase.sessions = [(clip, results[index]) for index, clip in enumerate(clips)]
    phase.audio_seconds = sum(result.audio_seconds for _, result in phase.sessions)
    return phase


def settled_rss(server: Server) -> float:
    """RSS after SETTLE_SECONDS of no streams."""
    time.sleep(SETTLE_SECONDS)
    return rss_megabytes(server.pid)


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (nan for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1]


@dataclass
class EngineRun:
    """Everything measured on one engine: calls one at a time at real time,
    the negatives from four streams at real time, RSS idle and after."""

    name: str
    idle_rss_megabytes: float
    calls: PhaseResult
    negatives: PhaseResult
    after_rss_megabytes: float

    def heard(self, condition: str) -> tuple[int, int]:
        """(calls with a detection, calls) in `condition`."""
        chosen = [result for clip, result in self.calls.sessions if clip.condition == condition]
        return sum(1 for result in chosen if result.detections), len(chosen)

    def latencies(self) -> list[float]:
        return [r.latency_seconds for _, r in self.calls.sessions if r.latency_seconds is not None]

    def false_detections(self) -> tuple[int, int]:
        """(negative clips with any detection, detection events in them)."""
        hits = [len(result.detections) for _, result in self.negatives.sessions if result.detections]
        return len(hits), sum(hits)


def measure_engine(server: Server, calls: list[Clip], negatives: list[Clip], streams: int) -> EngineRun:
    """The engine phases, in order, on a freshly started `server`."""
    idle = settled_rss(server)
    call_phase = run_phase(server, calls, 1, paced=True)
    negative_phase = run_phase(server, negatives, streams, paced=True)
    return EngineRun(server.name, idle, call_phase, negative_phase, settled_rss(server))


@dataclass
class ArenaRound:
    """One fresh ears with `[wyoming] max_streams` = `streams`, streamed the
    negatives from that many sessions at once, unpaced."""

    streams: int
    idle_rss_megabytes: float
    phase: PhaseResult
    after_rss_megabytes: float


@dataclass
class ArenaRun:
    """ears under one allocator setting: a round per stream count."""

    name: str
    rounds: list[ArenaRound] = field(default_factory=list)


def measure_arena_round(server: Server, negatives: list[Clip], streams: int) -> ArenaRound:
    """On a freshly started `server`: the negatives from `streams` streams at once, as fast as ears takes them."""
    idle = settled_rss(server)
    phase = run_phase(server, negatives, streams, paced=False)
    return ArenaRound(streams, idle, phase, settled_rss(server))
