#!/usr/bin/env python3
"""Korean wake phrase "코델리아 피파" on Vosk and on a trained model, with
espeak-ng's Korean voice.

Builds a Korean set (the phrase followed by commands, a few with the phrase
inside the sentence, and sentences without the phrase, some with syllables
like 코델리아's or 피파's), each said by espeak-ng's `ko` voice and its variants
at several rates and pitches, clean and mixed with pink noise at 10 dB SNR.
Then scans it with `ears scan --engine vosk` under every combination of the
runtime grammar (on, the default, or off), noise suppression (on, the
default, or off) and the match threshold (0.6, 0.7, 0.8; 0.8 is the default),
and prints one Markdown table: recall clean and at 10 dB with its 95% Wilson
interval, false wakes (files without the phrase that woke, and wakes per hour
of audio without the phrase with its exact 95% Poisson interval, from
bench/wakebench/intervals.py) and CPU seconds per audio second.

With --trained (the default), it first runs `ears train "코델리아 피파"
--models-dir WORKDIR/models` at the default budget (timed: wall and CPU; skipped
when WORKDIR/models holds its model and the record of the run that made it),
and adds rows for the trained model at its own threshold and at
--trained-threshold 0.5 and 0.9, with recall split by how the model knows
each voice (held out, trained on, validated on, or no speaker). The Vosk rows
get an empty --models-dir (WORKDIR/models-none), so no trained model can hear
for them.
With --no-vosk-sweep only Vosk's default setting is scanned. With --reading
(the default, with --trained) each voice also reads 20 minutes of the Korean
GIMP manual (`make korean-prose` unpacks it) in one continuous stream, clean
and at 10 dB, and the trained model at its own threshold scans those 4 hours
for false wakes, against issue 20's at most 1 per hour
(bench/koreanbench/reading.py).

espeak-ng is the only Korean voice on Debian, so real voices are not covered,
and the trained model learnt from the same engine that says the set.

Everything is deterministic: the voices, rates and pitches are assigned by
rule, the pink noise comes from `sox -R` (repeatable) and each noisy file
cuts it at an offset drawn from a generator seeded by SEED and the file name.

usage: bench/korean.py EARS WORKDIR [--doc docs/benchmark-korean.md]
                       [--trained | --no-trained] [--vosk-sweep | --no-vosk-sweep]
                       [--reading | --no-reading]

EARS is the ears binary; WORKDIR receives the WAV files and configurations
(rebuilt on every run) and the trained model (kept: WORKDIR/models, with the
record of the `ears train` run that made it in training-run.json). With
--doc, also writes the Markdown report there: its header names the commit
(git rev-parse --short HEAD, marked when Sources/ or Package.swift has
uncommitted changes) and how long the run took, and a one-line headline gives
recall clean and at 10 dB and false wakes per hour, each with its interval,
for the default configuration and the trained model. `make bench-korean`
runs it (WORKDIR bench/out/korean).
Unless EARS_VOSK_LIBRARY and EARS_VOSK_MODEL are set, they point at the
repository's .deps/vosk (where `make vosk-setup` puts libvosk and the model).

The code is in bench/koreanbench, split by role (config, corpus, reading,
training, scanning, tables, report); this file parses the arguments and runs them in order.
"""
from __future__ import annotations

import argparse
import datetime
import os
import shlex
import sys
import time
from typing import Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from koreanbench.config import PHRASE, SNR_DB  # noqa: E402
from koreanbench.corpus import audio_seconds, build_set  # noqa: E402
from koreanbench.reading import build_reading, prose  # noqa: E402
from koreanbench.report import Run, headline, readme_headline, repository_commit, sha256, write_doc  # noqa: E402
from koreanbench.scanning import Setting, scan, settings, vosk_environment, write_configs  # noqa: E402
from koreanbench.tables import reading_table, table, target_section, voice_group_table  # noqa: E402
from koreanbench.training import Training, train  # noqa: E402


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    """The command line (see the module's usage)."""
    parser = argparse.ArgumentParser(
        description="Korean wake phrase on Vosk and a trained model, with espeak-ng voices.")
    parser.add_argument("ears", help="the ears binary")
    parser.add_argument("work", help="directory for the WAV files and configurations")
    parser.add_argument("--doc", help="also write the Markdown report to this file (e.g. docs/benchmark-korean.md)")
    parser.add_argument("--trained", action=argparse.BooleanOptionalAction, default=True,
                        help="train a model for the phrase (or reuse WORK/models) and add its rows (default: on)")
    parser.add_argument("--vosk-sweep", action=argparse.BooleanOptionalAction, default=True,
                        help="scan every Vosk setting; --no-vosk-sweep scans only the default one (default: on)")
    parser.add_argument("--reading", action=argparse.BooleanOptionalAction, default=True,
                        help="with --trained, also scan 4 h of Korean read speech (2 h clean, 2 h at 10 dB) for "
                             "the trained model's false wakes (default: on; needs `make korean-prose`)")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> None:
    """Builds the set, trains (or reuses) the model, runs every scan, prints
    the tables and the headline, and with --doc writes the page (and, for
    docs/benchmark-korean.md, the README's headline)."""
    args = parse_arguments(argv)
    ears = os.path.abspath(args.ears)
    command = shlex.join(["python3", sys.argv[0], *argv])
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    commit = repository_commit()
    load_average = os.getloadavg()[0]
    os.makedirs(args.work, exist_ok=True)

    started = time.monotonic()
    clips = build_set(args.work)
    sentences = prose() if args.trained and args.reading else []
    reading_clips = build_reading(args.work, sentences) if sentences else []
    build_s = time.monotonic() - started
    configs = write_configs(args.work)

    training: Training | None = None
    started = time.monotonic()
    if args.trained:
        training = train(ears, args.work)
        print(f"korean.py: ears train: {training.wall_s:.0f} s wall, {training.cpu_s:.0f} s CPU"
              f"{' (cached)' if training.cached else ''}; threshold {training.model_threshold:g}; held-out voices "
              f"{', '.join(training.held_out_voices)}", file=sys.stderr, flush=True)
    train_s = time.monotonic() - started

    print(f"Korean wake phrase \"{PHRASE}\" on Vosk{' and a trained model' if training else ''}, espeak-ng voices: "
          f"{len(clips)} files ({SNR_DB:g} dB pink noise or clean)\n", flush=True)
    results = []
    started = time.monotonic()
    for setting in settings(args.vosk_sweep, training is not None):
        result = scan(ears, clips, setting, configs[setting.grammar], args.work)
        print(f"korean.py: {setting.describe()}: {result.wall_s:.0f} s", file=sys.stderr, flush=True)
        results.append(result)
    reading = None
    if reading_clips:
        reading = scan(ears, reading_clips, Setting("trained", threshold=None), configs[True], args.work,
                       prefix="reading-")
        print(f"korean.py: read speech, trained model at its own threshold: {reading.wall_s:.0f} s",
              file=sys.stderr, flush=True)
    scan_s = time.monotonic() - started
    print(table(results, training))
    for result in results:
        if result.setting.is_default or result.setting.is_trained_default:
            print()
            print(target_section(result, reading if result.setting.is_trained_default else None), flush=True)
    if reading:
        print()
        print(reading_table(reading), flush=True)
    if training:
        print()
        print(voice_group_table([r for r in results if r.setting.route == "trained"], training), flush=True)
    print()
    print(headline(results, reading), flush=True)

    if args.doc:
        run_info = Run(command, date, commit, ears, sha256(ears), vosk_environment()["EARS_VOSK_MODEL"], clips,
                       audio_seconds(clips), build_s, train_s, scan_s, load_average, args.vosk_sweep, training,
                       reading, len(sentences))
        write_doc(args.doc, run_info, results)
        print(f"korean.py: wrote {args.doc}", file=sys.stderr)
        if os.path.basename(args.doc) == "benchmark-korean.md":
            # The README quotes the headline, with where and when it was measured.
            import docblock
            from pathlib import Path
            line = readme_headline(results, commit, date, reading)
            docblock.replace_block(Path(os.path.dirname(os.path.abspath(__file__)), "..", "README.md"),
                                   "bench-korean", "bench/korean.py", [line])
            print("korean.py: wrote its headline into README.md", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
