#!/usr/bin/env python3
"""make bench-beside-training: does background training hurt the listening path?

Two runs of the same speech, one after the other, on a file-backed ALSA
microphone fed at real time (the soak's feeder and speech: a call "hey
cordelia, …" every ~20 s between other speech):

1. alone: `ears listen` with "hey cordelia" (`--auto-train off`);
2. beside training: the same, plus a second phrase with no model and
   `auto_train = on`, so `ears train --idle` runs beside the stream for the
   whole run (its models directory is a private temp directory).

For each: calls heard, wake latency after the phrase ends (p50 / p95, from
the wake's audio time in the log), chunks the ear dropped (`/ears`
ear.dropped) and the daemon's own CPU. Writes the table into
docs/operations.md (between the beside-training markers) with the command.
Nothing heard is written outside a private temp directory, removed at the end.

    bench/beside_training.py .build/release/ears [--audio-minutes 6] [--doc docs/operations.md]
"""
from __future__ import annotations

import argparse
import datetime
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docblock import replace_block  # noqa: E402
from soak.feeder import Feeder, stop, write_alsa_config  # noqa: E402
from soak.report import match_calls  # noqa: E402
from soak.sampler import status_json  # noqa: E402
from soak.speech import SegmentFeed, SpeechBank  # noqa: E402

SEGMENT_SECONDS = 20.0
WAKE_LINE = re.compile(r'notice: wake phrase="([^"]*)".* t=([0-9.]+)s')
#: A wake this long after a call's end (audio seconds) still answers it.
TOLERANCE_SECONDS = 2.5
#: The phrase trained beside the stream (never said in it).
BESIDE_PHRASE = "okay juniper"


@dataclass(frozen=True)
class Run:
    """One run's figures."""

    label: str
    calls: int
    heard: int
    latencies: list[float]
    dropped: int
    cpu_seconds: float
    audio_seconds: float
    training_percent: int | None
    training_state: str = "—"

    def percentile(self, share: float) -> float | None:
        if not self.latencies:
            return None
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """utime + stime of `pid` (its own, not its children's), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(ears: str, scratch: Path, bank: SpeechBank, segments: int, seed: int, beside: bool) -> Run:
    feed = SegmentFeed(bank, random.Random(seed), segments, SEGMENT_SECONDS)
    calls, next_block = feed.calls, feed.next_block

    place = scratch / ("beside" if beside else "alone")
    place.mkdir()
    config, fifo = write_alsa_config(place)
    conf = place / "ears.conf"
    models = place / "models"
    phrases = ["hey cordelia"] + ([BESIDE_PHRASE] if beside else [])
    conf.write_text("[wake]\n" + "".join(f"phrase = {p}\n" for p in phrases)
                    + f"models_directory = {models}\nauto_train = {'on' if beside else 'off'}\n")
    run_dir = place / "run"
    env = dict(os.environ, ALSA_CONFIG_PATH=str(config))
    daemon = subprocess.Popen([ears, "listen", "--config", str(conf), "--device", "cap", "--runtime-dir", str(run_dir)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wakes: list[float] = []

    def read_log() -> None:
        assert daemon.stdout is not None
        for line in daemon.stdout:
            if (match := WAKE_LINE.search(line)) and match.group(1) == "hey cordelia":
                wakes.append(float(match.group(2)))

    threading.Thread(target=read_log, daemon=True).start()
    feeder = Feeder(fifo, 1.0, next_block)
    feeder.start()
    socket_path = str(run_dir / "status.sock")
    training_percent: int | None = None
    training_state = "—"
    try:
        while not feeder.finished.is_set():
            time.sleep(5)
            if daemon.poll() is not None:
                raise SystemExit(f"beside-training: the daemon exited ({label(beside)})")
        time.sleep(3)
        status = status_json(socket_path)
        ear = status.get("ear")
        dropped = int(ear.get("dropped", 0)) if isinstance(ear, dict) else 0
        training = status.get("training")
        if beside and isinstance(training, dict):
            entry = training.get("phrases", {}).get(BESIDE_PHRASE, {})
            state = entry.get("state")
            training_percent = entry.get("percent") if state == "training" else None
            training_state = str(state)
        cpu = cpu_seconds(daemon.pid)
    finally:
        stop(feeder, daemon)
    latencies = [latency for latency in match_calls(calls, sorted(wakes), TOLERANCE_SECONDS) if latency is not None]
    heard = len(latencies)
    return Run(label(beside), len(calls), heard, latencies, dropped, cpu, feed.fed_seconds, training_percent, training_state)


def label(beside: bool) -> str:
    return f"beside a background training of \"{BESIDE_PHRASE}\"" if beside else "alone"


def lines(runs: list[Run]) -> list[str]:
    def seconds(value: float | None) -> str:
        return "—" if value is None else f"{value:.2f} s"
    out = ["| run | calls heard | wake latency p50 / p95 after the phrase | chunks dropped | daemon CPU s per audio s | background training at the end |",
           "|---|---|---|---|---|---|"]
    for r in runs:
        done = r.training_state if r.training_percent is None else f"training, {r.training_percent}%"
        out.append(f"| {r.label} | {r.heard} of {r.calls} | {seconds(r.percentile(0.5))} / {seconds(r.percentile(0.95))} | "
                   f"{r.dropped} | {r.cpu_seconds / max(r.audio_seconds, 1):.4f} | {done} |")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ears", help="the ears binary (a release build)")
    parser.add_argument("--audio-minutes", type=float, default=6.0, help="audio minutes per run (each run takes as long)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--doc", type=Path, help="write the table into this markdown file")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    segments = int(args.audio_minutes * 60 / SEGMENT_SECONDS)
    with tempfile.TemporaryDirectory(prefix="ears-beside-") as scratch_name:
        scratch = Path(scratch_name)
        os.chmod(scratch, 0o700)
        print("beside-training: synthesizing speech", flush=True)
        bank = SpeechBank(scratch)
        runs = []
        for beside in (False, True):
            print(f"beside-training: {label(beside)}, {args.audio_minutes:g} audio min at real time", flush=True)
            runs.append(one_run(args.ears, scratch, bank, segments, args.seed, beside))
    table = lines(runs)
    print("\n".join(table))
    if args.doc:
        command = "make bench-beside-training" if args.audio_minutes == 6.0 else \
            "bench/beside_training.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        replace_block(args.doc, "beside-training", "bench/beside_training.py", [
            f"Measured {when} at {commit} by `{command}` (2 shared cores; the same speech, calls and seed in both runs; "
            f"{args.audio_minutes:g} audio minutes each, fed at real time to a file-backed ALSA microphone):",
            "",
            *table,
        ])
    return 0


if __name__ == "__main__":
    sys.exit(main())
