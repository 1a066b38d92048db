"""The soak's verdict and the section it writes into docs/operations.md."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from .sampler import Sample

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from docblock import replace_block  # noqa: E402

RSS_SLOPE_LIMIT_KIB_PER_MINUTE = 1.0


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys on xs (0 with fewer than two points)."""
    if len(xs) < 2:
        return 0.0
    mean_x = sum(xs) / len(xs)
    mean_y = sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return 0.0
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread


@dataclass(frozen=True)
class Verdict:
    """The soak's figures and whether each passed."""

    audio_minutes: float
    wall_minutes: float
    speed: float
    calls: int
    heard: int
    extra_wakes: int
    rss_start_kib: int
    rss_end_kib: int
    #: Least-squares slope of anonymous RSS (heap and stacks), the leak criterion.
    rss_slope_kib_per_minute: float
    anon_start_kib: int
    anon_end_kib: int
    file_start_kib: int
    file_end_kib: int
    #: Slope of the whole RSS (anonymous + file-backed), for the record.
    total_slope_kib_per_minute: float
    fds_min: int
    fds_max: int
    threads_min: int
    threads_max: int
    dropped: int
    warmup_minutes: float
    #: The calls no wake answered: "audio minute (voice: command)".
    missed: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return (self.rss_slope_kib_per_minute < RSS_SLOPE_LIMIT_KIB_PER_MINUTE
                and self.fds_min == self.fds_max and self.heard == self.calls)

    def lines(self) -> list[str]:
        def mark(ok: bool) -> str:
            return "pass" if ok else "FAIL"
        return [
            f"| audio | {self.audio_minutes:.1f} min fed at {self.speed:g}× real time, heard in {self.wall_minutes:.1f} min wall |  |",
            f"| calls heard | {self.heard} of {self.calls} | {mark(self.heard == self.calls)} (every call) |",
            f"| other wakes | {self.extra_wakes} | (not judged: other speech is read sentences) |",
            f"| anonymous RSS (heap, stacks) | {self.anon_start_kib / 1024:.1f} → {self.anon_end_kib / 1024:.1f} MiB after {self.warmup_minutes:g} min warm-up; slope {self.rss_slope_kib_per_minute:+.2f} kB per wall minute | {mark(self.rss_slope_kib_per_minute < RSS_SLOPE_LIMIT_KIB_PER_MINUTE)} (< {RSS_SLOPE_LIMIT_KIB_PER_MINUTE:g} kB/min) |",
            f"| whole RSS | {self.rss_start_kib / 1024:.1f} → {self.rss_end_kib / 1024:.1f} MiB; slope {self.total_slope_kib_per_minute:+.2f} kB per wall minute (file-backed {self.file_start_kib / 1024:.1f} → {self.file_end_kib / 1024:.1f} MiB: model files paged in as they are touched) |  |",
            f"| open descriptors | {self.fds_min}–{self.fds_max} | {mark(self.fds_min == self.fds_max)} (flat) |",
            f"| threads | {self.threads_min}–{self.threads_max} |  |",
            f"| chunks the ear dropped | {self.dropped} |  |",
            *([f"| calls missed | {'; '.join(self.missed)} |  |"] if self.missed else []),
        ]


def match_calls(calls: list[float], wakes: list[float], tolerance_seconds: float = 2.5) -> list[float | None]:
    """Each call's wake latency (wake minus the call's end, audio seconds), or None
    for a call no wake answered: the first unused wake from 0.5 s before its end to
    `tolerance_seconds` after it (wakes sorted)."""
    used: set[int] = set()
    latencies: list[float | None] = []
    for call in calls:
        for index, wake in enumerate(wakes):
            if index not in used and call - 0.5 <= wake <= call + tolerance_seconds:
                used.add(index)
                latencies.append(wake - call)
                break
        else:
            latencies.append(None)
    return latencies


def judge(samples: list[Sample], calls: list[float], wakes: list[float], speed: float,
          warmup_minutes: float, tolerance_seconds: float = 2.5, labels: list[str] | None = None) -> Verdict:
    """Matches wakes (audio seconds) to calls (audio seconds where each phrase ends) and fits RSS."""
    matched = match_calls(calls, wakes, tolerance_seconds)
    heard = sum(latency is not None for latency in matched)
    missed = [f"{call / 60:.1f} min ({labels[number] if labels else '?'})"
              for number, (call, latency) in enumerate(zip(calls, matched)) if latency is None]
    settled = [s for s in samples if s.wall_seconds / 60 >= warmup_minutes]
    minutes = [s.wall_seconds / 60 for s in settled]
    fitted = slope(minutes, [float(s.anon_kib) for s in settled])
    total = slope(minutes, [float(s.rss_kib) for s in settled])
    # Descriptors and threads are judged after warm-up too: the first chunks open the engine's files.
    return Verdict(
        audio_minutes=samples[-1].audio_seconds / 60, wall_minutes=samples[-1].wall_seconds / 60, speed=speed,
        calls=len(calls), heard=heard, extra_wakes=len(wakes) - heard,
        rss_start_kib=settled[0].rss_kib, rss_end_kib=settled[-1].rss_kib, rss_slope_kib_per_minute=fitted,
        anon_start_kib=settled[0].anon_kib, anon_end_kib=settled[-1].anon_kib,
        file_start_kib=settled[0].file_kib, file_end_kib=settled[-1].file_kib, total_slope_kib_per_minute=total,
        fds_min=min(s.fds for s in settled), fds_max=max(s.fds for s in settled),
        threads_min=min(s.threads for s in settled), threads_max=max(s.threads for s in settled),
        dropped=samples[-1].dropped, warmup_minutes=warmup_minutes, missed=tuple(missed),
    )


def write_doc(path: Path, verdict: Verdict, command: str, when: str, commit: str) -> None:
    """Replaces the soak section of `path` (between its markers) with this run's figures."""
    replace_block(path, "soak", "bench/soak.py", [
        f"Measured {when} at {commit} by `{command}` (2 shared cores): "
        f"**{'pass' if verdict.passed else 'FAIL'}**.",
        "",
        "| what | figure | verdict |",
        "|---|---|---|",
        *verdict.lines(),
    ])
