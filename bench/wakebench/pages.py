"""The wake benchmark's pages: a run's raw results scored and written out.

`write_outputs` is what bench/wake.py calls after a run (and again with --rescore, on
the kept raw results): OUT/wake.md, OUT/wake.json, the DET plot and, with --doc, the
document rendered from bench/benchmark.md.in. Every figure on those pages comes from
here or from the modules it calls (scoring, report, compare); nothing is typed by hand.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from pathlib import Path

from . import compare, config, cpu, report, runners, scoring, streams, training
from .corpus import BENCH, log

ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
from docblock import replace_block  # noqa: E402  (bench/docblock.py, beside this package)


def write_outputs(raw: dict, out: str, doc: str | None) -> None:
    """Scores a run's raw results and writes its pages: OUT/wake.md, OUT/wake.json and the
    DET plot; with `doc`, the document from bench/benchmark.md.in, its .json summary and
    its -det.png (and, for a full run's docs/benchmark.md, the README's detection sentence);
    with the run's --compare, the figures beside the committed ones on stdout."""
    args = raw["args"]
    manifest = json.load(open(os.path.join(raw["corpus"]["path"], "manifest.json")))
    items = {i["file"]: i for i in manifest["items"]}
    stream_list = [streams.Stream(s["name"], s["kind"], s["condition"], s["wav"], s["seconds"],
                                  [items[f] for f in s["files"]], s["starts"], s.get("recipe", ""), s.get("digest", "")) for s in raw["streams"]]
    plan = [r for r in runners.plan(args["phrases"], [(l, list(x)) for l, x in args["ears_configs"]], args["ears_thresholds"],
                                    args["peers"], args.get("trained_sweep")) if not args.get("systems") or r.family in args["systems"].split(",")]
    results = [runners.Result.from_json(r) for r in raw["results"]]
    trained = args.get("training")
    splits, training_times = {}, {}
    # Without this run's training, the engines the named models never heard, as told (--held-out-engines).
    held_out = tuple(trained["held_out_engines"]) if trained else tuple(args.get("held_out_engines") or ())
    if held_out:
        # No model heard an engine `ears train` cannot synthesize (config.UNTRAINED_ENGINES).
        held_out = config.with_untrained(held_out)
    if trained:
        splits[training.TRAINED_LABEL] = config.VoiceSplit("engine", held_out)
        training_times[training.TRAINED_LABEL] = {p["phrase"]: [p["wall_s"], p["cpu_s"]] for p in trained["phrases"]}
    if trained or held_out:
        # A configuration naming trained models of its own (--models-dir, not the empty one)
        # is scored on the same held-out engine, assumed trained with the same split.
        for label in config.labels_with_own_models(args["ears_configs"]):
            splits.setdefault(label, config.VoiceSplit("engine", held_out))
    metrics = scoring.score(plan, results, stream_list, args["phrases"], splits, training_times)
    alone = {x.system: x for x in map(cpu.Alone.from_json, raw.get("cpu_alone", []))}
    conds = [c for c in [c.name for c in config.CONDITIONS] if c in args["conditions"]]
    png = report.det_plot(metrics, out)
    run = raw["run"]
    head = compare.headline(metrics)
    tables = dict(summary_table=report.summary_table(metrics, conds), negatives_table=report.negatives_table(metrics),
                  negatives_by_voice_table=report.negatives_by_voice_table(metrics),
                  common_table=report.common_table(metrics, conds), engine_table=report.engine_table(metrics, conds),
                  voice_table=report.held_out_voice_table(metrics, conds),
                  equal_rate_table=compare.equal_rate_table(metrics, [c for c in config.EQUAL_RATE_CONDITIONS if c in conds]),
                  phrase_table=report.phrase_table(metrics, args["phrases"], conds), sweep_table=report.sweep_table(metrics),
                  targets_table=report.targets_table(metrics, alone), split_table=report.split_table(metrics),
                  training_table=report.training_table(trained), corpus_table=corpus_table(manifest, stream_list),
                  headline="\n".join(f"- **{k}**: {v}" for k, v in head.items() if k != "best peer") +
                           (f"\n- best peer at pink 10 dB: **{head['best peer']}**" if "best peer" in head else ""),
                  run_table="\n".join(["| step | wall time (min) |", "|---|---|"] +
                                      [f"| {k} | {v / 60:.1f} |" for k, v in raw["phases"].items()]) +
                            "\n\n" + cost_table(plan, results, raw.get("executed", []), trained))
    md = [f"# Wake benchmark ({run['date']}; {run['version']}, repository at {run['commit']}; `{run['command']}`; "
          f"it took {raw['phases'].get('total', 0) / 60:.0f} min)", "",
          "## Headline (every phrase each system has, every voice; 95% intervals)", "", tables["headline"], "",
          "## Every system at its default (recall: every voice, every phrase it has; 95% intervals)", "", tables["summary_table"], "",
          "## False wakes per hour by kind of negative", "", tables["negatives_table"], "",
          "Read speech (clean and 10 dB) by the voices that read it:", "", tables["negatives_by_voice_table"], "",
          "## hey jarvis + alexa only (every system has them)", "", tables["common_table"], "",
          "## At equal false-wake rate", "", tables["equal_rate_table"], "",
          "## Per engine (voices a system never heard apart)", "", tables["engine_table"], "",
          "Held-out voices one by one:", "", tables["voice_table"], "",
          "## Issue 20's targets", "", tables["targets_table"], "",
          "## Training", "", tables["training_table"], "",
          "## Per phrase", "", tables["phrase_table"], "", "## Every setting (DET points)", "", tables["sweep_table"], "",
          "## Streams", "", tables["corpus_table"], "", "## Run", "", tables["run_table"], ""]
    open(os.path.join(out, "wake.md"), "w").write("\n".join(md))
    now = compare.figures(metrics)
    json.dump(dict(metrics=[m.to_json() for m in metrics], figures=now, raw=raw), open(os.path.join(out, "wake.json"), "w"), indent=1)
    if doc:
        target = os.path.join(os.path.dirname(os.path.abspath(doc)), os.path.basename(doc).replace(".md", "-det.png"))
        shutil.copyfile(png, target)
        summary = os.path.splitext(doc)[0] + ".json"
        json.dump(dict(commit=run["commit"], command=run["command"], date=run["date"], figures=now), open(summary, "w"), indent=1)
        values = dict(tables, command=run["command"], date=run["date"], version=run["version"], commit=run["commit"],
                      machine=run["machine"], wall_minutes=f"{raw['phases'].get('total', 0) / 60:.0f}",
                      corpus_command="bench/corpus.py OUT " + shlex.join(raw["corpus"]["args"]),
                      det_png=os.path.basename(target), voices=", ".join(args["voices"]),
                      tuning_voices=", ".join(sorted(config.TUNING_VOICES)),
                      phrases=", ".join(f'"{p}"' for p in args["phrases"]),
                      ears_configs="; ".join(f"`{l}`: `{shlex.join(x) or '(defaults)'}`" for l, x in args["ears_configs"]),
                      ears_sweep=", ".join(args["ears_thresholds"]) or "none",
                      trained_sweep=", ".join(config.TRAINED_SCORE_SWEEP + args.get("trained_sweep", config.TRAINED_SWEEP)), kws_sweep=", ".join([config.KWS_DEFAULT, *config.KWS_SWEEP]),
                      porcupine_sweep=", ".join(config.PORCUPINE_SWEEP),
                      kind="Quick run (`make bench-wake-quick`): the everyday guard, not the benchmark" if args.get("quick")
                      else "The benchmark (`make bench-wake`)")
        open(doc, "w").write(report.render(os.path.join(BENCH, "benchmark.md.in"), values))
        log(f"wake: wrote {doc}, {summary} and {target}")
        if not args.get("quick") and os.path.basename(doc) == "benchmark.md":
            sentence = compare.readme_sentence(metrics, run["commit"], run["date"])
            replace_block(Path(ROOT, "README.md"), "bench-wake", "bench/wake.py", [sentence])
            log("wake: wrote its headline into README.md")
    print("\n".join(md))
    if args.get("compare_to"):
        rel = os.path.relpath(os.path.abspath(args["compare_to"]), ROOT)
        before = compare.committed(rel, ROOT)
        print(f"\n## Beside the committed figures ({rel} at HEAD{'' if before else ': none committed'})\n")
        print(compare.beside(now, (before or {}).get("figures")))


def cost_table(plan: list[runners.Run], results: list[runners.Result], executed: list[list[str]],
               trained: dict | None) -> str:
    """Where this run's time went: per system, the scans it ran and their CPU seconds,
    the scans kept from earlier runs, and training."""
    system = {r.key: r.system for r in plan}
    ran = {(k, s) for k, s in executed}
    rows: dict[str, list[float]] = {}
    for r in results:
        row = rows.setdefault(system.get(r.run, r.run), [0, 0, 0.0])
        if (r.run, r.stream) in ran:
            row[0] += 1
            row[2] += r.cpu_s
        else:
            row[1] += 1
    lines = ["| system | scans run | scans kept | CPU s of the scans run |", "|---|---|---|---|"]
    lines += [f"| {k} | {v[0]:.0f} | {v[1]:.0f} | {v[2]:.0f} |" for k, v in rows.items()]
    if trained:
        fresh = [p for p in trained["phrases"] if not p.get("cached")]
        lines.append(f"| ears train ({len(fresh)} of {len(trained['phrases'])} phrases trained in this run) | — | — | "
                     f"{sum(p['cpu_s'] for p in fresh):.0f} |")
    return "\n".join(lines)


def corpus_table(manifest: dict, stream_list: list[streams.Stream]) -> str:
    """The streams this run read: files and minutes of audio each."""
    lines = ["| stream | files | audio (min) |", "|---|---|---|"]
    for s in stream_list:
        lines.append(f"| {s.name} | {len(s.items)} | {s.seconds / 60:.1f} |")
    return "\n".join(lines)
