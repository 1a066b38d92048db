"""A capture device without a sound card: alsa-lib's `file` plugin reading a FIFO
that a thread feeds at a multiple of real time (like Tests/.../AlsaFixture.swift)."""
from __future__ import annotations

import subprocess

import signal

import os
import threading
import time
from pathlib import Path
from typing import Callable

CHUNK_BYTES = 3_200  # 100 ms of S16_LE 16 kHz mono


def write_alsa_config(directory: Path) -> tuple[Path, Path]:
    """Writes an ALSA config whose PCM `cap` reads `<directory>/mic.fifo`; returns (config, fifo)."""
    fifo = directory / "mic.fifo"
    os.mkfifo(fifo, 0o600)
    config = directory / "asound.conf"
    config.write_text(f"""pcm.cap {{
    type file
    slave.pcm {{ type null }}
    file "/dev/null"
    infile "{fifo}"
    format "raw"
}}
pcm.!default {{ type plug; slave.pcm "cap" }}
""")
    return config, fifo


class Feeder:
    """Writes audio from `next_block` into the FIFO at `speed`× real time until stopped.

    `next_block()` returns the next bytes to play (or None when the stream is
    over); the feeder counts bytes written so audio time is known.
    """

    def __init__(self, fifo: Path, speed: float, next_block: Callable[[], bytes | None]) -> None:
        self.fifo = fifo
        self.speed = speed
        self.next_block = next_block
        self.bytes_written = 0
        self.finished = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        with open(self.fifo, "wb", buffering=0) as out:  # blocks until ears opens the device
            pending = b""
            start = time.monotonic()
            chunks = 0
            while not self._stop.is_set():
                if len(pending) < CHUNK_BYTES:
                    block = self.next_block()
                    if block is None:
                        break
                    pending += block
                out.write(pending[:CHUNK_BYTES])
                pending = pending[CHUNK_BYTES:]
                self.bytes_written += CHUNK_BYTES
                chunks += 1
                due = start + chunks * 0.1 / self.speed
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            # A little silence so the last call's decoding is flushed, then stop.
            for _ in range(30):
                if self._stop.is_set():
                    break
                out.write(bytes(CHUNK_BYTES))
                time.sleep(0.1 / self.speed)
        self.finished.set()


def stop(feeder: "Feeder", daemon: "subprocess.Popen[str]") -> None:
    """Stops feeding, then the daemon: SIGTERM, killed if it has not exited in 10 s."""
    feeder.stop()
    daemon.send_signal(signal.SIGTERM)
    try:
        daemon.wait(timeout=10)
    except subprocess.TimeoutExpired:
        daemon.kill()
