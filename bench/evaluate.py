#!/usr/bin/env python3
"""Runs `ears scan --json` over a corpus made by bench/corpus.py and reports,
per condition: recall, false accepts per hour, wake latency after the phrase
ends (p50/p95), CPU seconds per audio second and peak RSS.

usage: bench/evaluate.py EARS CORPUS [--label L] [--json OUT] [-- extra ears scan args]
"""
import argparse, json, os, subprocess, sys, tempfile
from collections import defaultdict


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def scan(ears, files, extra):
    """One ears scan process over files; returns (wakes by file, summary, peak RSS KiB)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        cmd = ["/usr/bin/time", "-f", "%M", "-o", tf.name, ears, "scan", "--json", *extra, *files]
        out = subprocess.run(cmd, capture_output=True, text=True)
        rss = int(open(tf.name).read().strip().splitlines()[-1] or 0)
    wakes, summary = defaultdict(list), {}
    for line in out.stdout.splitlines():
        event = json.loads(line)
        if event["event"] == "wake":
            wakes[event["file"]].append(event)
        elif event["event"] == "summary":
            summary = event
        elif event["event"] == "error":
            print("error:", event, file=sys.stderr)
    return wakes, summary, rss


def evaluate(ears, corpus, extra, phrases=None):
    manifest = json.load(open(os.path.join(corpus, "manifest.json")))
    items = manifest["items"]
    phrase_args = []
    for p in phrases or manifest["phrases"]:
        phrase_args += ["--phrase", p]
    groups = defaultdict(list)
    for item in items:
        groups[(item["voice"], item["condition"])].append(item)
    stats = defaultdict(lambda: dict(pos=0, hits=0, latencies=[], neg_s=0.0, fa=0, audio_s=0.0, cpu_s=0.0, rss=0, early=0,
                                     alike=0, alike_fa=0))
    for (voice, condition), group in sorted(groups.items()):
        wakes, summary, rss = scan(ears, [i["file"] for i in group], phrase_args + extra)
        for key in (condition, "all"):
            s = stats[key]
            s["audio_s"] += summary.get("audio_s", 0)
            s["cpu_s"] += summary.get("cpu_s", 0)
            s["rss"] = max(s["rss"], rss)
        for item in group:
            found = wakes.get(item["file"], [])
            for key in (condition, "all"):
                s = stats[key]
                if item["kind"] == "positive":
                    s["pos"] += 1
                    right = [w for w in found if w["phrase"] == item["phrase"] and w["t"] >= item["phrase_end"] - 0.5]
                    if right:
                        s["hits"] += 1
                        s["latencies"].append(right[0]["t"] - item["phrase_end"])
                    s["fa"] += len(found) - (1 if right else 0)
                    s["early"] += len(found) - len(right)
                elif item["kind"] == "soundalike":
                    s["alike"] += 1
                    s["alike_fa"] += 1 if found else 0
                else:
                    s["neg_s"] += item["seconds"]
                    s["fa"] += len(found)
    rows = {}
    for key, s in stats.items():
        rows[key] = dict(
            recall=s["hits"] / s["pos"] if s["pos"] else None,
            positives=s["pos"],
            false_accepts=s["fa"],
            negative_hours=s["neg_s"] / 3600,
            fa_per_hour=(s["fa"] / (s["neg_s"] / 3600)) if s["neg_s"] else None,
            latency_p50=percentile(s["latencies"], 50),
            latency_p95=percentile(s["latencies"], 95),
            cpu_per_audio_s=s["cpu_s"] / s["audio_s"] if s["audio_s"] else None,
            peak_rss_mb=s["rss"] / 1024,
            soundalikes=s["alike"],
            soundalike_wakes=s["alike_fa"],
        )
    return rows


def fmt(v, spec):
    return "—" if v is None else format(v, spec)


def markdown(label, rows):
    lines = [f"| {label} | condition | recall | false accepts (per hour of negative speech) | sound-alikes that woke | latency p50 / p95 (s) | CPU s per audio s | peak RSS (MB) |",
             "|---|---|---|---|---|---|---|---|"]
    order = ["clean", "snr20", "snr10", "snr5", "all"]
    for key in sorted(rows, key=lambda k: order.index(k) if k in order else 99):
        r = rows[key]
        lines.append(f"| {label} | {key} | {fmt(r['recall'], '.1%')} ({r['positives']}) | {r['false_accepts']} ({fmt(r['fa_per_hour'], '.2f')}/h over {fmt(r['negative_hours'], '.2f')} h) "
                     f"| {r['soundalike_wakes']}/{r['soundalikes']} | {fmt(r['latency_p50'], '.2f')} / {fmt(r['latency_p95'], '.2f')} | {fmt(r['cpu_per_audio_s'], '.3f')} | {fmt(r['peak_rss_mb'], '.0f')} |")
    return "\n".join(lines)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = argparse.ArgumentParser()
    ap.add_argument("ears")
    ap.add_argument("corpus")
    ap.add_argument("--label", default="ears")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    rows = evaluate(args.ears, args.corpus, extra)
    print(markdown(args.label, rows))
    if args.json:
        json.dump(dict(label=args.label, extra=extra, rows=rows), open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
