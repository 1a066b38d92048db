#!/usr/bin/env python3
"""The wake benchmark: ears beside real peer engines, on the same audio, as a microphone gives it.

Systems: ears (`ears scan --json`, any number of labelled configurations) and, after
`ears train`, "ears trained" (`--models-dir`); PocketSphinx `pocketsphinx_continuous
-kws`, Porcupine 1.9.5, openWakeWord 0.5.1, microWakeWord 2.5.0 (bench/peers, in
.deps/bench/venv: make bench-setup). Phrases: hey jarvis, alexa, hey mycroft, okay nabu,
hey cordelia; every system listens for all the phrases it has at once.
Audio (bench/corpus.py + bench/wakebench, sizes in config.FULL / config.QUICK): per
condition one long stream of calls (clean, 40 dB floor, pink 10/5 dB, babble 10 dB, a
reverberant room at 10 dB, far field), read speech clean and at pink 10 dB, a
conversation, near-miss sentences; each system reads each stream once.

What is kept between runs (bench/wakebench/cache.py): the corpus by its recipe, each
system's result on each stream by (stream recipe, settings, system identity), trained
models by their training key; training runs beside the corpus and the other scans.
Every recall gets a Wilson interval and every false-wake rate an exact Poisson one
(wakebench/intervals.py); compare.py sets systems side by side at equal false-wake rate.

usage: bench/wake.py EARS [--out DIR] [--jobs N] [--quick] [--doc docs/benchmark.md]
                          [--compare docs/benchmark-quick.json] [--ears-config "LABEL=ARGS"]...
                          [--rescan ears] [--retrain] [--no-cache] [--no-trained [--held-out-engines festival]] [--rescore]
                          [--trained-sweep 0.5,0.8,0.9] [--phrases P,P [--corpus-phrases P,P,P]]
Writes OUT/wake.md, OUT/wake.json, OUT/wake-raw.json and OUT/wake-det.png; with --doc,
also the document, its .json summary and its -det.png; a full run's --doc
docs/benchmark.md also writes the README's detection sentence. Needs numpy and
pyroomacoustics: run it with .deps/bench/venv/bin/python (make bench-wake does).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import datetime
import hashlib
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import threading
import time
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from wakebench import cache, compare, config, cpu, report, runners, scoring, streams, training  # noqa: E402
from wakebench.pages import write_outputs  # noqa: E402
from wakebench.corpus import make_corpus  # noqa: E402


def log(*a: object) -> None:
    print(*a, file=sys.stderr, flush=True)


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ears")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--negative-minutes", type=float, default=config.FULL.negative_minutes,
                    help="corpus.py's --negative-minutes of read speech (it counts 150 words a minute; the voices read "
                         "slower: 62 gives about 75 min), heard clean and in pink noise at 10 dB (cut to the size's minutes)")
    ap.add_argument("--conversation-minutes", type=float, default=config.FULL.conversation_minutes,
                    help="corpus.py's --conversation-minutes: the voices taking turns")
    ap.add_argument("--commands-per-call", type=int, default=config.FULL.commands_per_call,
                    help="commands each voice says after each phrase (of 6)")
    ap.add_argument("--soundalike-voices", type=int, default=config.FULL.soundalike_voices,
                    help="voices that say each hand-written near-miss sentence")
    ap.add_argument("--systems", default="",
                    help='only these families, e.g. "kws,porcupine,openwakeword,microwakeword" (default: all)')
    ap.add_argument("--phrases", default=",".join(config.PHRASES), help="the phrases every system listens for")
    ap.add_argument("--corpus-phrases", default="", metavar="PHRASES",
                    help="the phrases the corpus is made of (default: --phrases); a superset of --phrases scans "
                         "the same streams as a run of all of them, listening for some: a wake on another "
                         "phrase's call is a wake on the wrong call; the others' near-miss sentences are not scored")
    ap.add_argument("--voices", default=",".join(config.VOICES))
    ap.add_argument("--conditions", default=",".join(c.name for c in config.CONDITIONS))
    ap.add_argument("--ears-config", action="append", default=[], metavar="LABEL=ARGS",
                    help='a labelled ears configuration, e.g. "ears ns-off=--noise-suppression off" (repeatable; '
                         'default: "ears=" with the --ears-arg arguments)')
    ap.add_argument("--ears-arg", action="append", default=[], help="one more argument for every ears configuration")
    ap.add_argument("--ears-thresholds", default=",".join(config.EARS_SWEEP), help="ears's threshold sweep (\"\" = none)")
    ap.add_argument("--trained-sweep", default=",".join(config.TRAINED_SWEEP),
                    help="thresholds below the models' own that a trained configuration gets a pass of its own at "
                         "(\"\" = none: a comparison of two sets of models at their defaults costs half the scans)")
    ap.add_argument("--no-peers", dest="peers", action="store_false", help="ears and kws only")
    ap.add_argument("--doc", help="write the benchmark document here (and benchmark-det.png next to it)")
    ap.add_argument("--quick", action="store_true", help="a small corpus (under 5 minutes), to try the harness")
    ap.add_argument("--rescore", action="store_true", help="score OUT/wake.json's saved runs again (no scanning)")
    ap.add_argument("--held-out-engines", default="", metavar="ENGINES",
                    help='with --no-trained: the engines (e.g. "festival") that the models named by a configuration\'s '
                         "--models-dir never heard (what their `ears train` reported), so those configurations are "
                         "scored on that engine; with --rescore it replaces what the saved run said")
    ap.add_argument("--trained", action=argparse.BooleanOptionalAction, default=True,
                    help=f'train a model per phrase with EARS (`ears train`) and measure "{training.TRAINED_LABEL}" '
                         "(--models-dir) beside the other configurations (default: on; cached per binary)")
    ap.add_argument("--train-seed", type=int, default=1, help="`ears train --seed` for the trained configuration")
    ap.add_argument("--train-jobs", type=int, default=2, help="phrases trained at a time (beside the scans)")
    ap.add_argument("--train-minutes", type=float, default=None, help="`ears train --minutes` (default: ears's own budget)")
    ap.add_argument("--store", default=os.path.join(HERE, "out"),
                    help="where the corpus, the kept results and the trained models are (shared by every --out)")
    ap.add_argument("--no-cache", action="store_true", help="scan every stream again, even where a result is kept")
    ap.add_argument("--rescan", default="", metavar="FAMILIES",
                    help='scan these systems again even where a result is kept, e.g. "ears" (what a detector change does)')
    ap.add_argument("--retrain", action="store_true", help="train every phrase again, even where a model is kept")
    ap.add_argument("--cpu-alone", action=argparse.BooleanOptionalAction, default=True,
                    help="after the scans, measure issue 20's CPU target: each ears configuration with three phrases "
                         "over the negative streams' first minutes, one process at a time, beside PocketSphinx kws "
                         "(wakebench/cpu.py; default: on)")
    ap.add_argument("--compare", help="a committed wake.json-like summary (benchmark-quick.json) to print the figures beside")
    a = ap.parse_args(argv)
    a.ears = os.path.abspath(a.ears)
    a.out = os.path.abspath(a.out)
    a.phrases = [p.strip() for p in a.phrases.split(",") if p.strip()]
    a.corpus_phrases = [p.strip() for p in a.corpus_phrases.split(",") if p.strip()] or a.phrases
    if not set(a.phrases) <= set(a.corpus_phrases):
        sys.exit(f"wake: --phrases must be among --corpus-phrases ({', '.join(a.corpus_phrases)})")
    a.voices = [v for v in a.voices.split(",") if v]
    a.conditions = [c for c in a.conditions.split(",") if c]
    a.ears_thresholds = [t for t in a.ears_thresholds.split(",") if t]
    a.trained_sweep = [t for t in a.trained_sweep.split(",") if t]
    a.soundalikes_per_phrase = None
    # The streams' share of the corpus; --quick: config.QUICK, a part of the same corpus (so it
    # is made once, and the quick run's streams need no synthesis): 50 calls a condition,
    # ~22 min of negatives, each near-miss sentence once.
    a.size = config.QUICK if a.quick else dataclasses.replace(
        config.FULL, commands_per_call=a.commands_per_call, negative_minutes=a.negative_minutes,
        conversation_minutes=a.conversation_minutes, soundalike_voices=a.soundalike_voices)
    configs = [runners.parse_ears_config(s) for s in a.ears_config] or [("ears", [])]
    # A configuration without its own --models-dir reads an empty one, so a model someone
    # trained in the state directory (/var/lib/ears/phrases) cannot turn it into a trained one.
    a.no_models_dir = os.path.join(a.out, "models-none")
    a.ears_configs = [(label, [*args, *([] if "--models-dir" in args else ["--models-dir", a.no_models_dir]), *a.ears_arg])
                      for label, args in configs]
    return a


def check_tools(a: argparse.Namespace) -> None:
    for tool in ["pocketsphinx_continuous", "gnuplot", "/usr/bin/time", "sox", "flite", "text2wave", "espeak-ng"]:
        if not shutil.which(tool):
            sys.exit(f"wake: {tool} is missing (make setup installs it)")
    if not os.access(a.ears, os.X_OK):
        sys.exit(f"wake: {a.ears} is not an executable")
    if a.peers and runners.peer_python() == "python3":
        sys.exit("wake: the peers' virtualenv .deps/bench/venv is missing (make bench-setup), or pass --no-peers")


def run_all(a: argparse.Namespace, plan: list[runners.Run], stream_list: list[streams.Stream], work: str,
            later: Callable[[], list[runners.Run]] = lambda: []
            ) -> tuple[list[runners.Result], dict[str, int], list[runners.Run]]:
    """Every (process, stream) task, `a.jobs` at a time, longest first; a task whose
    result is kept (cache.result_key) is read back instead of run. `later` blocks
    until more runs are ready (the trained configuration, after training) and gives
    them; their tasks are queued behind the others. Returns the results, how many
    tasks were run and reused, and the later runs."""
    python = runners.peer_python()
    kept = cache.ResultCache(os.path.join(a.store, "results"))
    known: dict[str, str] = {}
    keys: dict[int, str] = {}
    results: list[runners.Result] = []

    def unkept(runs: list[runners.Run]) -> list[tuple[runners.Run, streams.Stream]]:
        tasks = [(run, s) for run in runs for s in stream_list if run.reads(s)]
        todo = []
        for t in tasks:
            keys[id(t)] = cache.result_key(t[1].digest, t[0].family, t[0].settings, t[0].phrases, runners.cache_args(t[0]),
                                           runners.identity(t[0], a.ears, python, known))
            fresh = a.no_cache or t[0].family in a.rescan.split(",")
            found = kept.get(keys[id(t)]) if not fresh else None
            if found is not None:
                results.append(runners.Result.from_json({**found, "run": t[0].key, "stream": t[1].name}))
            else:
                todo.append(t)
        todo.sort(key=lambda t: -t[1].seconds * runners.COST[t[0].family])  # longest first
        return todo

    todo = unkept(plan)
    lock = threading.Lock()
    started = time.time()
    done = 0

    failures: list[Exception] = []

    def one(task: tuple[runners.Run, streams.Stream]) -> runners.Result | None:
        nonlocal done
        run, s = task
        # One failed scan fails the run, at once: the scans still queued are skipped
        # rather than run for the better part of an hour before the error is shown.
        if failures:
            return None
        try:
            r = runners.execute(run, s.name, s.wav, s.seconds, a.ears, python, work)
        except Exception as e:
            with lock:
                failures.append(e)
            log(f"wake: {run.system} failed on {s.name}; the scans still queued are skipped:\n  {e}")
            return None  # raised once, by run_all, when the pool is done
        kept.put(keys[id(task)], r.to_json())
        with lock:
            done += 1
            results.append(r)
            log(f"wake: [{done}/{len(todo)}] {run.system} {'/'.join(run.settings[:3])}{'…' if len(run.settings) > 3 else ''} "
                f"on {s.name}: {r.audio_s:.0f} s audio, {r.cpu_s:.1f} CPU s, {len(r.wakes.get(run.settings[0], []))} wakes "
                f"({time.time() - started:.0f} s)")
        return r

    log(f"wake: {len(results) + len(todo)} scans; {len(results)} kept from earlier runs, {len(todo)} to run, {a.jobs} at a time")
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = [pool.submit(one, t) for t in todo]
        late = later()
        more = unkept(late)
        if late:
            log(f"wake: {len(more)} more scans for {', '.join(sorted({r.system for r in late}))}")
        todo += more
        futures += [pool.submit(one, t) for t in more]
        concurrent.futures.wait(futures)
    if failures:
        raise failures[0]
    total = len(results)
    return results, dict(run=len(todo), reused=total - len(todo), executed=[[r.key, s.name] for r, s in todo]), late


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", HERE, *args], capture_output=True, text=True).stdout.strip()


def main(argv: list[str]) -> None:
    a = parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    raw_path = os.path.join(a.out, "wake-raw.json")
    if a.rescore:
        raw = json.load(open(raw_path))
        if a.held_out_engines:
            raw["args"]["held_out_engines"] = config.engine_list(a.held_out_engines)
    else:
        check_tools(a)
        os.makedirs(a.no_models_dir, exist_ok=True)
        started = time.time()
        phases: dict[str, float] = {}
        binary_sha256 = hashlib.sha256(open(a.ears, "rb").read()).hexdigest()[:16]
        # The repository as the binary was built, read before the run: a commit made
        # while it runs is not what it measured.
        dirty = git("status", "--porcelain", "--", "../Sources", "../Package.swift")
        commit = (git("rev-parse", "--short", "HEAD") or "unknown") + (" (uncommitted changes in Sources/)" if dirty else "")
        # Training runs beside the corpus and the other systems' scans (it keeps about one
        # core busy); the trained configuration's scans are queued when it ends.
        trainer = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        training_started = time.time()
        # Models are kept in bench/out whatever --out is, so the quick and full runs share them.
        pending = trainer.submit(training.train_all, a.ears, a.phrases, a.store, a.train_seed, log,
                                 a.train_minutes, a.train_jobs, a.retrain) if a.trained else None
        trained: training.Training | None = None

        def trained_runs() -> list[runners.Run]:
            nonlocal trained
            if pending is None:
                return []
            trained = pending.result()
            phases["training" + (" (models kept)" if all(p.cached for p in trained.phrases) else "") +
                   ", beside the corpus and scans"] = time.time() - training_started
            configs = [(training.TRAINED_LABEL, [*trained.ears_args, *a.ears_arg])]
            return [r for r in runners.plan(a.phrases, configs, a.ears_thresholds, peers=False, trained_sweep=a.trained_sweep)
                    if r.family == "ears"] + waiting

        t0 = time.time()
        corpus = make_corpus(a.store, a.ears, a.corpus_phrases, a.voices, a.negative_minutes, a.commands_per_call, a.jobs,
                             a.soundalikes_per_phrase, a.conversation_minutes, a.soundalike_voices)
        phases["corpus" + (" (kept)" if corpus.cached else "")] = time.time() - t0
        t0 = time.time()
        stream_list = streams.build_all(corpus.path, corpus.manifest, a.conditions, a.size)
        phases["streams"] = time.time() - t0
        plan = [r for r in runners.plan(a.phrases, a.ears_configs, a.ears_thresholds, a.peers, a.trained_sweep)
                if not a.systems or r.family in a.systems.split(",")]
        # A configuration naming models this run trains into the store (e.g. "head alone"
        # with --models-dir bench/out/models-<key>) waits for the training: scanned before,
        # it would find the directory empty or half-filled (the run of 2026-12-03 failed so).
        waiting = [r for r in plan if pending is not None and training.reads_store_models(r.args, a.store)]
        plan = [r for r in plan if r not in waiting]
        t0 = time.time()
        results, counts, late = run_all(a, plan, stream_list, corpus.path, trained_runs)
        plan += late
        if trained:
            a.ears_configs.append((training.TRAINED_LABEL, [*trained.ears_args, *a.ears_arg]))
        phases[f"scans ({counts['run']} run, {counts['reused']} kept from earlier runs)"] = time.time() - t0
        alone: list[cpu.Alone] = []
        if a.cpu_alone:
            # Every scan and the training are done: nothing else runs beside these processes.
            t0 = time.time()
            seconds, repeats = (cpu.QUICK_STRETCH_S, cpu.QUICK_REPEATS) if a.quick else (cpu.STRETCH_S, cpu.REPEATS)
            alone = cpu.measure(a.ears, a.ears_configs, a.phrases, stream_list, corpus.path, runners.peer_python(), log,
                                seconds, repeats)
            phases["CPU alone (issue 20's target)"] = time.time() - t0
        phases["total"] = time.time() - started
        cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
                         platform.machine())
        raw = dict(
            args=dict(phrases=a.phrases, corpus_phrases=a.corpus_phrases, voices=a.voices, conditions=a.conditions, ears_configs=a.ears_configs,
                      ears_thresholds=a.ears_thresholds, trained_sweep=a.trained_sweep, peers=a.peers, quick=a.quick, compare_to=a.compare,
                      systems=a.systems, held_out_engines=config.engine_list(a.held_out_engines),
                      training=trained.to_json() if trained else None),
            corpus=dict(path=corpus.path, args=corpus.args, made_s=corpus.made_s, cached=corpus.cached,
                        soundalike_note=corpus.soundalike_note),
            streams=[s.to_json() for s in stream_list], results=[r.to_json() for r in results], phases=phases,
            cpu_alone=[x.to_json() for x in alone],
            executed=counts["executed"],
            run=dict(command=shlex.join(["bench/wake.py", *argv]), binary=a.ears,
                     binary_sha256=binary_sha256,
                     version=subprocess.run([a.ears, "--version"], capture_output=True, text=True).stdout.strip(),
                     commit=commit,
                     date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                     machine=f"{os.cpu_count()} × {cpu_model}, Linux {platform.release()}", jobs=a.jobs))
        # Kept before scoring, so --rescore can score (and a fixed report render) it again.
        json.dump(raw, open(raw_path, "w"))
    write_outputs(raw, a.out, a.doc)


if __name__ == "__main__":
    main(sys.argv[1:])
