#!/usr/bin/env python3
"""The wake benchmark: ears beside real peer engines, on the same audio, as a microphone gives it.

Systems: ears (`ears scan --json`, any number of labelled configurations, a threshold
sweep each), PocketSphinx `pocketsphinx_continuous -kws`, Porcupine 1.9.5,
openWakeWord 0.5.1, microWakeWord 2.5.0 (bench/peers, in .deps/bench/venv: make bench-setup).
Phrases: hey jarvis, alexa, hey mycroft, okay nabu, hey cordelia; every system listens
for all the phrases it has at once ("n/a" for the others).
Audio (bench/corpus.py + bench/wakebench): per condition one long stream (clean, 40 dB
floor, pink 20/10/5 dB, babble 10 dB), negatives (fortunes read by the voices, clean and
pink 10 dB) and sound-alike sentences; each system reads each stream once.

usage: bench/wake.py EARS [--out DIR] [--jobs N] [--quick] [--doc docs/benchmark.md]
                          [--ears-config "LABEL=ARGS"]... [--ears-arg ARG]... [--rescore]
                          [--no-trained] [--train-seed N]
With --trained (the default), EARS first trains a model per phrase (`ears train`,
bench/wakebench/training.py, cached per binary in OUT/models-<sha256>-<seed>/) and
"ears trained" (`--models-dir` that directory) is measured beside the other configurations,
its recall grouped by the voices its models never heard (the festival engine).
Writes OUT/wake.md, OUT/wake.json and OUT/wake-det.png (with --doc, also the document and
docs/benchmark-det.png). Needs numpy: run it with .deps/bench/venv/bin/python (make bench-wake does).
"""
from __future__ import annotations

import argparse
import concurrent.futures
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from wakebench import config, report, runners, scoring, streams, training  # noqa: E402
from wakebench.corpus import make_corpus  # noqa: E402


def log(*a: object) -> None:
    print(*a, file=sys.stderr, flush=True)


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ears")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--negative-minutes", type=float, default=78,
                    help="corpus.py's --negative-minutes (it counts 150 words a minute; the voices read faster: 78 gives about 60 min)")
    ap.add_argument("--commands-per-call", type=int, default=3, help="commands each voice says after each phrase (of 6)")
    ap.add_argument("--phrases", default=",".join(config.PHRASES))
    ap.add_argument("--voices", default=",".join(config.VOICES))
    ap.add_argument("--conditions", default=",".join(c.name for c in config.CONDITIONS))
    ap.add_argument("--ears-config", action="append", default=[], metavar="LABEL=ARGS",
                    help='a labelled ears configuration, e.g. "ears ns-off=--noise-suppression off" (repeatable; '
                         'default: "ears=" with the --ears-arg arguments)')
    ap.add_argument("--ears-arg", action="append", default=[], help="one more argument for every ears configuration")
    ap.add_argument("--ears-thresholds", default=",".join(config.EARS_SWEEP), help="ears's threshold sweep (\"\" = none)")
    ap.add_argument("--no-peers", dest="peers", action="store_false", help="ears and kws only")
    ap.add_argument("--doc", help="write the benchmark document here (and benchmark-det.png next to it)")
    ap.add_argument("--quick", action="store_true", help="a small corpus (under 5 minutes), to try the harness")
    ap.add_argument("--rescore", action="store_true", help="score OUT/wake.json's saved runs again (no scanning)")
    ap.add_argument("--trained", action=argparse.BooleanOptionalAction, default=True,
                    help=f'train a model per phrase with EARS (`ears train`) and measure "{training.TRAINED_LABEL}" '
                         "(--models-dir) beside the other configurations (default: on; cached per binary)")
    ap.add_argument("--train-seed", type=int, default=1, help="`ears train --seed` for the trained configuration")
    a = ap.parse_args(argv)
    a.ears = os.path.abspath(a.ears)
    a.out = os.path.abspath(a.out)
    a.phrases = [p.strip() for p in a.phrases.split(",") if p.strip()]
    a.voices = [v for v in a.voices.split(",") if v]
    a.conditions = [c for c in a.conditions.split(",") if c]
    a.ears_thresholds = [t for t in a.ears_thresholds.split(",") if t]
    a.soundalikes_per_phrase = None
    if a.quick:  # about 20 calls per condition, 4 min of negatives, 3 sound-alikes per phrase, one ears sweep point
        a.voices, a.negative_minutes, a.commands_per_call, a.soundalikes_per_phrase = config.QUICK_VOICES, 3, 1, 3
        if "--ears-thresholds" not in " ".join(argv):
            a.ears_thresholds = config.EARS_SWEEP[-1:]
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


def run_all(a: argparse.Namespace, plan: list[runners.Run], stream_list: list[streams.Stream], work: str) -> list[runners.Result]:
    tasks = [(run, s) for run in plan for s in stream_list
             if not run.sweep_only or (s.kind == "negative" or (s.kind == "positive" and s.condition in config.SWEEP_CONDITIONS))]
    tasks.sort(key=lambda t: -t[1].seconds * runners.COST[t[0].family])  # longest first
    python = runners.peer_python()
    results: list[runners.Result] = []
    lock = threading.Lock()
    started = time.time()

    def one(task: tuple[runners.Run, streams.Stream]) -> runners.Result:
        run, s = task
        r = runners.execute(run, s.name, s.wav, s.seconds, a.ears, python, work)
        with lock:
            results.append(r)
            log(f"wake: [{len(results)}/{len(tasks)}] {run.system} {'/'.join(run.settings)} on {s.name}: "
                f"{r.audio_s:.0f} s audio, {r.cpu_s:.1f} CPU s, {sum(len(w) for w in r.wakes.values())} wakes "
                f"({time.time() - started:.0f} s)")
        return r

    log(f"wake: {len(tasks)} processes, {a.jobs} at a time")
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for f in [pool.submit(one, t) for t in tasks]:
            f.result()
    return results


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", HERE, *args], capture_output=True, text=True).stdout.strip()


def main(argv: list[str]) -> None:
    a = parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    raw_path = os.path.join(a.out, "wake.json")
    if a.rescore:
        raw = json.load(open(raw_path))["raw"]
    else:
        check_tools(a)
        os.makedirs(a.no_models_dir, exist_ok=True)
        started = time.time()
        phases: dict[str, float] = {}
        binary_sha256 = hashlib.sha256(open(a.ears, "rb").read()).hexdigest()[:16]
        trained: training.Training | None = None
        if a.trained:
            trained = training.train_all(a.ears, a.phrases, a.out, binary_sha256, a.train_seed, log)
            phases["training" + (" (cached)" if all(p.cached for p in trained.phrases) else "")] = time.time() - started
            a.ears_configs.append((training.TRAINED_LABEL, [*trained.ears_args, *a.ears_arg]))
        t0 = time.time()
        corpus = make_corpus(a.out, a.ears, a.phrases, a.voices, a.negative_minutes, a.commands_per_call, a.jobs,
                             a.soundalikes_per_phrase)
        phases["corpus" + (" (cached)" if corpus.cached else "")] = time.time() - t0
        t0 = time.time()
        stream_list = streams.build_all(corpus.path, corpus.manifest, a.conditions)
        phases["streams"] = time.time() - t0
        plan = runners.plan(a.phrases, a.ears_configs, a.ears_thresholds, a.peers)
        t0 = time.time()
        results = run_all(a, plan, stream_list, corpus.path)
        phases["systems"] = time.time() - t0
        phases["total"] = time.time() - started
        dirty = git("status", "--porcelain", "--", "../Sources", "../Package.swift")
        cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
                         platform.machine())
        raw = dict(
            args=dict(phrases=a.phrases, voices=a.voices, conditions=a.conditions, ears_configs=a.ears_configs,
                      ears_thresholds=a.ears_thresholds, peers=a.peers, quick=a.quick,
                      training=trained.to_json() if trained else None),
            corpus=dict(path=corpus.path, args=corpus.args, made_s=corpus.made_s, cached=corpus.cached,
                        soundalike_note=corpus.soundalike_note),
            streams=[s.to_json() for s in stream_list], results=[r.to_json() for r in results], phases=phases,
            run=dict(command=shlex.join(["bench/wake.py", *argv]), binary=a.ears,
                     binary_sha256=binary_sha256,
                     version=subprocess.run([a.ears, "--version"], capture_output=True, text=True).stdout.strip(),
                     commit=(git("rev-parse", "--short", "HEAD") or "unknown") + (" (uncommitted changes in Sources/)" if dirty else ""),
                     date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                     machine=f"{os.cpu_count()} × {cpu_model}, Linux {platform.release()}", jobs=a.jobs))
    write_outputs(raw, a.out, a.doc)


def write_outputs(raw: dict, out: str, doc: str | None) -> None:
    args = raw["args"]
    manifest = json.load(open(os.path.join(raw["corpus"]["path"], "manifest.json")))
    items = {i["file"]: i for i in manifest["items"]}
    stream_list = [streams.Stream(s["name"], s["kind"], s["condition"], s["wav"], s["seconds"],
                                  [items[f] for f in s["files"]], s["starts"]) for s in raw["streams"]]
    plan = runners.plan(args["phrases"], [(l, list(x)) for l, x in args["ears_configs"]], args["ears_thresholds"], args["peers"])
    results = [runners.Result.from_json(r) for r in raw["results"]]
    trained = args.get("training")
    splits, training_times = {}, {}
    if trained:
        splits[training.TRAINED_LABEL] = config.VoiceSplit("engine", tuple(trained["held_out_engines"]))
        training_times[training.TRAINED_LABEL] = {p["phrase"]: [p["wall_s"], p["cpu_s"]] for p in trained["phrases"]}
    metrics = scoring.score(plan, results, stream_list, args["phrases"], splits, training_times)
    conds = [c for c in [c.name for c in config.CONDITIONS] if c in args["conditions"]]
    png = report.det_plot(metrics, out)
    tables = dict(summary_table=report.summary_table(metrics, conds), common_table=report.common_table(metrics, conds),
                  phrase_table=report.phrase_table(metrics, args["phrases"], conds), sweep_table=report.sweep_table(metrics),
                  targets_table=report.targets_table(metrics), trained_targets_table=report.targets_table(metrics, True),
                  split_table=report.split_table(metrics), training_table=report.training_table(trained),
                  corpus_table=corpus_table(manifest, stream_list),
                  run_table="\n".join(["| step | wall time (s) |", "|---|---|"] +
                                      [f"| {k} | {v:.0f} |" for k, v in raw["phases"].items()]))
    run = raw["run"]
    md = [f"# Wake benchmark ({run['date']}; {run['version']}, {run['commit']}; `{run['command']}`)", "",
          "## Every system at its default (recall: each system's held-out voices, every phrase the system has)", "",
          tables["summary_table"], "", "## Which voices are held out for which system", "", tables["split_table"], "",
          "## hey jarvis + alexa only (every system has them; held-out voices)", "",
          tables["common_table"], "", "## Issue 10's targets (acoustic ears configurations)", "", tables["targets_table"], "",
          "## Issue 11's targets (ears trained: a model per phrase; held out: the engine its models never heard)", "",
          tables["trained_targets_table"], "", "## Training (ears train, one phrase at a time)", "", tables["training_table"], "",
          "## Per phrase (held-out voices)", "", tables["phrase_table"], "", "## Threshold sweeps", "", tables["sweep_table"], "",
          "## Streams", "", tables["corpus_table"], "", f"Sound-alikes: {raw['corpus']['soundalike_note']}.", "",
          "## Run", "", tables["run_table"], ""]
    open(os.path.join(out, "wake.md"), "w").write("\n".join(md))
    json.dump(dict(metrics=[m.to_json() for m in metrics], raw=raw), open(os.path.join(out, "wake.json"), "w"), indent=1)
    if doc:
        if args.get("quick"):
            # A quick run is no benchmark (minutes of negatives, a few calls a
            # condition); it may be written out, under its own banner.
            banner = ["> **Quick run** (`--quick`): a small corpus — about 20 calls a condition and a few minutes of",
                      "> negatives — to try the harness and see the direction. Its percentages move in steps of",
                      "> 25–50 points and a false-wake rate of 0 here means none in minutes, not hours. The",
                      "> benchmark is the full run: `make bench-wake BENCH_ARGS='--doc docs/benchmark.md'`.", ""]
            open(doc, "w").write("\n".join(md[:1] + [""] + banner + md[2:]))
            log(f"wake: wrote the quick run to {doc}")
        else:
            target = os.path.join(os.path.dirname(os.path.abspath(doc)), "benchmark-det.png")
            shutil.copyfile(png, target)
            c = raw["corpus"]
            values = dict(tables, command=run["command"], date=run["date"], binary=run["binary"],
                          binary_sha256=run["binary_sha256"], version=run["version"], commit=run["commit"],
                          machine=run["machine"], wall_minutes=f"{raw['phases'].get('total', 0) / 60:.1f}",
                          corpus_command="bench/corpus.py OUT " + shlex.join(c["args"]),
                          soundalike_note=c["soundalike_note"], voices=", ".join(args["voices"]),
                          tuning_voices=", ".join(sorted(config.TUNING_VOICES)),
                          phrases=", ".join(f'"{p}"' for p in args["phrases"]),
                          ears_configs="; ".join(f"`{l}`: `{shlex.join(x) or '(defaults)'}`" for l, x in args["ears_configs"]),
                          ears_sweep=", ".join(args["ears_thresholds"]) or "none",
                          kws_sweep=", ".join([config.KWS_DEFAULT, *config.KWS_SWEEP]))
            open(doc, "w").write(report.render(os.path.join(HERE, "benchmark.md.in"), values))
            log(f"wake: wrote {doc} and {target}")
    print("\n".join(md))


def corpus_table(manifest: dict, stream_list: list[streams.Stream]) -> str:
    lines = ["| stream | files | audio (min) |", "|---|---|---|"]
    for s in stream_list:
        lines.append(f"| {s.name} | {len(s.items)} | {s.seconds / 60:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main(sys.argv[1:])
