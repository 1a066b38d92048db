"""A server process's CPU time and resident memory, read from /proc.

CPU is utime + stime of the process (all its threads); RSS is VmRSS. A
background sampler keeps the peak RSS since the last `reset_peak()`, every
SAMPLE_SECONDS (a peak between samples can be missed by that much time).
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field

SAMPLE_SECONDS = 0.1
_TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds the process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS_PER_SECOND


def rss_megabytes(pid: int) -> float:
    """VmRSS in MiB (0 once the process has gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


@dataclass
class RssSampler:
    """Samples `pid`'s RSS in a daemon thread; `peak` is the largest since `reset_peak()`."""

    pid: int
    peak: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stop: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_SECONDS):
            value = rss_megabytes(self.pid)
            with self._lock:
                self.peak = max(self.peak, value)

    def reset_peak(self) -> None:
        """Starts a new peak from the current RSS."""
        with self._lock:
            self.peak = rss_megabytes(self.pid)

    def current_peak(self) -> float:
        with self._lock:
            return max(self.peak, rss_megabytes(self.pid))

    def stop(self) -> None:
        self._stop.set()
