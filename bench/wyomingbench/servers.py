"""The two wake services bench/wyoming_bench.py compares, each on a free 127.0.0.1 port.

- ears: `ears listen --uri tcp://127.0.0.1:P` with phrase "hey jarvis" (the
  default acoustic path: PocketSphinx keyword spotting on the text, no
  trained model), zeroconf off, on a microphone that does not exist (the
  daemon retries it quietly, so the CPU measured is the remote streams').
- wyoming-openwakeword 1.8.2 (`make setup`'s .deps/wyoming-openwakeword)
  with its bundled hey_jarvis model, default threshold and trigger level.
"""
from __future__ import annotations

import os
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from proc_meter import RssSampler

REPO = Path(__file__).resolve().parent.parent.parent
OPENWAKEWORD_PYTHON = REPO / ".deps" / "wyoming-openwakeword" / "bin" / "python"
READY_TIMEOUT_SECONDS = 60.0


@dataclass
class Server:
    """A running wake service: its name in the report, URI, detect names and process."""

    name: str
    uri: str
    names: list[str]
    process: subprocess.Popen[bytes]
    rss: RssSampler

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s."""
        self.rss.stop()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_listener(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode} before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{what} never listened on 127.0.0.1:{port}")


def start_ears(ears: str, scratch: Path, name: str, max_streams: int, environment: dict[str, str],
               models_dir: Path | None = None) -> Server:
    """`ears listen --uri tcp://127.0.0.1:P` (extra `environment`, e.g. MALLOC_ARENA_MAX), with the
    trained models in `models_dir` when given (else the acoustic route: no models directory)."""
    port = free_port()
    directory = scratch / name
    directory.mkdir()
    config = directory / "ears.conf"
    config.write_text(f"[wake]\nphrase = hey jarvis\n[wyoming]\nzeroconf = off\nmax_streams = {max_streams}\n")
    uri = f"tcp://127.0.0.1:{port}"
    if models_dir is None:
        models_dir = directory / "no-models"  # empty: a model elsewhere on the machine is not picked up
        models_dir.mkdir()
    models = ["--models-dir", str(models_dir)]
    process = subprocess.Popen([ears, "listen", "--auto-train", "off", "--config", str(config), "--uri", uri, "--device", "nosuch",
                                "--runtime-dir", str(directory / "run"), *models],
                               env={**os.environ, "ALSA_CONFIG_PATH": "/dev/null", **environment},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait_for_listener(port, process, "ears listen")
    return Server(name, uri, ["hey jarvis"], process, RssSampler(process.pid))


def start_openwakeword(name: str) -> Server:
    """wyoming-openwakeword 1.8.2 with hey_jarvis preloaded."""
    if not OPENWAKEWORD_PYTHON.exists():
        raise RuntimeError(f"{OPENWAKEWORD_PYTHON} is missing: run make setup (it installs wyoming-openwakeword)")
    port = free_port()
    uri = f"tcp://127.0.0.1:{port}"
    process = subprocess.Popen([str(OPENWAKEWORD_PYTHON), "-m", "wyoming_openwakeword", "--uri", uri,
                                "--preload-model", "hey_jarvis"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait_for_listener(port, process, "wyoming-openwakeword")
    return Server(name, uri, ["hey_jarvis"], process, RssSampler(process.pid))
