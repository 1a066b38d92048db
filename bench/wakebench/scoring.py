"""From wakes in stream time to metrics per system and setting: recall per
condition, voice group and phrase; false wakes per hour; sound-alike sentences
that woke; wake latency after the phrase ends; CPU per audio second; peak RSS."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

from . import config
from .runners import Result, Run
from .streams import Stream


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    k = (len(v) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


@dataclass
class Metrics:
    system: str
    setting: str
    default: bool
    family: str
    phrases: list[str]  # the phrases this system has
    # recall[condition][voice group][phrase or "all"] = [hits, positives]
    recall: dict[str, dict[str, dict[str, list[int]]]] = field(default_factory=dict)
    latencies: dict[str, list[float]] = field(default_factory=dict)  # per condition, every hit
    other_wakes_on_positives: dict[str, int] = field(default_factory=dict)
    false_wakes: dict[str, dict[str, int]] = field(default_factory=dict)  # negative condition -> phrase or "all" -> count
    negative_hours: dict[str, float] = field(default_factory=dict)
    # The same by the voices that read the negatives: negative condition -> voice group
    # ("engine:festival", "held-out", …) -> phrase or "all" -> count, and -> hours.
    false_wakes_by_group: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    negative_hours_by_group: dict[str, dict[str, float]] = field(default_factory=dict)
    soundalikes: dict[str, list[int]] = field(default_factory=dict)  # phrase or "all" / "written" / "generated" -> [woke, sentences]
    cpu_s: float = 0.0
    audio_s: float = 0.0
    # The same over the negative streams alone: continuous speech without the phrase, issue 20's CPU target.
    speech_cpu_s: float = 0.0
    speech_audio_s: float = 0.0
    peak_rss_mb: float = 0.0
    # Which voices count as held out for this system (the trained configuration holds out an engine).
    split: config.VoiceSplit = config.TUNING_SPLIT
    # phrase -> [wall s, CPU s] its model took to train (the trained configuration only).
    training: dict[str, list[float]] = field(default_factory=dict)

    def rate(self, condition: str, group: str = "held-out", phrase: str = "all") -> float | None:
        hits, n = self.recall.get(condition, {}).get(group, {}).get(phrase, [0, 0])
        return hits / n if n else None

    def fa_per_hour(self, condition: str, phrase: str = "all") -> float | None:
        hours = self.negative_hours.get(condition)
        if not hours:
            return None
        return self.false_wakes[condition].get(phrase, 0) / hours

    def hits(self, condition: str, group: str = "all voices", phrases: list[str] | None = None) -> tuple[int, int]:
        """(calls heard, calls) in a condition for a voice group ("all voices", "held-out",
        "tuning", "espeak", "engine:flite"…), over `phrases` (None: every phrase it has)."""
        cells = self.recall.get(condition, {}).get(group, {})
        keys = ["all"] if phrases is None else [p for p in phrases if p in self.phrases]
        found = [cells.get(k, [0, 0]) for k in keys]
        return sum(c[0] for c in found), sum(c[1] for c in found)

    def false_wakes_pooled(self, phrases: list[str] | None = None,
                           conditions: list[str] | None = None) -> tuple[int, float]:
        """(false wakes, hours) over the negative streams (every one, or `conditions`),
        counting wakes for `phrases` only (None: every phrase)."""
        wakes, hours = 0, 0.0
        for cond, h in self.negative_hours.items():
            if conditions is not None and cond not in conditions:
                continue
            counts = self.false_wakes.get(cond, {})
            wakes += counts.get("all", 0) if phrases is None else sum(counts.get(p, 0) for p in phrases)
            hours += h
        return wakes, hours

    def false_wakes_of_group(self, group: str, conditions: list[str]) -> tuple[int, float]:
        """(false wakes, hours) of the negatives read by `group`'s voices ("held-out",
        "engine:flite", …) in `conditions`, every phrase the system has."""
        wakes, hours = 0, 0.0
        for cond in conditions:
            wakes += self.false_wakes_by_group.get(cond, {}).get(group, {}).get("all", 0)
            hours += self.negative_hours_by_group.get(cond, {}).get(group, 0.0)
        return wakes, hours

    def latency(self, condition: str, p: float) -> float | None:
        return percentile(self.latencies.get(condition, []), p)

    @property
    def longest_training_s(self) -> float | None:
        return max(wall for wall, _ in self.training.values()) if self.training else None

    @property
    def cpu_per_audio_s(self) -> float | None:
        return self.cpu_s / self.audio_s if self.audio_s else None

    @property
    def cpu_per_speech_s(self) -> float | None:
        """CPU s per audio s over the negative streams: continuous speech, where calls are rare."""
        return self.speech_cpu_s / self.speech_audio_s if self.speech_audio_s else None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def score(run_list: list[Run], results: list[Result], streams: list[Stream], phrases: list[str],
          splits: dict[str, config.VoiceSplit] | None = None,
          training: dict[str, dict[str, list[float]]] | None = None) -> list[Metrics]:
    """Metrics per (system, setting). `splits` maps a system's label to its voice split
    (default: TUNING_SPLIT); `training` maps a label to its phrases' training times."""
    by_stream = {s.name: s for s in streams}
    systems: dict[tuple[str, str], Metrics] = {}
    for run in run_list:
        for setting in run.settings:
            key = (run.system, setting)
            if key not in systems:
                systems[key] = Metrics(run.system, setting, setting == run.default, run.family,
                                       [p for p in phrases if p in run.phrases],
                                       split=(splits or {}).get(run.system, config.TUNING_SPLIT),
                                       training=dict((training or {}).get(run.system, {})))
    runs = {r.key: r for r in run_list}
    for res in results:
        run = runs[res.run]
        stream = by_stream[res.stream]
        for setting, wakes in res.wakes.items():
            m = systems[(run.system, setting)]
            if run.default is not None and setting == run.default:  # cost: the default's processes
                m.cpu_s += res.cpu_s
                m.audio_s += res.audio_s
                if stream.kind == "negative":
                    m.speech_cpu_s += res.cpu_s
                    m.speech_audio_s += res.audio_s
                m.peak_rss_mb = max(m.peak_rss_mb, res.rss_kb / 1024)
            add(m, stream, wakes)
    for m in systems.values():  # settings that only ran in a shared process: its cost
        if not m.audio_s:
            base = next((x for x in systems.values() if x.system == m.system and x.default), None)
            shared = any(r.system == m.system and m.setting in r.settings and r.default for r in run_list)
            if base and shared:
                m.cpu_s, m.audio_s, m.peak_rss_mb = base.cpu_s, base.audio_s, base.peak_rss_mb
                m.speech_cpu_s, m.speech_audio_s = base.speech_cpu_s, base.speech_audio_s
    return list(systems.values())


def add(m: Metrics, stream: Stream, wakes: list[Any]) -> None:
    """Adds one stream's wakes (for one setting) to m."""
    found: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for w in wakes:
        located = stream.locate(w.t)
        if located is None:
            located = (stream.items[0], w.t - stream.starts[0])
        item, t = located
        found[item["file"]].append((w.phrase, t))
    cond = stream.condition
    if stream.kind == "positive":
        table = m.recall.setdefault(cond, {})
        lat = m.latencies.setdefault(cond, [])
        other = 0
        for item in stream.items:
            if item["phrase"] not in m.phrases:
                other += len(found.get(item["file"], []))
                continue
            got = sorted(found.get(item["file"], []), key=lambda x: x[1])
            right = [t for p, t in got if p == item["phrase"] and t >= item["phrase_start"]]
            hit = bool(right)
            if hit:
                lat.append(round(right[0] - item["phrase_end"], 3))
            other += len(got) - (1 if hit else 0)
            groups = ["all voices", m.split.group(item["voice"]), "engine:" + config.voice_engine(item["voice"]),
                      "voice:" + item["voice"]]
            for g in groups:
                for p in (item["phrase"], "all"):
                    cell = table.setdefault(g, {}).setdefault(p, [0, 0])
                    cell[0] += hit
                    cell[1] += 1
        m.other_wakes_on_positives[cond] = m.other_wakes_on_positives.get(cond, 0) + other
    elif stream.kind == "negative":
        counts = m.false_wakes.setdefault(cond, {})
        for ws in found.values():
            for p, _ in ws:
                counts[p] = counts.get(p, 0) + 1
                counts["all"] = counts.get("all", 0) + 1
        m.negative_hours[cond] = stream.seconds / 3600
        # Each file's share of the stream runs to the next file's start (its gap included),
        # so the groups' hours add up to the stream's.
        by_group: dict[str, dict[str, int]] = {}
        hours: dict[str, float] = {}
        for i, item in enumerate(stream.items):
            end = stream.starts[i + 1] if i + 1 < len(stream.starts) else stream.seconds
            for g in (m.split.group(item["voice"]), "engine:" + config.voice_engine(item["voice"])):
                hours[g] = hours.get(g, 0.0) + (end - stream.starts[i]) / 3600
                cell = by_group.setdefault(g, {})
                for p, _ in found.get(item["file"], []):
                    cell[p] = cell.get(p, 0) + 1
                    cell["all"] = cell.get("all", 0) + 1
        m.false_wakes_by_group[cond], m.negative_hours_by_group[cond] = by_group, hours
    else:
        for item in stream.items:
            if item.get("alike_of") not in m.phrases:
                continue
            woke = bool(found.get(item["file"]))
            # "written": the hand-written sentences (bench/corpus.py), the
            # target's measure; "generated": `ears soundalikes`, which also
            # lists near-homophones ("hee cordelia"), reported apart.
            generated = item.get("source") == "ears soundalikes"
            keys = ["all", item["alike_of"], "generated" if generated else "written"]
            for k in keys:
                cell = m.soundalikes.setdefault(k, [0, 0])
                cell[0] += woke
                cell[1] += 1
