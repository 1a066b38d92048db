#!/usr/bin/env python3
"""The wake-detector benchmark: ears against its peers, on the same audio, in one run.

Corpus (bench/corpus.py, cached in OUT keyed by its arguments and corpus.py itself):
each phrase, a pause, then a command, said by every voice, clean and with pink
noise at 20, 10 and 5 dB SNR; negatives: Debian fortunes read by the same voices
(none says a phrase), plus sound-alike sentences for each phrase.

Systems (every one listens for all phrases at once):
  ears             `ears scan` at its default threshold, and a threshold sweep
  exact match      `ears scan --threshold 1.0`: full transcription, the phrase's
                   exact text must be in the transcript
  kws              `pocketsphinx_continuous -kws` (PocketSphinx keyphrase search),
                   a threshold sweep; each condition's files are joined into one
                   long WAV with known offsets and detections mapped back to files

Metrics per system, phrase and condition: recall, false accepts per hour of the
fortunes negatives (sound-alike wakes separately), wake latency after the phrase
ends (p50, p95), CPU seconds per audio second, peak RSS; the targets and by how
much each is missed; a miss-rate vs false-accepts-per-hour plot (gnuplot).

usage: bench/wake.py EARS [--out DIR] [--jobs N] [--doc docs/benchmark.md] [--quick]
Writes OUT/wake.md, OUT/wake.json, OUT/wake-det.png; with --doc, also the whole
docs/benchmark.md (from bench/benchmark.md.in) and docs/benchmark-det.png next to it.
"""
import argparse, bisect, concurrent.futures, datetime, hashlib, json, os, platform, re, shlex, shutil
import subprocess, sys, tempfile, threading, time, wave
from collections import defaultdict

from evaluate import percentile  # the same interpolated percentile as the phrase-boost table

HERE = os.path.dirname(os.path.abspath(__file__))
PHRASES = ["hey cordelia", "okay jarvis", "good morning cordelia"]
VOICES = ["flite-kal16", "flite-awb", "flite-rms", "flite-slt", "festival-kal", "espeak-us", "espeak-gb-f"]
CONDITIONS = ["clean", "snr20", "snr10", "snr5"]
CONDITION_NAMES = {"clean": "clean", "snr20": "20 dB", "snr10": "10 dB", "snr5": "5 dB"}
EARS_SWEEP = [0.6, 0.7, 0.9]
KWS_SWEEP = ["1e-5", "1e-15", "1e-30", "1e-50"]
SWEEP_CONDITIONS = ["clean", "snr10"]
TARGETS = dict(recall_clean=0.95, recall_snr10=0.85, fa_per_hour=0.5, latency_p50=0.4, latency_p95=0.8)
# Seconds of audio per ears process: positives, negatives (small, so that more
# of them can be skipped at higher thresholds; see prune).
CHUNK_S = {"positive": 600, "other": 75}
# Rough CPU seconds per audio second, only to order the work (longest first).
COST = {"ears": 0.12, "kws": 0.025}


# ---------------------------------------------------------------- helpers

def log(*a):
    print(*a, file=sys.stderr, flush=True)


def timed(cmd):
    """Runs cmd under /usr/bin/time; returns (stdout, stderr, returncode, wall, cpu user+sys, peak RSS KiB)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", tf.name, *cmd], capture_output=True, text=True)
        fields = open(tf.name).read().strip().splitlines()[-1].split()
    wall, user, system, rss = float(fields[0]), float(fields[1]), float(fields[2]), int(fields[3])
    return p.stdout, p.stderr, p.returncode, wall, user + system, rss


# ---------------------------------------------------------------- corpus

def corpus_args(a):
    return ["--negative-minutes", f"{float(a.negative_minutes):g}", "--phrases", ",".join(a.phrases),
            "--voices", ",".join(a.voices), "--snrs", ",".join(c[3:] for c in a.conditions if c != "clean"),
            "--negative-snrs", "", "--vary"]


def make_corpus(a):
    """Builds the corpus (or finds it cached): its directory and manifest."""
    args = corpus_args(a)
    key = hashlib.sha1((json.dumps(args) + open(os.path.join(HERE, "corpus.py"), "rb").read().hex()).encode()).hexdigest()[:12]
    path = os.path.join(a.out, f"wake-corpus-{key}")
    manifest = os.path.join(path, "manifest.json")
    started = time.time()
    made = os.path.join(path, "made.json")
    if not os.path.exists(manifest):
        if os.path.isdir(path):
            shutil.rmtree(path)
        log(f"wake: making the corpus in {path} (bench/corpus.py {' '.join(shlex.quote(x) for x in args)})")
        subprocess.run([sys.executable, os.path.join(HERE, "corpus.py"), path, *args, "--jobs", str(a.jobs)], check=True,
                       stdout=sys.stderr)
        json.dump(dict(seconds=time.time() - started, jobs=a.jobs), open(made, "w"))
        cached = None
    else:
        log(f"wake: corpus cached in {path}")
        cached = json.load(open(made))["seconds"] if os.path.exists(made) else 0.0
    return path, json.load(open(manifest)), args, time.time() - started, cached


def join_wavs(files, out):
    """Joins 16 kHz mono S16 WAVs into one; returns each file's start in seconds."""
    starts, frames = [], 0
    with wave.open(out + ".tmp", "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000)
        for f in files:
            with wave.open(f, "rb") as r:
                assert (r.getnchannels(), r.getsampwidth(), r.getframerate()) == (1, 2, 16000), f
                starts.append(frames / 16000)
                n = r.getnframes()
                w.writeframes(r.readframes(n))
                frames += n
    os.replace(out + ".tmp", out)
    return starts, frames / 16000


# ---------------------------------------------------------------- systems

class System:
    def __init__(self, key, label, kind, args, conditions, peer, threshold=None, soundalikes=True, base=None):
        self.key, self.label, self.kind, self.args = key, label, kind, args
        self.conditions, self.peer, self.threshold, self.soundalikes = conditions, peer, threshold, soundalikes
        # base: an ears system at a lower threshold; a chunk of files in which
        # it did not wake is not scanned again (see prune below).
        self.base = base


def systems(a):
    """ears at its default threshold (every condition), the ears threshold sweep
    (the sweep conditions, no sound-alikes) and the exact-match peer (the sweep
    conditions), kws at each threshold (every condition)."""
    sweep = [c for c in a.conditions if c in a.sweep_conditions]
    out = [System("ears", "ears (default threshold)", "ears", [], a.conditions, False, "default")]
    thresholds = sorted(a.ears_thresholds)
    base = None
    for t in thresholds:
        s = System(f"ears-{t:g}", f"ears, threshold {t:g}", "ears", ["--threshold", f"{t:g}"], sweep, False, f"{t:g}",
                   soundalikes=False, base=base if a.prune else None)
        base = base or s
        out.append(s)
    out.append(System("exact", "exact text match (ears --threshold 1.0)", "ears", ["--threshold", "1.0"], sweep, True, "1.0",
                      base=base if a.prune else None))
    for t in a.kws_thresholds:
        out.append(System(f"kws-{t}", f"pocketsphinx kws, threshold {t}", "kws", [t], a.conditions, True, t))
    return out


def groups(manifest, conditions):
    """The corpus's files in groups that are scanned together: positives per
    condition, negatives, sound-alikes (negatives in chunks of about 10 minutes)."""
    out = defaultdict(list)
    for item in manifest["items"]:
        if item["kind"] == "positive":
            if item["condition"] in conditions:
                out[f"pos-{item['condition']}"].append(item)
        else:
            out[f"{item['kind']}-{item['condition']}"].append(item)
    return out


def chunks(items, seconds):
    out, cur, total = [], [], 0.0
    for item in items:
        cur.append(item)
        total += item["seconds"]
        if total >= seconds:
            out.append(cur); cur, total = [], 0.0
    if cur:
        out.append(cur)
    return out


def run_ears(ears, system, phrases, items):
    cmd = [ears, "scan", "--json"]
    for p in phrases:
        cmd += ["--phrase", p]
    cmd += system.args + [i["file"] for i in items]
    stdout, stderr, rc, wall, cpu, rss = timed(cmd)
    detections, summary, errors = [], None, []
    for line in stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            errors.append(line); continue
        if event.get("event") == "wake":
            detections.append(dict(file=event["file"], phrase=event["phrase"], t=event["t"], score=event.get("score"),
                                   piece=event.get("piece")))
        elif event.get("event") == "summary":
            summary = event
        elif event.get("event") == "error":
            errors.append(event)
    if rc != 0 or summary is None or errors:
        raise RuntimeError(f"ears scan failed (exit {rc}): {errors or stderr.strip()[-500:]}\n  {shlex.join(cmd[:12])} ...")
    return dict(detections=detections, audio_s=summary["audio_s"], cpu_s=cpu, wall_s=wall, rss_kb=rss,
                own_cpu_s=summary.get("cpu_s"), load_s=summary.get("load_s"), near_misses=summary.get("near_misses"))


KWS_LINE = re.compile(r"^(\S.*?)\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+(-?[\d.e+-]+)\s*$")


def run_kws(system, phrases, joined, work):
    wav, starts, files, total = joined
    kws_file = os.path.join(work, f"kws-{system.threshold}.txt")
    with open(kws_file, "w") as f:
        for p in phrases:
            f.write(f"{p} /{system.threshold}/\n")
    cmd = ["pocketsphinx_continuous", "-infile", wav, "-kws", kws_file, "-time", "yes", "-logfn", "/dev/null"]
    stdout, stderr, rc, wall, cpu, rss = timed(cmd)
    if rc != 0:
        raise RuntimeError(f"pocketsphinx_continuous failed (exit {rc}): {stderr.strip()[-500:]}")
    detections = []
    for line in stdout.splitlines():
        m = KWS_LINE.match(line)
        if not m:
            continue
        phrase, end = m.group(1).strip(), float(m.group(3))
        # The keyphrase's last frame is when the search decides; map it to its file.
        i = max(0, bisect.bisect_right(starts, end) - 1)
        detections.append(dict(file=files[i], phrase=phrase, t=round(end - starts[i], 3), score=float(m.group(4)), piece=None))
    return dict(detections=detections, audio_s=total, cpu_s=cpu, wall_s=wall, rss_kb=rss)


# ---------------------------------------------------------------- scoring

def score(system, runs, manifest, phrases):
    """Metrics for one system from its detections."""
    items = {i["file"]: i for i in manifest["items"]}
    by_file = defaultdict(list)
    audio = cpu = 0.0
    rss = 0
    own_cpu = load = 0.0
    pruned = 0.0
    for r in runs:
        for d in r["detections"]:
            by_file[d["file"]].append(d)
        if r.get("pruned"):
            pruned += r["audio_s"]
            continue
        audio += r["audio_s"]; cpu += r["cpu_s"]; rss = max(rss, r["rss_kb"])
        own_cpu += r.get("own_cpu_s") or 0.0; load = max(load, r.get("load_s") or 0.0)
    neg_s = sum(i["seconds"] for i in manifest["items"] if i["kind"] == "negative")
    alike_files = [i for i in manifest["items"] if i["kind"] == "soundalike"]
    cells = {}
    for phrase in phrases + ["all"]:
        want = (lambda p: True) if phrase == "all" else (lambda p, phrase=phrase: p == phrase)
        for cond in system.conditions + ["all"]:
            pos = [i for i in manifest["items"] if i["kind"] == "positive" and (cond == "all" and i["condition"] in system.conditions or i["condition"] == cond)
                   and want(i["phrase"])]
            hits, lat, extra, volatile = 0, [], 0, 0
            for item in pos:
                found = sorted(by_file.get(item["file"], []), key=lambda d: d["t"])
                # A wake for the phrase from the moment it starts counts (one before its end has a negative latency).
                start = item.get("phrase_start", item["phrase_end"] - 0.5)
                right = [d for d in found if d["phrase"] == item["phrase"] and d["t"] >= start]
                if right:
                    hits += 1
                    lat.append(right[0]["t"] - item["phrase_end"])
                    volatile += right[0]["piece"] == "volatile"
                extra += sum(1 for d in found if want(d["phrase"])) - (1 if right else 0)
            cells[(phrase, cond)] = dict(positives=len(pos), hits=hits, recall=hits / len(pos) if pos else None,
                                         latency_p50=percentile(lat, 50), latency_p95=percentile(lat, 95),
                                         latencies=[round(x, 3) for x in lat], extra_wakes_on_positives=extra,
                                         volatile_hits=volatile)
        fa = sum(1 for i in manifest["items"] if i["kind"] == "negative" for d in by_file.get(i["file"], []) if want(d["phrase"]))
        alike_woke = sum(1 for i in alike_files if any(want(d["phrase"]) for d in by_file.get(i["file"], [])))
        own = [i for i in alike_files if phrase == "all" or i.get("alike_of") == phrase]
        own_woke = sum(1 for i in own if any(want(d["phrase"]) for d in by_file.get(i["file"], [])))
        if not system.soundalikes:
            alike_woke = own_woke = None
        cells[(phrase, "negatives")] = dict(false_accepts=fa, negative_hours=neg_s / 3600,
                                            fa_per_hour=fa / (neg_s / 3600) if neg_s else None,
                                            soundalike_files=len(alike_files), soundalikes_woken=alike_woke,
                                            own_soundalikes=len(own), own_soundalikes_woken=own_woke)
    return dict(key=system.key, label=system.label, kind=system.kind, peer=system.peer, threshold=system.threshold,
                conditions=system.conditions, audio_s=audio, pruned_audio_s=pruned, base=system.base.key if system.base else None,
                cpu_s=cpu, cpu_per_audio_s=cpu / audio if audio else None,
                own_cpu_per_audio_s=own_cpu / audio if system.kind == "ears" and audio else None,
                load_s=load if system.kind == "ears" else None, peak_rss_mb=rss / 1024,
                cells={f"{p}|{c}": v for (p, c), v in cells.items()})


def cell(m, phrase, cond):
    return m["cells"].get(f"{phrase}|{cond}")


def curve_points(metrics, cond, pred):
    """(fa/h, recall, system) for the systems matching pred that ran cond, pooled over phrases."""
    out = []
    for m in metrics:
        if pred(m) and cell(m, "all", cond):
            out.append((cell(m, "all", "negatives")["fa_per_hour"], cell(m, "all", cond)["recall"], m))
    return sorted(out, key=lambda x: (x[0], -x[1]))


def compare_peers(metrics, conditions):
    """For every peer setting and condition: ears's best recall at a false-accept rate
    no higher than the peer's (ears's own settings only, not the exact-match peer)."""
    rows = []
    for cond in conditions:
        ears = curve_points(metrics, cond, lambda m: m["kind"] == "ears" and not m["peer"])
        for fa, recall, m in curve_points(metrics, cond, lambda m: m["peer"]):
            eligible = [(r, f, e) for f, r, e in ears if f <= fa + 1e-9]
            best = max(eligible, key=lambda x: (x[0], -x[1])) if eligible else None
            row = dict(condition=cond, peer=m["label"], peer_fa_per_hour=fa, peer_recall=recall,
                       ears=best[2]["label"] if best else None, ears_fa_per_hour=best[1] if best else None,
                       ears_recall=best[0] if best else None)
            if best is None:
                row["verdict"] = "behind"
                lowest = min(f for f, _, _ in ears) if ears else None
                row["gap"] = (f"no ears setting has ≤ {fa:.2f} false accepts/h (lowest: {lowest:.2f}/h)" if lowest is not None
                              else "ears did not run this condition")
            elif best[0] > recall:
                row["verdict"], row["gap"] = "ahead", f"+{(best[0] - recall) * 100:.1f} points"
            elif best[0] == recall:
                row["verdict"], row["gap"] = "level", "0.0 points"
            else:
                row["verdict"], row["gap"] = "behind", f"{(best[0] - recall) * 100:.1f} points of recall"
            rows.append(row)
    return rows


def targets(m, phrases):
    """The targets for one system (ears at its default), per phrase and for all phrases."""
    rows = []
    for phrase in phrases + ["all"]:
        name = "all phrases" if phrase == "all" else phrase
        checks = [
            ("recall, clean", cell(m, phrase, "clean")["recall"] if cell(m, phrase, "clean") else None, TARGETS["recall_clean"], "≥", "pct"),
            ("recall, 10 dB SNR", cell(m, phrase, "snr10")["recall"] if cell(m, phrase, "snr10") else None, TARGETS["recall_snr10"], "≥", "pct"),
            ("false accepts per hour", cell(m, phrase, "negatives")["fa_per_hour"], TARGETS["fa_per_hour"], "≤", "rate"),
            ("latency p50 (s), all conditions", cell(m, phrase, "all")["latency_p50"], TARGETS["latency_p50"], "≤", "s"),
            ("latency p95 (s), all conditions", cell(m, phrase, "all")["latency_p95"], TARGETS["latency_p95"], "≤", "s"),
        ]
        for what, value, target, op, unit in checks:
            if value is None:
                met, by = False, "not measured (no detections)"
            else:
                met = value >= target if op == "≥" else value <= target
                gap = abs(value - target)
                by = ("—" if met else
                      f"{gap * 100:.1f} points short" if unit == "pct" else
                      f"{gap:.2f}/h over" if unit == "rate" else f"{gap:.2f} s over")
            rows.append(dict(phrase=name, target=what, op=op, goal=target, value=value, unit=unit, met=met, by=by))
    return rows


# ---------------------------------------------------------------- output

def pct(v):
    return "—" if v is None else f"{v * 100:.1f}%"


def frac(a, b):
    return "not run" if a is None else f"{a}/{b}"


def sec(v):
    return "—" if v is None else f"{v:.2f}"


def fmt_target(row):
    if row["unit"] == "count":
        return f"| {row['phrase']} | {row['target']} | every comparison | {row['value']} | {'yes' if row['met'] else 'no'} | {row['by']} |"
    f = (lambda v: pct(v)) if row["unit"] == "pct" else (lambda v: "—" if v is None else f"{v:.2f}")
    return f"| {row['phrase']} | {row['target']} | {row['op']} {f(row['goal'])} | {f(row['value'])} | {'yes' if row['met'] else 'no'} | {row['by']} |"


def tables(res):
    metrics, phrases, conds = res["metrics"], res["phrases"], res["conditions"]
    out = {}
    # Summary, pooled over phrases.
    head = "| system | " + " | ".join(f"recall {CONDITION_NAMES[c]}" for c in conds) + \
           " | false accepts (per hour) | sound-alikes that woke | latency p50 / p95 (s), clean | CPU s per audio s | peak RSS (MB) |"
    lines = [head, "|" + "---|" * (len(conds) + 6)]
    for m in metrics:
        neg = cell(m, "all", "negatives")
        recall = [pct(cell(m, "all", c)["recall"]) if cell(m, "all", c) else "—" for c in conds]
        clean = cell(m, "all", "clean")
        lines.append(f"| {m['label']} | " + " | ".join(recall) +
                     f" | {neg['false_accepts']} ({neg['fa_per_hour']:.2f}/h) | {frac(neg['soundalikes_woken'], neg['soundalike_files'])}"
                     f" | {sec(clean and clean['latency_p50'])} / {sec(clean and clean['latency_p95'])}" +
                     (f" | {m['cpu_per_audio_s']:.3f} | {m['peak_rss_mb']:.0f} |" if m["key"] == "ears" or m["kind"] != "ears"
                      else " | as above | as above |"))
    out["summary"] = "\n".join(lines)
    # Per phrase and condition.
    lines = ["| system | phrase | condition | recall (hits/positives) | latency p50 / p95 (s) | other wakes on positives | false accepts (per hour) | own sound-alikes that woke |",
             "|---|---|---|---|---|---|---|---|"]
    for m in metrics:
        for p in phrases:
            neg = cell(m, p, "negatives")
            for c in m["conditions"]:
                x = cell(m, p, c)
                lines.append(f"| {m['label']} | {p} | {CONDITION_NAMES[c]} | {pct(x['recall'])} ({x['hits']}/{x['positives']}) | "
                             f"{sec(x['latency_p50'])} / {sec(x['latency_p95'])} | {x['extra_wakes_on_positives']} | "
                             f"{neg['false_accepts']} ({neg['fa_per_hour']:.2f}/h) | {frac(neg['own_soundalikes_woken'], neg['own_soundalikes'])} |")
    out["per_phrase"] = "\n".join(lines)
    # Targets.
    lines = ["| phrase | target | goal | measured | met | missed by |", "|---|---|---|---|---|---|"]
    lines += [fmt_target(r) for r in res["targets"]]
    out["targets"] = "\n".join(lines)
    # Peers.
    lines = ["| condition | peer setting | peer: false accepts/h, recall | ears at ≤ that rate | ears: false accepts/h, recall | ears is | by |",
             "|---|---|---|---|---|---|---|"]
    for r in res["peers"]:
        lines.append(f"| {CONDITION_NAMES[r['condition']]} | {r['peer']} | {r['peer_fa_per_hour']:.2f}, {pct(r['peer_recall'])} | "
                     f"{r['ears'] or '—'} | " + (f"{r['ears_fa_per_hour']:.2f}, {pct(r['ears_recall'])}" if r["ears"] else "—") +
                     f" | {r['verdict']} | {r['gap']} |")
    out["peers"] = "\n".join(lines)
    # Corpus.
    c = res["corpus"]
    lines = ["| part | files | audio (min) |", "|---|---|---|"]
    for name, (n, s) in c["parts"].items():
        lines.append(f"| {name} | {n} | {s / 60:.1f} |")
    out["corpus"] = "\n".join(lines)
    # Run.
    lines = ["| step | wall time (s) |", "|---|---|"]
    for name, s in res["run"]["phases"].items():
        lines.append(f"| {name} | {s:.0f} |")
    out["run"] = "\n".join(lines)
    return out


def summary_sentences(res):
    t = res["targets"]
    allp = [r for r in t if r["phrase"] == "all phrases" and r["unit"] != "count"]
    t = [r for r in t if r["unit"] != "count"]
    missed = [r for r in t if not r["met"]]
    peers = res["peers"]
    behind = [r for r in peers if r["verdict"] == "behind"]
    s = []
    s.append(f"ears at its default threshold meets {sum(r['met'] for r in allp)} of {len(allp)} targets over all phrases "
             f"and {sum(r['met'] for r in t)} of {len(t)} per-phrase and overall checks"
             + (": it misses " + "; ".join(f"{r['target']} for {r['phrase']} ({r['by']})" for r in allp if not r["met"]) if any(not r["met"] for r in allp) else "") + ".")
    s.append(f"Against the peers, at a false-accept rate no higher than theirs, ears is ahead or level in "
             f"{len(peers) - len(behind)} of {len(peers)} comparisons" + (f" and behind in {len(behind)}." if behind else "."))
    return " ".join(s), missed


def det_plot(res, out):
    """The miss rate vs false accepts per hour plot (gnuplot PNG), one panel per sweep condition."""
    metrics = res["metrics"]
    conds = [c for c in res["conditions"] if c in res["sweep_conditions"]] or res["conditions"][:1]
    gp = [f'set terminal pngcairo size {560 * len(conds)},520 font ",10"', f'set output "{out}/wake-det.png"',
          f"set multiplot layout 1,{len(conds)} title \"ears vs peers: miss rate vs false accepts per hour (all phrases pooled)\"",
          "set grid", "set key top right box opaque", 'set xlabel "false accepts per hour (fortunes negatives)"',
          'set ylabel "miss rate (%)"', "set yrange [0:100]"]
    series = [("ears", lambda m: m["kind"] == "ears" and not m["peer"], "lc rgb '#1b7837' pt 7 ps 1.2 lw 2", "1,0.7"),
              ("exact text match", lambda m: m["key"] == "exact", "lc rgb '#762a83' pt 5 ps 1.4", "1,-0.7"),
              ("pocketsphinx kws", lambda m: m["kind"] == "kws", "lc rgb '#d95f02' pt 9 ps 1.2 lw 2", "-1,0.7")]
    for cond in conds:
        goal = (1 - TARGETS["recall_clean"]) * 100 if cond == "clean" else (1 - TARGETS["recall_snr10"]) * 100 if cond == "snr10" else None
        plots = []
        for name, pred, style, offset in series:
            pts = curve_points(metrics, cond, pred)
            dat = f"{out}/wake-det-{cond}-{re.sub('[^a-z]+', '-', name)}.dat"
            labels = {}
            with open(dat, "w") as f:
                for fa, recall, m in pts:
                    f.write(f"{fa:.4f} {(1 - recall) * 100:.2f}\n")
                    labels.setdefault((round(fa, 4), round((1 - recall) * 100, 2)), []).append(m["threshold"])
            with open(dat + ".labels", "w") as f:
                for (x, y), names in labels.items():
                    f.write(f"{x} {y} \"{', '.join(names)}\"\n")
            if pts:
                plots.append(f"'{dat}' using 1:2 with linespoints {style} title '{name}'")
                plots.append(f"'{dat}.labels' using 1:2:3 with labels offset {offset} font ',8' {'right' if offset.startswith('-') else 'left'} notitle")
        most = max([fa for _, pred, _, _ in series for fa, _, _ in curve_points(metrics, cond, pred)] + [TARGETS["fa_per_hour"] * 2])
        gp.append(f"set xrange [{-0.04 * most * 1.1:.3f}:{most * 1.1:.3f}]")
        gp.append(f'set title "{CONDITION_NAMES[cond]}"')
        gp.append("unset arrow")
        gp.append(f"set arrow from {TARGETS['fa_per_hour']}, graph 0 to {TARGETS['fa_per_hour']}, graph 1 nohead dt 2 lc rgb '#888888'")
        if goal is not None:
            gp.append(f"set arrow from graph 0, first {goal} to graph 1, first {goal} nohead dt 2 lc rgb '#888888'")
        gp.append("plot " + ", \\\n  ".join(plots))
    gp.append("unset multiplot")
    script = f"{out}/wake-det.gp"
    open(script, "w").write("\n".join(gp) + "\n")
    subprocess.run(["gnuplot", script], check=True)
    return f"{out}/wake-det.png"


def render_doc(res, tab, template, doc, png):
    text = open(template).read()
    sentence, _ = summary_sentences(res)
    r, c = res["run"], res["corpus"]
    values = dict(
        summary_sentence=sentence,
        summary_table=tab["summary"], per_phrase_table=tab["per_phrase"], targets_table=tab["targets"],
        peers_table=tab["peers"], corpus_table=tab["corpus"], run_table=tab["run"],
        phrases=", ".join(f'"{p}"' for p in res["phrases"]), voices=", ".join(res["voices"]),
        positives=str(c["positives"]), negative_minutes=f"{c['negative_s'] / 60:.1f}",
        negative_speech_minutes=f"{c['negative_speech_s'] / 60:.1f}",
        fa_step=f"{3600 / c['negative_s']:.2f}",
        soundalike_files=str(c["soundalike_files"]), soundalike_texts=str(c["soundalike_texts"]),
        corpus_command=c["command"], command=r["command"], binary=r["binary"], binary_sha256=r["binary_sha256"],
        version=r["version"], commit=r["commit"], date=r["date"], machine=r["machine"], wall_minutes=f"{r['wall_s'] / 60:.1f}",
        ears_sweep=", ".join(f"{t:g}" for t in res["ears_thresholds"]), kws_sweep=", ".join(res["kws_thresholds"]),
        sweep_conditions=", ".join(CONDITION_NAMES[x] for x in res["sweep_conditions"]),
        png=os.path.basename(png),
        chunk_positive=f"{CHUNK_S['positive'] / 60:g}", chunk_other=f"{CHUNK_S['other'] / 60:g}",
        prune_checks="; ".join(f"{k}: {v}" for k, v in res["run"]["prune_checks"].items()) or "no chunk was pruned",
    )
    for k, v in values.items():
        text = text.replace("{{" + k + "}}", v)
    left = re.findall(r"\{\{\w+\}\}", text)
    if left:
        raise RuntimeError(f"template has unknown fields: {left}")
    open(doc, "w").write(text)


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ears")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--negative-minutes", type=float, default=39,
                    help="corpus.py's --negative-minutes (it counts 150 words a minute; the voices speak faster: 39 gives about 30 min of speech)")
    ap.add_argument("--phrases", default=",".join(PHRASES))
    ap.add_argument("--voices", default=",".join(VOICES))
    ap.add_argument("--conditions", default=",".join(CONDITIONS))
    ap.add_argument("--ears-thresholds", default=",".join(f"{t:g}" for t in EARS_SWEEP))
    ap.add_argument("--kws-thresholds", default=",".join(KWS_SWEEP))
    ap.add_argument("--sweep-conditions", default=",".join(SWEEP_CONDITIONS),
                    help="positive conditions the ears threshold sweep and the exact-match peer run on "
                         "(ears's default and kws run on all)")
    ap.add_argument("--no-prune", dest="prune", action="store_false",
                    help="scan every chunk at every threshold (by default a chunk in which the lowest sweep "
                         "threshold did not wake is not scanned at higher ones)")
    ap.add_argument("--doc", help="write the whole benchmark document here (and its plot next to it)")
    ap.add_argument("--quick", action="store_true", help="a small corpus, to try the harness (not for the document)")
    ap.add_argument("--rescore", action="store_true",
                    help="score the scans saved in OUT/wake.json again and rewrite the outputs (no scanning)")
    a = ap.parse_args()
    if a.rescore:
        path = os.path.join(os.path.abspath(a.out), "wake.json")
        report(json.load(open(path))["raw"], os.path.abspath(a.out), a.doc)
        return
    started = time.time()
    a.ears = os.path.abspath(a.ears)
    a.out = os.path.abspath(a.out)
    a.phrases = [p.strip() for p in a.phrases.split(",") if p.strip()]
    a.voices = a.voices.split(",")
    a.conditions = a.conditions.split(",")
    a.sweep_conditions = a.sweep_conditions.split(",")
    a.ears_thresholds = [float(t) for t in a.ears_thresholds.split(",") if t]
    a.kws_thresholds = [t for t in a.kws_thresholds.split(",") if t]
    if a.quick:
        a.voices, a.negative_minutes, a.conditions = ["flite-rms", "espeak-us"], 1, ["clean", "snr10"]
    for tool in ["pocketsphinx_continuous", "gnuplot", "/usr/bin/time", "sox", "flite", "text2wave", "espeak-ng"]:
        if not shutil.which(tool):
            sys.exit(f"wake: {tool} is missing (make setup installs it)")
    if not os.access(a.ears, os.X_OK):
        sys.exit(f"wake: {a.ears} is not an executable")
    os.makedirs(a.out, exist_ok=True)
    phases = {}
    git = lambda *x: subprocess.run(["git", "-C", HERE, *x], capture_output=True, text=True).stdout.strip()
    dirty = git("status", "--porcelain", "--", "../Sources", "../Package.swift")
    commit = (git("rev-parse", "--short", "HEAD") or "unknown") + (" with uncommitted changes in Sources/" if dirty else "")

    corpus, manifest, cargs, phases["corpus"], corpus_cached = make_corpus(a)
    work = os.path.join(corpus, "joined")
    os.makedirs(work, exist_ok=True)
    g = groups(manifest, a.conditions)

    # kws reads one long WAV per group (cached with the corpus).
    t0 = time.time()
    joined = {}
    for name, items in sorted(g.items()):
        wav = os.path.join(work, f"{name}.wav")
        index = wav + ".json"
        files = [i["file"] for i in items]
        if os.path.exists(index) and json.load(open(index))["files"] == files:
            meta = json.load(open(index))
        else:
            starts, total = join_wavs(files, wav)
            meta = dict(files=files, starts=starts, total=total)
            json.dump(meta, open(index, "w"))
        joined[name] = (wav, meta["starts"], meta["files"], meta["total"])
    phases["joining files for kws"] = time.time() - t0

    # The work: one process per (system, group or chunk), --jobs at a time.
    # `ears scan` starts every file from the engine's state as loaded, so a
    # file's result does not depend on its chunk; every ears system still reads
    # the same chunks, which pruning needs. Pruning: a higher threshold only
    # removes wakes (the transcript does not depend on the threshold, nor on
    # what was read before), so a chunk in which the lowest sweep threshold did not
    # wake cannot wake at a higher one and is not scanned again. One such chunk
    # per system is scanned anyway as a check; if it wakes, all of them are.
    syss = systems(a)
    tasks = []
    for s in syss:
        for name, items in sorted(g.items()):
            if name.startswith("pos-") and name[4:] not in s.conditions or name.startswith("soundalike-") and not s.soundalikes:
                continue
            if s.kind == "ears":
                size = CHUNK_S["positive"] if name.startswith("pos-") else CHUNK_S["other"]
                for index, part in enumerate(chunks(items, size)):
                    tasks.append(dict(system=s, group=name, index=index, part=part,
                                      cost=sum(i["seconds"] for i in part) * COST["ears"] * (2 if "snr" in name else 1)))
            else:
                tasks.append(dict(system=s, group=name, index=0, part=None, cost=joined[name][3] * COST["kws"]))
    # Bases first (their results decide what the others scan), then the rest
    # longest first, the pruned ones last: a task never waits on one not yet started.
    rank = lambda t: (0 if any(x.base is t["system"] for x in syss) else 2 if t["system"].base else 1, -t["cost"])
    tasks.sort(key=rank)
    futures, runs, skipped = {}, defaultdict(list), defaultdict(list)
    checked = set()
    lock = threading.Lock()
    done = [0]
    t0 = time.time()

    def scan_task(task):
        s, name = task["system"], task["group"]
        r = run_ears(a.ears, s, a.phrases, task["part"]) if s.kind == "ears" else run_kws(s, a.phrases, joined[name], work)
        r.update(group=name, index=task["index"], pruned=False)
        return r

    def do(task):
        s = task["system"]
        check = False
        if s.base and (s.base.key, task["group"], task["index"]) in futures:
            base = futures[(s.base.key, task["group"], task["index"])].result()
            if not base["detections"]:
                with lock:
                    check = s.key not in checked
                    checked.add(s.key)
                if not check:
                    with lock:
                        skipped[s.key].append(task)
                        done[0] += 1
                    return None
        r = scan_task(task)
        r["prune_check"] = check
        with lock:
            runs[s.key].append(r)
            done[0] += 1
            log(f"wake: [{done[0]}/{len(tasks)}] {s.label}, {task['group']} #{task['index']}: {r['audio_s']:.0f} s of audio, "
                f"{r['cpu_s']:.1f} CPU s, {len(r['detections'])} wakes{' (prune check)' if check else ''} ({time.time() - t0:.0f} s)")
        return r

    log(f"wake: {len(tasks)} scans, {a.jobs} at a time")
    prune_checks = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for task in tasks:
            futures[(task["system"].key, task["group"], task["index"])] = pool.submit(do, task)
        for f in futures.values():
            f.result()
        # A check that woke: pruning does not hold for this binary; scan the rest.
        again = []
        for s in syss:
            check = [r for r in runs[s.key] if r.get("prune_check")]
            if check:
                prune_checks[s.key] = "passed" if not check[0]["detections"] else "failed: every chunk scanned"
            if check and check[0]["detections"]:
                log(f"wake: WARNING: {s.label} woke in a chunk where {s.base.label} did not; scanning all its chunks")
                again += skipped.pop(s.key, [])
        for task, r in zip(again, pool.map(scan_task, again)):
            runs[task["system"].key].append(r)
    for key, ts in skipped.items():
        for task in ts:
            runs[key].append(dict(detections=[], audio_s=sum(i["seconds"] for i in task["part"]), cpu_s=0.0, wall_s=0.0,
                                  rss_kb=0, group=task["group"], index=task["index"], pruned=True))
    phases["scans"] = time.time() - t0
    cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
    raw = dict(
        args=dict(phrases=a.phrases, voices=a.voices, conditions=a.conditions, sweep_conditions=a.sweep_conditions,
                  ears_thresholds=a.ears_thresholds, kws_thresholds=a.kws_thresholds, prune=a.prune),
        corpus=corpus, corpus_args=cargs, corpus_cached=corpus_cached, runs=dict(runs), prune_checks=prune_checks, phases=phases, started=started,
        run=dict(command=" ".join(shlex.quote(x) for x in ["bench/wake.py", *sys.argv[1:]]), binary=a.ears,
                 binary_sha256=hashlib.sha256(open(a.ears, "rb").read()).hexdigest()[:16],
                 version=subprocess.run([a.ears, "--version"], capture_output=True, text=True).stdout.strip(), commit=commit,
                 date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                 machine=f"{os.cpu_count()} × {cpu_model}, Linux {platform.release()}", jobs=a.jobs, quick=a.quick))
    report(raw, a.out, a.doc, finished=time.time())


def report(raw, out, doc, finished=None):
    """Scores the runs in raw and writes wake.md, wake.json, the plot (and the document)."""
    a = argparse.Namespace(**raw["args"])
    manifest = json.load(open(os.path.join(raw["corpus"], "manifest.json")))
    runs, phases = raw["runs"], dict(raw["phases"])
    by_kind = defaultdict(float)
    for key, rs in runs.items():
        by_kind["ears" if not key.startswith("kws") else "kws"] += sum(r["cpu_s"] for r in rs)
    metrics = [score(s, runs.get(s.key, []), manifest, a.phrases) for s in systems(a)]
    default = metrics[0]
    items = manifest["items"]
    parts = {}
    for kind, label in [("positive", "positives"), ("negative", "negatives (fortunes)"), ("soundalike", "sound-alikes")]:
        for cond in a.conditions:
            sel = [i for i in items if i["kind"] == kind and i["condition"] == cond]
            if sel:
                parts[f"{label}, {CONDITION_NAMES[cond]}"] = (len(sel), sum(i["seconds"] for i in sel))
    neg = [i for i in items if i["kind"] == "negative"]
    # Speech in the negatives: the files less the lead and tail silence corpus.py adds.
    import importlib.util
    spec = importlib.util.spec_from_file_location("corpus", os.path.join(HERE, "corpus.py"))
    corpus_mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(corpus_mod)
    pad = corpus_mod.LEAD_S + corpus_mod.TAIL_S
    res = dict(
        phrases=a.phrases, voices=a.voices, conditions=a.conditions, sweep_conditions=a.sweep_conditions,
        ears_thresholds=a.ears_thresholds, kws_thresholds=a.kws_thresholds, target_goals=TARGETS,
        corpus=dict(path=raw["corpus"], command="bench/corpus.py OUT " + " ".join(shlex.quote(x) for x in raw["corpus_args"]),
                    positives=sum(1 for i in items if i["kind"] == "positive"),
                    negative_s=sum(i["seconds"] for i in neg), negative_speech_s=sum(i["seconds"] - pad for i in neg),
                    soundalike_files=sum(1 for i in items if i["kind"] == "soundalike"),
                    soundalike_texts=sum(1 for i in items if i["kind"] == "soundalike" and i["voice"] == a.voices[0] and i["condition"] == "clean"),
                    parts=parts),
        metrics=metrics, targets=targets(default, a.phrases), peers=compare_peers(metrics, a.conditions),
    )
    behind = [p for p in res["peers"] if p["verdict"] == "behind"]
    res["targets"].append(dict(
        phrase="all phrases", target="ahead of every peer at equal false-accept rate", op="", goal=None, unit="count",
        value=f"{len(res['peers']) - len(behind)} of {len(res['peers'])} comparisons", met=not behind,
        by="—" if not behind else "; ".join(f"{CONDITION_NAMES[p['condition']]}, {p['peer']}: {p['gap']}" for p in behind)))
    t0 = time.time()
    png = det_plot(res, out)
    if finished is not None:
        phases["report and plot"] = time.time() - t0
        phases["total"] = time.time() - raw["started"]
        raw["phases"] = phases
    cached = raw.get("corpus_cached", 0.0 if phases.get("corpus", 0) < 5 else None)
    shown = {(("corpus: cached" + (f" (making it took {cached:.0f} s)" if cached else " (made by an earlier run)"))
              if k == "corpus" and cached is not None else k): v for k, v in phases.items()}
    run = dict(raw["run"], wall_s=phases.get("total", 0), phases=shown, cpu_s_by_kind=dict(by_kind), prune_checks=raw["prune_checks"])
    res["run"] = run
    tab = tables(res)
    sentence, missed = summary_sentences(res)
    md = [f"# Wake benchmark ({run['date']}; {run['version']}, {run['commit']}; `{run['command']}`)", "", sentence, "",
          "## All phrases", "", tab["summary"], "", "## Targets (ears at its default threshold)", "", tab["targets"], "",
          "## Against the peers at equal false-accept rate", "", tab["peers"], "", "## Per phrase and condition", "", tab["per_phrase"], "",
          "## Corpus", "", tab["corpus"], "", "## Run", "", tab["run"], ""]
    open(os.path.join(out, "wake.md"), "w").write("\n".join(md))
    res["raw"] = raw
    json.dump(res, open(os.path.join(out, "wake.json"), "w"), indent=1)
    if doc:
        if run["quick"]:
            log("wake: --quick results are not written to the document")
        else:
            target = os.path.join(os.path.dirname(os.path.abspath(doc)), "benchmark-det.png")
            shutil.copyfile(png, target)
            render_doc(res, tab, os.path.join(HERE, "benchmark.md.in"), doc, target)
            log(f"wake: wrote {doc} and {target}")
    print("\n".join(md))
    log(f"wake: {out}/wake.md, wake.json, wake-det.png ({phases.get('total', 0) / 60:.1f} min)")


if __name__ == "__main__":
    main()
