"""Comparisons that decide: systems at equal false-wake rate, the headline sentence the
README quotes, and a quick run's figures beside the last committed ones."""
from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from typing import Any

from . import config, intervals
from .scoring import Metrics

LABEL = {c.name: c.label for c in config.CONDITIONS}


@dataclass(frozen=True)
class Point:
    """One setting of a system: recall on some calls, false wakes on every negative."""
    setting: str
    hits: int
    calls: int
    wakes: int
    hours: float

    @property
    def recall(self) -> float:
        return self.hits / self.calls if self.calls else 0.0

    @property
    def rate(self) -> float:
        return self.wakes / self.hours if self.hours else float("inf")


def points(metrics: list[Metrics], system: str, condition: str, phrases: list[str]) -> list[Point]:
    """Every setting of `system` measured on `condition`'s calls and on the negatives,
    counting only `phrases` (calls and false wakes)."""
    out = []
    for m in metrics:
        if m.system != system or condition not in m.recall or not m.negative_hours:
            continue
        hits, n = m.hits(condition, "all voices", phrases)
        wakes, hours = m.false_wakes_pooled(phrases)
        if n:
            out.append(Point(m.setting, hits, n, wakes, hours))
    return out


def best_within(candidates: list[Point], wakes_per_hour: float) -> Point | None:
    """The setting with the highest recall whose false-wake rate is at most
    `wakes_per_hour` (ties: the fewer false wakes); None when none is that quiet."""
    quiet = [p for p in candidates if p.rate <= wakes_per_hour + 1e-12]
    return max(quiet, key=lambda p: (p.recall, -p.wakes)) if quiet else None


def verdict(ours: Point, theirs: Point) -> str:
    """"ahead", "behind" (the 95% intervals do not overlap) or "level within the intervals"."""
    lo, hi = intervals.wilson(ours.hits, ours.calls)
    their_lo, their_hi = intervals.wilson(theirs.hits, theirs.calls)
    if lo > their_hi:
        return "ahead"
    if hi < their_lo:
        return "behind"
    return "level within the intervals"


def equal_rate_table(metrics: list[Metrics], conditions: list[str]) -> str:
    """Each ears configuration against each peer on the phrases both have: the peer at
    its default, ears at its best setting that wakes falsely no more often."""
    ears = [m for m in metrics if m.default and m.family == "ears"]
    peers = [m for m in metrics if m.default and m.family != "ears"]
    head = ["ears configuration", "peer (its default)", "phrases", "false wakes/h allowed (the peer's)", "ears setting"] + \
           [f"{LABEL[c]}: ears vs peer" for c in conditions]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for e in ears:
        for p in peers:
            phrases = [x for x in p.phrases if x in e.phrases]
            if not phrases:
                continue
            ref = points(metrics, p.system, conditions[0], phrases)
            theirs_default = next((x for x in ref if x.setting == p.setting), None)
            if theirs_default is None:
                continue
            allowed = theirs_default.rate
            cells, chosen = [], None
            for c in conditions:
                theirs = next((x for x in points(metrics, p.system, c, phrases) if x.setting == p.setting), None)
                ours = best_within(points(metrics, e.system, c, phrases), allowed)
                if theirs is None:
                    cells.append("n/a")
                elif ours is None:
                    cells.append(f"no ears setting this quiet vs {100 * theirs.recall:.1f}%")
                else:
                    chosen = ours.setting
                    cells.append(f"{100 * ours.recall:.1f}% vs {100 * theirs.recall:.1f}%: {verdict(ours, theirs)}")
            lines.append("| " + " | ".join([e.system, p.system, ", ".join(phrases), f"{allowed:.2f}",
                                           chosen or "—"] + cells) + " |")
    return "\n".join(lines)


def headline(metrics: list[Metrics], condition: str = "pink10") -> dict[str, str]:
    """The sentence the README quotes: each ears configuration's recall at `condition`
    and false wakes per hour (every phrase, all negatives), beside the peer with the best
    recall there on the phrases every system has."""
    out: dict[str, str] = {}
    for m in metrics:
        if not m.default:
            continue
        hits, n = m.hits(condition)
        wakes, hours = m.false_wakes_pooled()
        out[m.system] = (f"{intervals.pct_interval(hits, n)} of calls at {LABEL[condition]}, "
                         f"{intervals.rate_interval(wakes, hours) if hours else '—'} false wakes per hour")
    peers = [m for m in metrics if m.default and m.family != "ears"]
    if peers:
        best = max(peers, key=lambda m: m.rate(condition, "all voices", "all") or 0.0)
        out["best peer"] = best.system
    return out


def readme_sentence(metrics: list[Metrics], commit: str, date: str, condition: str = "pink10") -> str:
    """The README's sentence on detection: each ears configuration's recall at `condition`
    and false wakes per hour, beside the peer that hears most there (each on its own phrases)."""
    def said(m: Metrics) -> str:
        hits, n = m.hits(condition)
        wakes, hours = m.false_wakes_pooled()
        return (f"{intervals.pct_interval(hits, n)} of calls in pink noise at 10 dB with "
                f"{intervals.rate_interval(wakes, hours) if hours else '—'} false wakes per hour")
    ears = [m for m in metrics if m.default and m.family == "ears"]
    peers = [m for m in metrics if m.default and m.family != "ears"]
    parts = [f"{m.system} hears {said(m)}" for m in ears]
    text = (f"Measured by `make bench-wake` (repository at {commit}, {date}; 95% intervals in brackets; "
            f"[docs/benchmark.md](docs/benchmark.md)): " + "; ".join(parts))
    if peers:
        best = max(peers, key=lambda m: m.rate(condition, "all voices", "all") or 0.0)
        text += f"; the best peer there, {best.system}, hears {said(best)} (on its own phrases)"
    return text + "."


def figures(metrics: list[Metrics]) -> dict[str, dict[str, list[float]]]:
    """The counts a quick run is compared on, per system at its default: per condition
    [hits, calls]; "false wakes" [wakes, hours]; "near misses" [woke, sentences]."""
    out: dict[str, dict[str, list[float]]] = {}
    for m in metrics:
        if not m.default:
            continue
        row: dict[str, list[float]] = {c: list(m.hits(c)) for c in m.recall}
        row["false wakes"] = list(m.false_wakes_pooled())
        row["near misses"] = list(m.soundalikes.get("written", [0, 0]))
        out[m.system] = row
    return out


def committed(path: str, root: str) -> dict[str, Any] | None:
    """The file at `path` as committed at HEAD (git show), or None."""
    p = subprocess.run(["git", "-C", root, "show", f"HEAD:{path}"], capture_output=True, text=True)
    return json.loads(p.stdout) if p.returncode == 0 and p.stdout.strip() else None


def beside(now: dict[str, dict[str, list[float]]], before: dict[str, dict[str, list[float]]] | None) -> str:
    """A table of each figure now and as committed, marking a change the 95% intervals
    do not explain ("DROP" / "rise"): what a reviewer looks at before a detector change lands."""
    lines = ["system | figure | now | committed | change", "---|---|---|---|---"]
    for system, row in now.items():
        old = (before or {}).get(system, {})
        for key, value in row.items():
            was = old.get(key)
            if key == "false wakes":
                cell = lambda v: intervals.rate_interval(int(v[0]), v[1]) if v and v[1] else "—"
                flag = ""
                if was and was[1] and value[1]:
                    lo, hi = intervals.poisson_rate(int(was[0]), was[1])
                    rate = value[0] / value[1]
                    flag = "DROP (more false wakes)" if rate > hi else ("better" if rate < lo else "")
            else:
                cell = lambda v: intervals.pct_interval(int(v[0]), int(v[1])) if v else "—"
                flag = ""
                if was and was[1] and value[1]:
                    lo, hi = intervals.wilson(int(was[0]), int(was[1]))
                    share = value[0] / value[1]
                    worse = share < lo if key != "near misses" else share > hi
                    better = share > hi if key != "near misses" else share < lo
                    flag = "DROP" if worse else ("better" if better else "")
            label = LABEL.get(key, key)
            lines.append(f"{system} | {label} | {cell(value)} | {cell(was)} | {flag}")
    return "\n".join(lines)
