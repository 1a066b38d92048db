"""What is scanned and how: a Setting (Vosk with its grammar, noise
suppression and threshold, or the trained model at a threshold), the
configuration files, one `ears scan --json` over the whole set per setting,
and its Result (which files woke, how often, and the CPU it took), counted
with the 95% intervals of bench/wakebench/intervals.py."""
from __future__ import annotations

import json
import os
import subprocess
import time
from dataclasses import dataclass, field
from typing import Literal, Sequence

from wakebench import intervals  # bench/wakebench: Wilson and Poisson intervals

from .config import DEFAULT_THRESHOLD, PHRASE, THRESHOLDS, TRAINED_THRESHOLDS, VOSK_LIBRARY, VOSK_MODEL
from .corpus import Clip, negative_seconds
from .training import models_directory


Route = Literal["vosk", "trained"]


@dataclass(frozen=True)
class Setting:
    """One scan of the set: Vosk with its grammar, noise suppression and match
    threshold, or the phrase's trained model at a threshold (None: the
    model's own; grammar and noise suppression do not reach it)."""
    route: Route
    grammar: bool = True
    noise_suppression: bool = True
    threshold: float | None = DEFAULT_THRESHOLD

    @property
    def is_default(self) -> bool:
        """Vosk at ears' default settings."""
        return (self.route == "vosk" and self.grammar and self.noise_suppression
                and self.threshold == DEFAULT_THRESHOLD)

    @property
    def is_trained_default(self) -> bool:
        """The trained model at its own threshold."""
        return self.route == "trained" and self.threshold is None

    def threshold_text(self) -> str:
        return "the model's own" if self.threshold is None else f"{self.threshold:g}"

    def describe(self) -> str:
        """The setting in words, as the tables and the log name it."""
        if self.route == "trained":
            if self.threshold is None:
                return "trained model, its own threshold"
            return f"trained model, threshold {self.threshold:g}"
        return (f"Vosk, grammar {'on' if self.grammar else 'off'}, noise suppression "
                f"{'on' if self.noise_suppression else 'off'}, threshold {self.threshold_text()}")

    def file_name(self) -> str:
        """The name of the scan's JSON lines in WORKDIR/scans."""
        if self.route == "trained":
            return f"trained-threshold-{'own' if self.threshold is None else f'{self.threshold:g}'}.jsonl"
        return (f"vosk-grammar-{'on' if self.grammar else 'off'}-ns-{'on' if self.noise_suppression else 'off'}"
                f"-threshold-{self.threshold_text()}.jsonl")


@dataclass
class Result:
    """One scan's outcome over the set (or, through part, over some of its clips)."""
    setting: Setting
    woke: set[str]  # files with at least one wake
    scores: dict[str, float]  # the best wake score per file that woke
    cpu_s: float
    audio_s: float
    wall_s: float
    clips: list[Clip] = field(repr=False, default_factory=list)
    wakes: dict[str, int] = field(repr=False, default_factory=dict)  # wake events per file that woke

    def part(self, clips: Sequence[Clip]) -> Result:
        """The same scan counted over some of its clips only."""
        return Result(self.setting, self.woke, self.scores, self.cpu_s, self.audio_s, self.wall_s, list(clips),
                      self.wakes)

    def _select(self, has_phrase: bool, noisy: bool) -> list[Clip]:
        return [c for c in self.clips if c.has_phrase == has_phrase and c.noisy == noisy]

    def woken(self, has_phrase: bool, noisy: bool) -> tuple[int, int]:
        """(files that woke, files) among the clips with or without the phrase, clean or at 10 dB."""
        chosen = self._select(has_phrase, noisy)
        return sum(c.path in self.woke for c in chosen), len(chosen)

    def recall_percent(self, noisy: bool) -> float:
        """The share of files with the phrase that woke, in percent (0 when there are none)."""
        hits, total = self.woken(True, noisy)
        return 100.0 * hits / total if total else 0.0

    def false_wakes(self, noisy: bool | None = None) -> int:
        """Files without the phrase that woke at least once."""
        if noisy is None:
            return self.false_wakes(False) + self.false_wakes(True)
        return self.woken(False, noisy)[0]

    def false_wake_events(self, noisy: bool | None = None) -> int:
        """Wakes (every one, not only a file's first) in files without the phrase."""
        return sum(self.wakes.get(c.path, 1 if c.path in self.woke else 0) for c in self.clips
                   if not c.has_phrase and (noisy is None or c.noisy == noisy))

    def negative_hours(self, noisy: bool | None = None) -> float:
        """Hours of audio without the phrase among the clips counted."""
        return negative_seconds(self.clips, noisy) / 3600

    def false_wake_rate(self, noisy: bool | None = None) -> str:
        """Wakes per hour of audio without the phrase with its exact 95%
        Poisson interval, e.g. "59.63 (32.60–100.05)"."""
        return intervals.rate_interval(self.false_wake_events(noisy), self.negative_hours(noisy))

    def recall_interval(self, noisy: bool) -> str:
        """"68.8% (59–77)": recall with its 95% Wilson interval."""
        return intervals.pct_interval(*self.woken(True, noisy))

    @property
    def cpu_per_audio(self) -> float:
        """The scan's CPU seconds per second of audio scanned."""
        return self.cpu_s / self.audio_s


def settings(vosk_sweep: bool, trained: bool) -> list[Setting]:
    """The scans to run: every Vosk combination (or only the default one),
    then the trained model's thresholds."""
    vosk = [Setting("vosk", grammar, suppression, threshold)
            for grammar in (True, False) for suppression in (True, False) for threshold in THRESHOLDS]
    if not vosk_sweep:
        vosk = [s for s in vosk if s.is_default]
    return vosk + ([Setting("trained", threshold=t) for t in TRAINED_THRESHOLDS] if trained else [])


def empty_models_directory(work: str) -> str:
    """An empty models directory for the Vosk rows: a model in ears' default
    state directory would otherwise hear the phrase for them."""
    path = os.path.join(work, "models-none")
    os.makedirs(path, exist_ok=True)
    if os.listdir(path):
        raise SystemExit(f"korean.py: {path} should be empty (the Vosk rows must run without a trained model); "
                         f"remove what is in it")
    return path


def write_configs(work: str) -> dict[bool, str]:
    """A configuration file for the grammar on and one for it off."""
    paths = {}
    for grammar in (True, False):
        path = os.path.join(work, f"vosk-grammar-{'on' if grammar else 'off'}.conf")
        with open(path, "w") as f:
            f.write(f"[engine]\nvosk_grammar = {'on' if grammar else 'off'}\n")
        paths[grammar] = path
    return paths


def vosk_environment() -> dict[str, str]:
    """The environment for ears: the repository's Vosk unless one is chosen."""
    environment = dict(os.environ)
    if not environment.get("EARS_VOSK_LIBRARY"):
        environment["EARS_VOSK_LIBRARY"] = VOSK_LIBRARY
    if not environment.get("EARS_VOSK_MODEL"):
        environment["EARS_VOSK_MODEL"] = VOSK_MODEL
    return environment


def scan_command(ears: str, setting: Setting, config: str, work: str) -> list[str]:
    """`ears scan` for a setting. Both routes name Vosk as the engine; with a
    model for the only phrase, ears loads no engine but the model."""
    command = [ears, "scan", "--json", "--engine", "vosk", "--phrase", PHRASE, "--config", config]
    if setting.route == "trained":
        command += ["--models-dir", models_directory(work)]
        if setting.threshold is not None:
            command += ["--trained-threshold", f"{setting.threshold:g}"]
        return command
    return command + ["--models-dir", empty_models_directory(work),
                      "--noise-suppression", "on" if setting.noise_suppression else "off",
                      "--threshold", f"{setting.threshold:g}"]


def scan(ears: str, clips: list[Clip], setting: Setting, config: str, work: str, prefix: str = "") -> Result:
    """One `ears scan` over every file of the set (the engine loads once); its
    JSON lines are kept in WORKDIR/scans (the file's name after `prefix`). The summary's "trained" list must
    hold the phrase for the trained rows and nothing for the Vosk rows."""
    started = time.monotonic()
    done = subprocess.run(scan_command(ears, setting, config, work) + [c.path for c in clips],
                          capture_output=True, text=True, env=vosk_environment())
    wall = time.monotonic() - started
    os.makedirs(os.path.join(work, "scans"), exist_ok=True)
    with open(os.path.join(work, "scans", prefix + setting.file_name()), "w") as f:
        f.write(done.stdout)
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    errors = [e for e in events if e["event"] == "error"]
    summaries = [e for e in events if e["event"] == "summary"]
    if done.returncode != 0 or errors or len(summaries) != 1:
        raise SystemExit(f"korean.py: ears scan failed ({setting.describe()}): {done.stderr.strip()[-2000:]}")
    expected_trained = [PHRASE] if setting.route == "trained" else []
    if summaries[0].get("trained") != expected_trained:
        raise SystemExit(f"korean.py: ears scan ({setting.describe()}) heard with trained models "
                         f"{summaries[0].get('trained')}, expected {expected_trained}")
    woke: set[str] = set()
    scores: dict[str, float] = {}
    wakes: dict[str, int] = {}
    for event in events:
        if event["event"] == "wake":
            woke.add(event["file"])
            scores[event["file"]] = max(scores.get(event["file"], 0.0), float(event["score"]))
            wakes[event["file"]] = wakes.get(event["file"], 0) + 1
    summary = summaries[0]
    return Result(setting, woke, scores, float(summary["cpu_s"]), float(summary["audio_s"]), wall, clips, wakes)
