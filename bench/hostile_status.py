#!/usr/bin/env python3
"""GET /ears latency on ears' status socket while slow clients hold connections.

Starts `ears listen` on a device that does not exist (the daemon serves status
while it retries), or uses a running daemon's socket with --socket. Holds
--slow clients on the socket, each sending one header byte a second and never
finishing its request (a client the server cuts off at its deadline
reconnects, so the crowd stays the same size). Then sends --requests
`GET /ears` one after another (--interval apart, so the run spans the
server's deadline and the crowd's turnover), each on a new connection, and times each from
connect to the server's close. Prints p50, p99 and the worst, in
milliseconds, and how many slow clients the server cut off.

With --doc FILE, writes the figures into FILE between its `hostile` markers,
with the command (make bench-hostile writes docs/operations.md).

usage: bench/hostile_status.py EARS [--slow 200] [--requests 200] [--interval 0.05] [--socket PATH] [--doc FILE]
"""
from __future__ import annotations

import argparse
import datetime
import math
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docblock import replace_block  # noqa: E402

# The head every slow client starts with; then one byte a second, never the line end.
SLOW_START = b"GET /ears HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
REQUEST = b"GET /ears HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
TRICKLE_SECONDS = 1.0


@dataclass
class Crowd:
    """Slow clients kept connected by a background thread."""

    path: str
    size: int
    clients: list[socket.socket] = field(default_factory=list)
    cut_off: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def connect(self) -> socket.socket:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(self.path)
        client.sendall(SLOW_START)
        client.setblocking(False)
        return client

    def run(self) -> None:
        """Every second: one byte to each client; replace those the server closed."""
        self.clients = [self.connect() for _ in range(self.size)]
        while not self.stop.wait(TRICKLE_SECONDS):
            for index, client in enumerate(self.clients):
                if self.closed_by_server(client):
                    client.close()
                    self.cut_off += 1
                    self.clients[index] = self.connect()
                else:
                    try:
                        client.send(b"a")
                    except OSError:
                        pass
        for client in self.clients:
            client.close()

    @staticmethod
    def closed_by_server(client: socket.socket) -> bool:
        try:
            return client.recv(4096) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True


def timed_request(path: str) -> float:
    """Seconds from connect to the server's close for one GET /ears; fails unless 200."""
    started = time.perf_counter()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(10)
        client.connect(path)
        client.sendall(REQUEST)
        response = bytearray()
        while chunk := client.recv(65536):
            response += chunk
    elapsed = time.perf_counter() - started
    if not response.startswith(b"HTTP/1.1 200 "):
        raise RuntimeError(f"GET /ears answered {bytes(response[:40])!r}")
    return elapsed


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def start_daemon(ears: str, runtime: str) -> subprocess.Popen[bytes]:
    daemon = subprocess.Popen([ears, "listen", "--auto-train", "off", "--device", "nosuch", "--runtime-dir", runtime],
                              env={**os.environ, "ALSA_CONFIG_PATH": "/dev/null"},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    socket_path = os.path.join(runtime, "status.sock")
    for _ in range(200):
        if os.path.exists(socket_path):
            return daemon
        time.sleep(0.05)
    daemon.kill()
    raise RuntimeError(f"{ears} never created {socket_path}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ears", help="the ears binary (ignored with --socket)")
    parser.add_argument("--slow", type=int, default=200, help="slow clients to hold")
    parser.add_argument("--requests", type=int, default=200, help="GET /ears requests to time")
    parser.add_argument("--interval", type=float, default=0.05,
                        help="seconds between requests (the default spreads 200 over two deadlines)")
    parser.add_argument("--socket", help="a running daemon's status.sock instead of starting one")
    parser.add_argument("--doc", type=Path, help="write the figures into this markdown file (its hostile markers)")
    arguments = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 2 * arguments.slow + 64))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))

    with tempfile.TemporaryDirectory(prefix="ears-hostile-") as runtime:
        daemon = None if arguments.socket else start_daemon(arguments.ears, runtime)
        path = arguments.socket or os.path.join(runtime, "status.sock")
        try:
            crowd = Crowd(path, arguments.slow)
            thread = threading.Thread(target=crowd.run, daemon=True)
            thread.start()
            time.sleep(2 * TRICKLE_SECONDS)  # the crowd is connected and trickling
            latencies: list[float] = []
            try:
                for _ in range(arguments.requests):
                    latencies.append(timed_request(path))
                    time.sleep(arguments.interval)
            except (OSError, RuntimeError) as failure:
                print(f"GET /ears failed after {len(latencies)} answers: {failure!r}", file=sys.stderr)
                return 1
            finally:
                crowd.stop.set()
                thread.join()
            latencies.sort()
        finally:
            if daemon:
                daemon.terminate()
                daemon.wait(timeout=10)

    milliseconds = [value * 1000 for value in latencies]
    print(f"{arguments.slow} slow clients held, {crowd.cut_off} cut off at the deadline and replaced; "
          f"{len(milliseconds)} GET /ears, all 200")
    p50, p99 = percentile(milliseconds, 0.50), percentile(milliseconds, 0.99)
    print(f"latency ms: p50 {p50:.2f}  p99 {p99:.2f}  max {milliseconds[-1]:.2f}")
    if arguments.doc:
        defaults = (arguments.slow, arguments.requests, arguments.interval, arguments.socket) == (200, 200, 0.05, None)
        command = "make bench-hostile" if defaults else "bench/hostile_status.py " + " ".join(sys.argv[1:])
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        target = 50.0
        replace_block(arguments.doc, "hostile", "bench/hostile_status.py", [
            f"Measured {when} at {commit or '?'} by `{command}` (release build, 2 shared cores): "
            f"{len(milliseconds)} `GET /ears` while {arguments.slow} clients each sent one header byte a second "
            f"({crowd.cut_off} cut off at the deadline and replaced): all answered 200; latency p50 {p50:.2f} ms, "
            f"p99 {p99:.2f} ms, worst {milliseconds[-1]:.2f} ms — target p99 < {target:g} ms: "
            f"{'met' if p99 < target else f'missed by {p99 - target:.1f} ms'}.",
        ])
    return 0


if __name__ == "__main__":
    sys.exit(main())
