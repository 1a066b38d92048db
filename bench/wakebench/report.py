"""Tables (markdown), the targets for ears, the DET plot (gnuplot) and the document."""
from __future__ import annotations

import os
import re
import subprocess
from typing import Any

from . import compare, config, cpu, intervals
from .scoring import Metrics

LABEL = {c.name: c.label for c in config.CONDITIONS}




def num(v: float | None, digits: int = 2) -> str:
    return "—" if v is None else f"{v:.{digits}f}"




def defaults(metrics: list[Metrics]) -> list[Metrics]:
    return [m for m in metrics if m.default]


def alike(m: Metrics, key: str = "all") -> str:
    woke, n = m.soundalikes.get(key, [0, 0])
    return f"{woke} of {n}" if n else "n/a"


def recall_cell(m: Metrics, condition: str, group: str = "all voices", phrases: list[str] | None = None) -> str:
    """"93.3% (88–96)": recall and its Wilson 95% interval."""
    hits, n = m.hits(condition, group, phrases)
    return intervals.pct_interval(hits, n)


def fa_cell(m: Metrics, phrases: list[str] | None = None, conditions: list[str] | None = None) -> str:
    """"0.50 (0.01–2.79)": false wakes per hour over the negatives and its Poisson 95% interval."""
    wakes, hours = m.false_wakes_pooled(phrases, conditions)
    return intervals.rate_interval(wakes, hours) if hours else "—"


def alike_cell(m: Metrics, key: str = "written") -> str:
    woke, n = m.soundalikes.get(key, [0, 0])
    return f"{woke} of {n} ({intervals.pct_interval(woke, n).split(' ', 1)[1][1:-1]}%)" if n else "n/a"


def summary_table(metrics: list[Metrics], conditions: list[str]) -> str:
    """Every system at its default: recall per condition (all voices, every phrase it has,
    95% intervals), false wakes per hour on all negatives, near-misses, latency, cost."""
    head = ["system", "phrases"] + [LABEL[c] for c in conditions] + \
           ["false wakes/h (all negatives)", "near-miss sentences that woke", "latency p50 / p95 (s), clean",
            "CPU s per audio s", "peak RSS (MB)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in defaults(metrics):
        row = [m.system, str(len(m.phrases))] + [recall_cell(m, c) for c in conditions] + \
              [fa_cell(m), alike_cell(m), f"{num(m.latency('clean', 50))} / {num(m.latency('clean', 95))}",
               num(m.cpu_per_audio_s, 3), f"{m.peak_rss_mb:.0f}"]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def negative_conditions(metrics: list[Metrics]) -> list[str]:
    """The kinds of negative the systems were scanned on, in config.NEGATIVE_LABEL's
    order (then any other, by name): the order scans finished in, which a run with
    kept results changes, must not move the page's columns."""
    seen = {c for m in metrics for c in m.negative_hours}
    known = [c for c in config.NEGATIVE_LABEL if c in seen]
    return known + sorted(seen - set(known))


def negatives_table(metrics: list[Metrics]) -> str:
    """False wakes per hour on each kind of negative, every phrase each system has."""
    conds = negative_conditions(metrics)
    head = ["system"] + [f"{config.NEGATIVE_LABEL.get(c, c)} ({next(m.negative_hours[c] for m in metrics if c in m.negative_hours) * 60:.0f} min)"
                         for c in conds] + ["all negatives"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in defaults(metrics):
        lines.append("| " + " | ".join([m.system] + [fa_cell(m, None, [c]) for c in conds] + [fa_cell(m)]) + " |")
    return "\n".join(lines)


def negatives_by_voice_table(metrics: list[Metrics]) -> str:
    """False wakes per hour of read speech (clean and 10 dB) by the engine that read it,
    and by the voices each system never heard (its held-out split)."""
    read = config.READ_SPEECH_CONDITIONS
    engines = sorted({g for m in metrics for c in read for g in m.negative_hours_by_group.get(c, {}) if g.startswith("engine:")})
    head = ["system"] + [g.split(":", 1)[1] for g in engines] + ["held-out voices (this system's)", "every voice"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in defaults(metrics):
        cells = []
        for g in engines + ["held-out"]:
            wakes, hours = m.false_wakes_of_group(g, read)
            cells.append(f"{intervals.rate_interval(wakes, hours)} over {hours * 60:.0f} min" if hours else "—")
        lines.append("| " + " | ".join([m.system] + cells + [fa_cell(m, None, read)]) + " |")
    return "\n".join(lines)


def common_table(metrics: list[Metrics], conditions: list[str]) -> str:
    """Only the phrases every system has, so the systems are compared on the same calls."""
    head = ["system"] + [LABEL[c] for c in conditions] + ["false wakes/h (these phrases, all negatives)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in defaults(metrics):
        lines.append("| " + " | ".join([m.system] + [recall_cell(m, c, "all voices", config.COMMON_PHRASES) for c in conditions] +
                                       [fa_cell(m, config.COMMON_PHRASES)]) + " |")
    return "\n".join(lines)


def engine_table(metrics: list[Metrics], conditions: list[str]) -> str:
    """Recall per synthesis engine: a system fitted or trained on some voices is read on
    the engines it never heard (the trained models never heard festival; ears's constants
    were fitted on flite-kal16, flite-awb and espeak-us)."""
    engines = sorted({g.split(":", 1)[1] for m in metrics for c in m.recall.values() for g in c if g.startswith("engine:")})
    head = ["system", "voices"] + [LABEL[c] for c in conditions]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in defaults(metrics):
        for e in engines:
            note = " (English voices never heard)" if m.split.key == "engine" and e in m.split.held_out_engines else ""
            lines.append("| " + " | ".join([m.system, e + note] + [recall_cell(m, c, "engine:" + e) for c in conditions]) + " |")
    return "\n".join(lines)


def held_out_voice_table(metrics: list[Metrics], conditions: list[str]) -> str:
    """Recall on each voice of an engine a model never trained on, one row a voice: an
    engine's figure can hide one speaker the models fail (festival-ked) behind two whose
    speakers another engine has (festival-kal is flite-kal16's speaker, festival-slt-hts
    flite-slt's)."""
    head = ["system", "voice"] + [LABEL[c] for c in conditions]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in defaults(metrics):
        if m.split.key != "engine":
            continue
        voices = sorted({g.split(":", 1)[1] for c in m.recall.values() for g in c if g.startswith("voice:")})
        for v in voices:
            if config.voice_engine(v) in m.split.held_out_engines:
                lines.append("| " + " | ".join([m.system, v] + [recall_cell(m, c, "voice:" + v) for c in conditions]) + " |")
    return "\n".join(lines) if len(lines) > 2 else "(no model held out an engine in this run)"


def phrase_table(metrics: list[Metrics], phrases: list[str], conditions: list[str]) -> str:
    head = ["system", "phrase"] + [LABEL[c] for c in conditions] + ["false wakes/h (all negatives)", "its near-misses that woke"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in defaults(metrics):
        for p in phrases:
            if p not in m.phrases:
                continue
            lines.append("| " + " | ".join([m.system, p] + [recall_cell(m, c, "all voices", [p]) for c in conditions] +
                                           [fa_cell(m, [p]), alike(m, p)]) + " |")
    return "\n".join(lines)


def sweep_table(metrics: list[Metrics]) -> str:
    """Every setting measured (the DET curves' points), on "hey jarvis" + "alexa"."""
    head = ["system", "setting", "recall clean", "recall pink 10 dB", "false wakes/h (these phrases, all negatives)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for m in sorted(metrics, key=lambda m: (m.system, m.setting)):
        lines.append("| " + " | ".join([m.system, m.setting + (" (default)" if m.default else ""),
                                        recall_cell(m, "clean", "all voices", config.COMMON_PHRASES),
                                        recall_cell(m, "pink10", "all voices", config.COMMON_PHRASES),
                                        fa_cell(m, config.COMMON_PHRASES)]) + " |")
    return "\n".join(lines)


def target_values(m: Metrics, alone: cpu.Alone | None = None) -> dict[str, float | None]:
    """The figures issue 20's targets read; CPU is the measurement alone (cpu.py) when the
    run made one, else the run's own figure over the negative streams."""
    woke, n = m.soundalikes.get("written", [0, 0])
    wakes, hours = m.false_wakes_pooled(None, config.READ_SPEECH_CONDITIONS)
    held_wakes, held_hours = m.false_wakes_of_group("held-out", config.READ_SPEECH_CONDITIONS)
    return dict(recall_clean=m.rate("clean"), recall_pink10=m.rate("pink10"), recall_pink5=m.rate("pink5"),
                recall_babble10=m.rate("babble10"), soundalikes=woke / n if n else None,
                fa_read=wakes / hours if hours else None, fa_read_held_out=held_wakes / held_hours if held_hours else None,
                cpu=alone.median if alone is not None and alone.median is not None else m.cpu_per_speech_s,
                latency_p95=m.latency("clean", 95))


def fmt(v: float | None, unit: str) -> str:
    if v is None:
        return "not measured"
    return {"pct": f"{v * 100:.1f}%", "rate": f"{v:.2f}/h", "s": f"{v:.2f} s" if v < 60 else f"{v:.0f} s", "ratio": f"{v:.3f}", "mb": f"{v:.0f} MB"}[unit]


def target_cell(v: float | None, t: config.Target) -> tuple[str, str]:
    """A target's value and verdict as the page prints them ("76.7%", "missed by 3.3
    points"). A miss smaller than the column's rounding gets one more digit, so it
    never reads "0.030: missed by 0.000"."""
    if v is None:
        return "not measured", "not measured"
    met = v >= t.goal if t.op == ">=" else v <= t.goal
    gap = abs(v - t.goal)
    if met:
        return fmt(v, t.unit), "met"
    if t.unit == "pct":
        return fmt(v, t.unit), f"missed by {gap * 100:.1f} points"
    if t.unit == "ratio" and f"{gap:.3f}" == "0.000":
        return f"{v:.4f}", f"missed by {gap:.4f}"
    return fmt(v, t.unit), "missed by " + fmt(gap, t.unit).replace("/h", " per hour")


def targets(m: Metrics, alone: cpu.Alone | None = None) -> list[dict[str, Any]]:
    rows = []
    values = target_values(m, alone)
    for t in config.TARGETS:
        value, verdict = target_cell(values[t.key], t)
        if t.key == "cpu" and value != "not measured":
            # Which measurement it is, and the run's own figure after the verdict.
            beside = m.cpu_per_speech_s
            if alone is not None:
                value = cpu.cell(alone)
                verdict += f" ({len(m.phrases)} phrases beside the other scans: " + \
                    (f"{beside:.3f})" if beside is not None else "not measured)")
            else:
                value += " (beside the other scans; not measured alone)"
        rows.append(dict(key=t.key, target=t.label, goal=f"{'≥' if t.op == '>=' else '≤'} {fmt(t.goal, t.unit)}",
                         value=value, verdict=verdict))
    return rows


def targets_table(metrics: list[Metrics], alone: dict[str, cpu.Alone] | None = None) -> str:
    """Issue 20's targets for every ears configuration at its default; `alone` holds the
    CPU measured alone (cpu.py) by system label."""
    ears = [m for m in defaults(metrics) if m.family == "ears"]
    if not ears:
        return "(no ears configuration in this run)"
    head = ["target", "goal"] + [f"{m.system} (held out: {m.split.held_out_label})" for m in ears]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    per = [targets(m, (alone or {}).get(m.system)) for m in ears]
    for i, t in enumerate(config.TARGETS):
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


def training_origin(phrase: dict[str, Any]) -> str:
    """Where a phrase's model came from in this run, for the training table."""
    if phrase.get("cached"):
        return "kept from an earlier run (same training key)"
    if phrase.get("from_feature_cache"):
        return "trained in this run from a developer's feature cache (EARS_TRAIN_FEATURES): no synthesis, times are not a user's"
    return "trained in this run"


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
                     f"{training_origin(p)} |")
    lines += ["", f"Models: `{training['directory']}` (training sources' digest `{training.get('sources_digest', '?')}`, seed {training['seed']}); "
                  f"held out by every phrase's model: {', '.join(training['held_out_engines']) or 'no engine'}."]
    return "\n".join(lines)


COLORS = ["#1b7837", "#5aae61", "#2166ac", "#d95f02", "#7570b3", "#e7298a", "#666666", "#a6761d", "#e6ab02"]


def det_plot(metrics: list[Metrics], out: str) -> str:
    """The DET curves: miss rate on "hey jarvis" + "alexa" (every voice) against false
    wakes per hour of those phrases over every negative, one panel per sweep condition,
    a line per system through its settings."""
    systems = list(dict.fromkeys(m.system for m in metrics))
    png = os.path.join(out, "wake-det.png")
    gp = ['set terminal pngcairo size 1200,520 font ",10"', f'set output "{png}"',
          'set multiplot layout 1,2 title "miss rate (hey jarvis + alexa, every voice) vs false wakes per hour (those phrases, every negative stream)"',
          "set grid", "set key top right box opaque font ',8'", 'set xlabel "false wakes per hour"', 'set ylabel "miss rate (%)"',
          "set yrange [0:100]", "set logscale x", "set xrange [0.05:*]"]
    for cond in config.SWEEP_CONDITIONS:
        plots = []
        for k, system in enumerate(systems):
            pts = sorted((max(p.rate, 0.5 / p.hours), 100 * (1 - p.recall), p.setting)
                         for p in compare.points(metrics, system, cond, config.COMMON_PHRASES))
            if not pts:
                continue
            dat = os.path.join(out, f"det-{cond}-{re.sub('[^a-z0-9]+', '-', system.lower())}.dat")
            with open(dat, "w") as f:
                for fa, miss, setting in pts:
                    f.write(f'{fa:.4f} {miss:.2f} "{setting}"\n')
            color = COLORS[k % len(COLORS)]
            plots.append(f"'{dat}' using 1:2 with linespoints lc rgb '{color}' pt {5 + k} ps 1.2 lw 2 title '{system}'")
            plots.append(f"'{dat}' using 1:2:3 with labels offset 0.8,0.6 font ',7' left tc rgb '{color}' notitle")
        gp.append(f'set title "{LABEL[cond]} calls; negatives: read speech clean and at 10 dB, conversation"')
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
