"""What the soak watches in the daemon: memory, descriptors, threads (from /proc)
and its content-free status (`GET /ears` on status.sock)."""
from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass


@dataclass(frozen=True)
class Sample:
    """One look at the daemon, `wall_seconds` after the feed started."""

    wall_seconds: float
    audio_seconds: float
    rss_kib: int
    #: Anonymous resident memory (heap, stacks): what a leak grows.
    anon_kib: int
    #: File-backed resident memory: model files mapped and paged in as they are touched, bounded by their size.
    file_kib: int
    fds: int
    threads: int
    wakes: int
    dropped: int


def proc_status(pid: int) -> dict[str, str]:
    """/proc/<pid>/status as a dictionary of its fields."""
    fields: dict[str, str] = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return fields


def status_json(socket_path: str) -> dict[str, object]:
    """`GET /ears` over the Unix socket, parsed."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(5)
        client.connect(socket_path)
        client.sendall(b"GET /ears HTTP/1.1\r\nHost: ears\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := client.recv(65536):
            data += chunk
    _, _, body = data.partition(b"\r\n\r\n")
    return json.loads(body)


def sample(pid: int, socket_path: str, wall_seconds: float, audio_seconds: float) -> Sample:
    """Reads the daemon's RSS (kB), open descriptors, threads, wakes and dropped chunks."""
    # Descriptors first: the status request's own connection must not be counted.
    fields = proc_status(pid)
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    ears = status_json(socket_path)
    ear = ears.get("ear", {})
    dropped = int(ear.get("dropped", 0)) if isinstance(ear, dict) else 0
    return Sample(
        wall_seconds=wall_seconds,
        audio_seconds=audio_seconds,
        rss_kib=int(fields["VmRSS"].split()[0]),
        anon_kib=int(fields["RssAnon"].split()[0]),
        file_kib=int(fields["RssFile"].split()[0]),
        fds=fds,
        threads=int(fields["Threads"]),
        wakes=int(ears.get("wakes", 0)),
        dropped=dropped,
    )
