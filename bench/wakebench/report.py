"""Tables (markdown), the targets for ears, the DET plot (gnuplot) and the document."""
from __future__ import annotations

import os
import re
import subprocess
from typing import Any

from . import config
from .scoring import Metrics

LABEL = {c.name: c.label for c in config.CONDITIONS}


def pct(v: float | None) -> str:
    return "n/a" if v is None else f"{v * 100:.1f}%"


def num(v: float | None, digits: int = 2) -> str:
    return "—" if v is None else f"{v:.{digits}f}"


def name(m: Metrics) -> str:
    return m.system if m.default else f"{m.system} @ {m.setting}"


def defaults(metrics: list[Metrics]) -> list[Metrics]:
    return [m for m in metrics if m.default]


def alike(m: Metrics, key: str = "all") -> str:
    woke, n = m.soundalikes.get(key, [0, 0])
    return f"{woke} of {n}" if n else "n/a"


def summary_table(metrics: list[Metrics], conditions: list[str]) -> str:
    head = ["system", "setting", "phrases"] + [f"recall {LABEL[c]}" for c in conditions] + \
           ["held out (the recall columns)", "recall clean, voices fitted or trained on", "recall clean, espeak", "false wakes/h clean", "false wakes/h pink 10 dB",
            "written sound-alikes that woke", "generated sound-alikes that woke", "latency p50 / p95 (s), clean",
            "CPU s per audio s", "peak RSS (MB)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in defaults(metrics):
        row = [m.system, m.setting, str(len(m.phrases))] + [pct(m.rate(c)) for c in conditions] + \
              [m.split.held_out_label, pct(m.rate("clean", "tuning")), pct(m.rate("clean", "espeak")), num(m.fa_per_hour("clean")),
               num(m.fa_per_hour("pink10")), alike(m, "written"), alike(m, "generated"),
               f"{num(m.latency('clean', 50))} / {num(m.latency('clean', 95))}",
               num(m.cpu_per_audio_s, 3), f"{m.peak_rss_mb:.0f}"]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def common_table(metrics: list[Metrics], conditions: list[str]) -> str:
    """Only the phrases every system has, so the systems are compared on the same calls."""
    head = ["system"] + [f"{LABEL[c]}" for c in conditions] + ["espeak, clean", "false wakes/h clean (these phrases)",
                                                               "false wakes/h pink 10 dB (these phrases)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in defaults(metrics):
        def rec(cond: str, group: str = "held-out") -> str:
            cells = [m.recall.get(cond, {}).get(group, {}).get(p, [0, 0]) for p in config.COMMON_PHRASES if p in m.phrases]
            hits, n = sum(c[0] for c in cells), sum(c[1] for c in cells)
            return f"{hits / n * 100:.1f}%" if n else "n/a"
        fa = lambda cond: "—" if not m.negative_hours.get(cond) else \
            f"{sum(m.false_wakes[cond].get(p, 0) for p in config.COMMON_PHRASES) / m.negative_hours[cond]:.2f}"
        lines.append("| " + " | ".join([m.system] + [rec(c) for c in conditions] + [rec("clean", "espeak"), fa("clean"), fa("pink10")]) + " |")
    return "\n".join(lines)


def phrase_table(metrics: list[Metrics], phrases: list[str], conditions: list[str]) -> str:
    head = ["system", "phrase"] + [f"recall {LABEL[c]}" for c in conditions] + \
           ["espeak, clean", "false wakes/h clean", "own sound-alikes that woke"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in defaults(metrics):
        for p in phrases:
            if p not in m.phrases:
                lines.append("| " + " | ".join([m.system, p] + ["n/a"] * (len(head) - 2)) + " |")
                continue
            fa = m.fa_per_hour("clean", p)
            lines.append("| " + " | ".join([m.system, p] + [pct(m.rate(c, "held-out", p)) for c in conditions] +
                                           [pct(m.rate("clean", "espeak", p)), num(fa), alike(m, p)]) + " |")
    return "\n".join(lines)


def sweep_table(metrics: list[Metrics]) -> str:
    head = ["system", "setting", "recall clean (all voices)", "recall pink 10 dB (all voices)", "false wakes/h clean",
            "false wakes/h pink 10 dB"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in sorted(metrics, key=lambda m: (m.system, m.setting)):
        lines.append("| " + " | ".join([m.system, m.setting + (" (default)" if m.default else ""),
                                        pct(m.rate("clean", "all voices")), pct(m.rate("pink10", "all voices")),
                                        num(m.fa_per_hour("clean")), num(m.fa_per_hour("pink10"))]) + " |")
    return "\n".join(lines)


def target_values(m: Metrics) -> dict[str, float | None]:
    woke, n = m.soundalikes.get("written", [0, 0])
    return dict(recall_clean=m.rate("clean"), recall_pink10=m.rate("pink10"), recall_pink5=m.rate("pink5"),
                fa_clean=m.fa_per_hour("clean"), fa_pink10=m.fa_per_hour("pink10"),
                soundalikes=woke / n if n else None, recall_espeak_clean=m.rate("clean", "espeak"),
                cpu=m.cpu_per_audio_s, latency_p95=m.latency("clean", 95), rss=m.peak_rss_mb,
                training_s=m.longest_training_s)


def fmt(v: float | None, unit: str) -> str:
    if v is None:
        return "not measured"
    return {"pct": f"{v * 100:.1f}%", "rate": f"{v:.2f}/h", "s": f"{v:.2f} s" if v < 60 else f"{v:.0f} s", "ratio": f"{v:.3f}", "mb": f"{v:.0f} MB"}[unit]


def trained(m: Metrics) -> bool:
    """An ears configuration that listens with trained models (issue 11's targets apply)."""
    return m.family == "ears" and bool(m.training)


def targets(m: Metrics, table: list[config.Target] | None = None) -> list[dict[str, Any]]:
    rows = []
    values = target_values(m)
    for t in table if table is not None else (config.TRAINED_TARGETS if trained(m) else config.TARGETS):
        v = values[t.key]
        if v is None:
            verdict = "not measured"
        else:
            met = v >= t.goal if t.op == ">=" else v <= t.goal
            gap = abs(v - t.goal)
            verdict = "met" if met else "missed by " + fmt(gap, t.unit).replace("/h", " per hour")
            if not met and t.unit == "pct":
                verdict = f"missed by {gap * 100:.1f} points"
        rows.append(dict(key=t.key, target=t.label, goal=f"{'≥' if t.op == '>=' else '≤'} {fmt(t.goal, t.unit)}",
                         value=fmt(v, t.unit), verdict=verdict))
    return rows


def targets_table(metrics: list[Metrics], trained_models: bool = False) -> str:
    """Issue 10's targets for the acoustic ears configurations, or (trained_models)
    issue 11's for those listening with trained models."""
    ears = [m for m in defaults(metrics) if m.family == "ears" and trained(m) == trained_models]
    table = config.TRAINED_TARGETS if trained_models else config.TARGETS
    if not ears:
        return "(no such ears configuration in this run)"
    head = ["target", "goal"] + [f"{m.system} (held out: {m.split.held_out_label})" for m in ears]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    per = [targets(m, table) for m in ears]
    for i, t in enumerate(table):
        lines.append("| " + " | ".join([t.label, per[0][i]["goal"]] +
                                       [f"{p[i]['value']}: {p[i]['verdict']}" for p in per]) + " |")
    return "\n".join(lines)


def split_table(metrics: list[Metrics]) -> str:
    """Which voices are held out for which system: the recall columns read these."""
    lines = ["| system | held out (recall columns) | fitted or trained on (\"tuning\") | apart |", "|---|---|---|---|"]
    for m in defaults(metrics):
        fitted = m.split.fitted_label + ("" if m.family == "ears" else "; not fitted on by this system")
        lines.append(f"| {m.system} | {m.split.held_out_label} | {fitted} | espeak-ng voices |")
    return "\n".join(lines)


def training_table(training: dict[str, Any] | None) -> str:
    """Each phrase's model: training wall and CPU time, the voices it held out."""
    if not training:
        return "(no trained configuration in this run: --no-trained)"
    lines = ["| phrase | training wall (s) | training CPU (s) | load average at the end (cores: "
             f"{os.cpu_count()}) | held-out voices (ears train) | ears train's own figures on them | this run |",
             "|---|---|---|---|---|---|---|"]
    for p in training["phrases"]:
        load = p.get("load_average")
        own = next((line.split("): ", 1)[1] for line in p.get("summary", []) if "held-out voices (" in line and "): " in line), "—")
        lines.append(f"| {p['phrase']} | {p['wall_s']:.0f} | {p['cpu_s']:.0f} | {'—' if load is None else load} | {', '.join(p['held_out_voices']) or 'none named'} | {own} | "
                     f"{'cached (same binary, same seed)' if p.get('cached') else 'trained'} |")
    lines += ["", f"Models: `{training['directory']}` (binary sha256 `{training['binary_sha256']}…`, seed {training['seed']}); "
                  f"held out by every phrase's model: {', '.join(training['held_out_engines']) or 'no engine'}."]
    return "\n".join(lines)


COLORS = ["#1b7837", "#5aae61", "#2166ac", "#d95f02", "#7570b3", "#e7298a", "#666666", "#a6761d", "#e6ab02"]


def det_plot(metrics: list[Metrics], out: str) -> str:
    """Miss rate (hey jarvis + alexa, every voice) against false wakes per hour, one
    panel per sweep condition, a line per system through its settings."""
    panels = [("clean", "clean"), ("pink10", "pink10")]
    systems = list(dict.fromkeys(m.system for m in metrics))
    png = os.path.join(out, "wake-det.png")
    gp = [f'set terminal pngcairo size 1200,520 font ",10"', f'set output "{png}"',
          'set multiplot layout 1,2 title "miss rate (hey jarvis + alexa, all voices) vs false wakes per hour (fortunes, every phrase the system listens for)"',
          "set grid", "set key top right box opaque font ',8'", 'set xlabel "false wakes per hour"', 'set ylabel "miss rate (%)"',
          "set yrange [0:100]", "set logscale x", "set xrange [0.05:*]"]
    for cond, neg in panels:
        plots = []
        for k, system in enumerate(systems):
            pts = []
            for m in metrics:
                if m.system != system or cond not in m.recall or neg not in m.negative_hours:
                    continue
                cells = [m.recall[cond].get("all voices", {}).get(p, [0, 0]) for p in config.COMMON_PHRASES]
                n = sum(c[1] for c in cells)
                if not n:
                    continue
                miss = 100 * (1 - sum(c[0] for c in cells) / n)
                # A system with no false wake is drawn at the axis floor (half of one wake in the hours measured).
                fa = max(m.fa_per_hour(neg) or 0.0, 0.5 / m.negative_hours[neg])
                pts.append((fa, miss, m.setting))
            if not pts:
                continue
            dat = os.path.join(out, f"det-{cond}-{re.sub('[^a-z0-9]+', '-', system.lower())}.dat")
            with open(dat, "w") as f:
                for fa, miss, setting in sorted(pts):
                    f.write(f'{fa:.4f} {miss:.2f} "{setting}"\n')
            color = COLORS[k % len(COLORS)]
            plots.append(f"'{dat}' using 1:2 with linespoints lc rgb '{color}' pt {5 + k} ps 1.2 lw 2 title '{system}'")
            plots.append(f"'{dat}' using 1:2:3 with labels offset 0.8,0.6 font ',7' left tc rgb '{color}' notitle")
        gp.append(f'set title "{LABEL[cond]} calls; negatives {LABEL[neg]}"')
        gp.append("set arrow 1 from 0.5, graph 0 to 0.5, graph 1 nohead dt 2 lc rgb '#888888'")
        gp.append("plot " + ", \\\n  ".join(plots) if plots else "plot 1/0 notitle")
    gp.append("unset multiplot")
    script = os.path.join(out, "wake-det.gp")
    open(script, "w").write("\n".join(gp) + "\n")
    subprocess.run(["gnuplot", script], check=True)
    return png


def render(template: str, values: dict[str, str]) -> str:
    text = open(template).read()
    for k, v in values.items():
        text = text.replace("{{" + k + "}}", v)
    left = re.findall(r"\{\{\w+\}\}", text)
    if left:
        raise RuntimeError(f"template has unknown fields: {left}")
    return text
