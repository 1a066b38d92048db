#!/usr/bin/env python3
"""ears as a Wyoming wake service beside wyoming-openwakeword 1.8.2, in one run.

The same synthesized audio goes over Wyoming (PyPI `wyoming` client, 1024-sample
chunks) to `ears listen --uri tcp://127.0.0.1:P` (phrase "hey jarvis", the
default acoustic path) and to wyoming-openwakeword with its hey_jarvis model:

1. calls: --calls "hey jarvis" + command clips (flite, festival, espeak-ng
   voices), each clean and with pink noise at 10 dB SNR, one session at a
   time, paced at real time (as a satellite sends): calls heard, latency
   from the moment the chunk holding the phrase's last sample was sent to
   the detection's arrival (p50/p95), CPU s per audio s, peak RSS (1 stream);
2. negatives: --negative-minutes of fortunes read by the same voices, from
   --streams sessions at once, paced at real time: false detections, CPU s
   per audio s, peak RSS (--streams streams); RSS 5 s after;
3. memory after concurrent streams: for each count in --arena-streams, two
   fresh `ears listen` with `[wyoming] max_streams` = that count, one with
   MALLOC_ARENA_MAX=2 in its environment, each streamed the negatives from
   that many sessions at once as fast as it takes them (openwakeword drops
   audio sent faster than real time, so it is not in this phase): RSS idle,
   peak, 5 s after; CPU s per audio s.

Engines run one after the other, never together (2 shared cores). Every
clip lives in a private temp dir removed on exit. With --doc FILE the
figures go into FILE between its `wyoming-bench` markers, with the command.

usage: bench/wyoming_bench.py EARS [--calls 20] [--negative-minutes 5] [--streams 4]
                              [--arena-streams 4,8] [--jobs 2] [--doc FILE]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
ROOT = Path(__file__).resolve().parent.parent
from docblock import replace_block  # noqa: E402
from wyomingbench import corpus as wyoming_corpus  # noqa: E402
from wyomingbench.phases import ArenaRun, EngineRun, measure_arena_round, measure_engine, settled_rss  # noqa: E402
from wyomingbench.report import Report  # noqa: E402
from wyomingbench.servers import start_ears, start_openwakeword  # noqa: E402

DEFAULTS = {"calls": 20, "negative_minutes": 5.0, "streams": 4, "arena_streams": "4,8", "jobs": 2, "models_dir": None}
# Where `make bench-wake-quick` keeps the trained "hey jarvis" models, newest first.
TRAINED_GLOB = "bench/out/trained/hey-jarvis-*/hey-jarvis.wakemodel"


def newest_trained_models() -> Path | None:
    """The directory of the newest trained "hey jarvis" model the wake bench left, or None."""
    found = sorted(Path(ROOT).glob(TRAINED_GLOB), key=lambda path: path.stat().st_mtime, reverse=True)
    return found[0].parent if found else None


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ears", help="the ears binary (make bench-wyoming passes the release build)")
    parser.add_argument("--calls", type=int, default=DEFAULTS["calls"], help="phrase clips per condition (clean, noisy)")
    parser.add_argument("--negative-minutes", type=float, default=DEFAULTS["negative_minutes"],
                        help="minutes of non-phrase speech (fortunes)")
    parser.add_argument("--streams", type=int, default=DEFAULTS["streams"], help="concurrent streams for the negatives")
    parser.add_argument("--arena-streams", default=DEFAULTS["arena_streams"],
                        help="comma-separated concurrent stream counts for the memory phase")
    parser.add_argument("--jobs", type=int, default=DEFAULTS["jobs"], help="clips synthesized at once")
    parser.add_argument("--models-dir", type=Path, default=DEFAULTS["models_dir"],
                        help="a directory with a trained hey-jarvis.wakemodel for the idle-with-a-model figure "
                             f"(default: the newest of {TRAINED_GLOB})")
    parser.add_argument("--doc", type=Path, help="write the figures into this markdown file (its wyoming-bench markers)")
    return parser.parse_args()


def command_line(arguments: argparse.Namespace) -> str:
    """`make bench-wyoming` when every option is the default, else the script's own command."""
    chosen = {name: getattr(arguments, name) for name in DEFAULTS}
    if chosen == DEFAULTS:
        return "make bench-wyoming"
    return "bench/wyoming_bench.py " + " ".join(sys.argv[1:])


def main() -> int:
    arguments = parse_arguments()
    arena_counts = [int(count) for count in arguments.arena_streams.split(",") if count]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ears-wyoming-bench-") as scratch_name:
        scratch = Path(scratch_name)
        clips = scratch / "clips"
        clips.mkdir()
        calls, negatives = wyoming_corpus.build(clips, arguments.calls, arguments.negative_minutes, arguments.jobs)
        print(f"corpus: {len(calls)} call clips, {sum(c.seconds for c in negatives) / 60:.1f} min of negatives "
              f"({time.monotonic() - started:.0f} s)", flush=True)
        engines: list[EngineRun] = []
        for start in (lambda: start_ears(arguments.ears, scratch, "ears", arguments.streams, {}),
                      lambda: start_openwakeword("wyoming-openwakeword")):
            server = start()
            try:
                engines.append(measure_engine(server, calls, negatives, arguments.streams))
            finally:
                server.stop()
            print(f"{server.name}: done ({time.monotonic() - started:.0f} s)", flush=True)
        arenas = [ArenaRun("ears (glibc default)"), ArenaRun("ears MALLOC_ARENA_MAX=2")]
        environments: list[dict[str, str]] = [{}, {"MALLOC_ARENA_MAX": "2"}]
        for streams in arena_counts:
            for run, environment in zip(arenas, environments):
                server = start_ears(arguments.ears, scratch, f"arena-{streams}-{len(run.rounds)}-{len(environment)}",
                                    streams, environment)
                try:
                    run.rounds.append(measure_arena_round(server, negatives, streams))
                finally:
                    server.stop()
                print(f"{run.name}, {streams} streams: done ({time.monotonic() - started:.0f} s)", flush=True)
        trained = arguments.models_dir or newest_trained_models()
        trained_idle = None
        if trained is not None:
            server = start_ears(arguments.ears, scratch, "trained", arguments.streams, {}, models_dir=trained)
            try:
                trained_idle = settled_rss(server)
            finally:
                server.stop()
            print(f"ears with the model in {trained}: done ({time.monotonic() - started:.0f} s)", flush=True)
    report = Report(engines, arenas, calls, negatives, arguments.streams, time.monotonic() - started,
                    trained_idle_rss_megabytes=trained_idle, trained_models=str(trained) if trained else None)
    lines = report.lines(command_line(arguments))
    print("\n".join(lines))
    if arguments.doc:
        replace_block(arguments.doc, "wyoming-bench", "bench/wyoming_bench.py", lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
