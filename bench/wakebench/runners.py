"""The systems: ears (`ears scan --json`, one or more labelled configurations),
PocketSphinx's keyphrase spotter, and the peer engines (bench/peers, in the bench
virtualenv). Each process reads one stream, once, under /usr/bin/time."""
from __future__ import annotations

import inspect
import json
import os
import re
import shlex
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Any

from . import cache, config

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCH)
PEERS = os.path.join(BENCH, "peers")
KWS_DICT = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
# Rough CPU seconds per audio second, only to start the longest work first.
COST = {"ears": 0.17, "kws": 0.03, "porcupine": 0.01, "openwakeword": 0.06, "microwakeword": 0.04}


@dataclass(frozen=True)
class Wake:
    phrase: str
    t: float  # seconds into the stream
    score: float | None = None


@dataclass
class Result:
    run: str
    stream: str
    wakes: dict[str, list[Wake]]  # per setting
    audio_s: float
    cpu_s: float
    wall_s: float
    rss_kb: int

    def to_json(self) -> dict[str, Any]:
        return dict(run=self.run, stream=self.stream, audio_s=self.audio_s, cpu_s=self.cpu_s, wall_s=self.wall_s,
                    rss_kb=self.rss_kb, wakes={s: [[w.phrase, w.t, w.score] for w in ws] for s, ws in self.wakes.items()})

    @staticmethod
    def from_json(d: dict[str, Any]) -> "Result":
        return Result(d["run"], d["stream"], {s: [Wake(*w) for w in ws] for s, ws in d["wakes"].items()},
                      d["audio_s"], d["cpu_s"], d["wall_s"], d["rss_kb"])


@dataclass
class Run:
    """One kind of process: a system at one or more settings (thresholds), over streams."""
    key: str
    system: str  # the system's name in the report, e.g. "ears default", "openWakeWord 0.5.1"
    family: str  # ears, kws, porcupine, openwakeword, microwakeword
    settings: list[str]  # threshold labels this process reports
    default: str | None  # the setting that is the system's default, if this run has it
    phrases: dict[str, str]  # phrase -> the engine's keyword
    sweep_only: bool  # runs on the sweep streams only
    args: list[str] = field(default_factory=list)
    # ears only: whether its summary must list every phrase as trained (True), none (False),
    # or either (None), so a configuration cannot silently measure the other design.
    expect_trained: bool | None = None
    # ears only: thresholds above the default read off the default pass's own wakes (those
    # scoring at least the threshold). A wake the default took may have hidden, in its 2 s
    # rest, a later and higher score the stricter setting would have woken on, so recall
    # read this way is a lower bound; false wakes are exact.
    score_sweep: list[str] = field(default_factory=list)
    # ears only: the route whose wakes the score sweep reads ("trained": a trained
    # model's threshold, which scores only its head's wakes); the other route's wakes
    # stand at every setting, as they would in a run at that threshold (an acoustic
    # detection of a trained phrase wakes on the head's agreement, `[wake]
    # head_agreement`, not on its threshold; its score is the verifier's). None: every wake.
    score_sweep_route: str | None = None

    def reads(self, stream: Any) -> bool:
        """Whether this process kind scans `stream` (a streams.Stream)."""
        sweep = stream.kind == "negative" or (stream.kind == "positive" and stream.condition in config.SWEEP_CONDITIONS)
        return sweep or not self.sweep_only

    def command(self, stream_wav: str, ears: str, python: str, workdir: str) -> list[str]:
        if self.family == "ears":
            cmd = [ears, "scan", "--json"]
            for p in self.phrases:
                cmd += ["--phrase", p]
            return cmd + self.args + [stream_wav]
        if self.family == "kws":
            path = os.path.join(workdir, f"kws-{self.settings[0]}.txt")
            with open(path, "w") as f:
                for p in self.phrases:
                    f.write(f"{p} /{self.settings[0]}/\n")
            return ["pocketsphinx_continuous", "-infile", stream_wav, "-kws", path, "-time", "yes", "-logfn", "/dev/null"]
        script = {"porcupine": "porcupine.py", "openwakeword": "oww.py", "microwakeword": "microwakeword.py"}[self.family]
        return [python, os.path.join(PEERS, script), stream_wav, "--keywords", ",".join(self.phrases.values()),
                "--thresholds", ",".join(self.settings)]

    def parse(self, stdout: str) -> tuple[dict[str, list[Wake]], float | None]:
        """The wakes per setting, and the audio seconds the process says it read."""
        if self.family == "ears":
            return self.parse_ears(stdout)
        if self.family == "kws":
            return {self.settings[0]: refractory(parse_kws(stdout))}, None
        out = json.loads(stdout.strip().splitlines()[-1])
        by_keyword = {k: p for p, k in self.phrases.items()}
        return ({s: [Wake(by_keyword[k], float(t), float(score)) for k, t, score in ws] for s, ws in out["detections"].items()},
                float(out["audio_s"]))


    def parse_ears(self, stdout: str) -> tuple[dict[str, list[Wake]], float]:
        """`ears scan --json`'s wakes at its default and at each score_sweep setting
        (read off the same pass: see score_sweep and score_sweep_route), and the audio
        seconds it read."""
        wakes: list[tuple[Wake, str | None]] = []
        audio = None
        for line in stdout.splitlines():
            event = json.loads(line)
            if event.get("event") == "wake":
                wakes.append((Wake(event["phrase"], float(event["t"]), event.get("score")), event.get("route")))
            elif event.get("event") == "summary":
                audio = float(event["audio_s"])
                self.check_trained(event.get("trained", []))
            elif event.get("event") == "error":
                raise RuntimeError(f"ears scan: {event}")
        if audio is None:
            raise RuntimeError("ears scan printed no summary")
        found = {self.settings[0]: [w for w, _ in wakes]}
        for t in self.score_sweep:
            found[t] = [w for w, route in wakes
                        if (self.score_sweep_route is not None and route != self.score_sweep_route)
                        or (w.score is not None and w.score >= float(t))]
        return found, audio

    def check_trained(self, trained: list[str]) -> None:
        """Raises when `ears scan`'s summary says it used trained models other than expected."""
        if self.expect_trained is True and set(trained) != set(self.phrases):
            missing = ", ".join(sorted(set(self.phrases) - set(trained)))
            raise RuntimeError(f"{self.system}: ears scan used no trained model for {missing} (is the model in --models-dir?)")
        if self.expect_trained is False and trained:
            raise RuntimeError(f"{self.system}: ears scan used trained models for {', '.join(trained)}; "
                               "an acoustic configuration must read an empty --models-dir")


def candidate_wakes(candidates: list[tuple[str, float, float, bool]], wakes: list[Wake], threshold: float) -> list[Wake]:
    """The wakes ears would have made at verifier `threshold`, read off one `ears scan
    --candidates` pass's lines (the plan does not print them: see config.EARS_SWEEP) (phrase, t, calibrated score, whether a sound-alike won): a
    candidate wakes when its score reaches the threshold and no sound-alike won, then
    its phrase rests for the refractory time. Wakes that came without a candidate (a
    trained model's, which the verifier does not score) stand at every threshold.
    Exact below the run's own threshold; above it, a candidate the run accepted hid
    the ones its refractory time suppressed, so recall there is a lower bound."""
    judged = [Wake(p, t, score) for p, t, score, competitor in candidates if score >= threshold and not competitor]
    times = {(c[0], round(c[1], 2)) for c in candidates}
    unjudged = [w for w in wakes if (w.phrase, round(w.t, 2)) not in times]
    return refractory(judged + unjudged)


KWS_LINE = re.compile(r"^(\S.*?)\s+(-?\d+\.\d+)\s+(-?\d+\.\d+)\s+(-?[\d.e+-]+)\s*$")


def parse_kws(stdout: str) -> list[Wake]:
    """pocketsphinx_continuous -time yes prints `PHRASE START END PROB` per detection; the
    decision falls at the phrase's last frame."""
    wakes = []
    for line in stdout.splitlines():
        m = KWS_LINE.match(line)
        if m:
            wakes.append(Wake(m.group(1).strip(), float(m.group(3)), float(m.group(4))))
    return wakes


def refractory(wakes: list[Wake], seconds: float = config.REFRACTORY_S) -> list[Wake]:
    """One detection per call: a phrase that fired is not reported again for `seconds`."""
    last: dict[str, float] = {}
    out = []
    for w in sorted(wakes, key=lambda w: w.t):
        if w.phrase in last and w.t - last[w.phrase] < seconds:
            continue
        last[w.phrase] = w.t
        out.append(w)
    return out


def kws_phrases(phrases: list[str]) -> list[str]:
    """The phrases whose every word is in PocketSphinx's dictionary (kws cannot spot others)."""
    words = set()
    with open(KWS_DICT, encoding="utf-8", errors="ignore") as f:
        for line in f:
            words.add(line.split(" ", 1)[0].lower())
    return [p for p in phrases if all(w in words for w in p.lower().split())]


def timed(cmd: list[str]) -> tuple[str, str, int, float, float, int]:
    """cmd under /usr/bin/time: stdout, stderr, exit status, wall s, CPU s (user + sys), peak RSS KiB."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", tf.name, *cmd], capture_output=True, text=True)
        fields = open(tf.name).read().strip().splitlines()[-1].split()
    return p.stdout, p.stderr, p.returncode, float(fields[0]), float(fields[1]) + float(fields[2]), int(fields[3])


def identity(run: Run, ears: str, python: str, known: dict[str, str]) -> str:
    """What the result of `run` depends on besides the stream (cache.result_key):
    the ears binary and the models it reads, or the peer's version and runner.
    `known` memoizes the expensive parts (binary digests, peer versions)."""
    if run.family == "ears":
        if ears not in known:
            known[ears] = cache.file_digest([ears])
        models = ""
        if "--models-dir" in run.args:
            directory = run.args[run.args.index("--models-dir") + 1]
            models = cache.file_digest(sorted(os.path.join(directory, f) for f in os.listdir(directory)))
        # How its output is read (the score sweep's rule) is part of the result too.
        if "ears-reading" not in known:
            known["ears-reading"] = cache.digest([inspect.getsource(Run.parse_ears)])
        return f"ears {known[ears]} models {models} reading {known['ears-reading']}"
    if run.family not in known:
        known[run.family] = cache.peer_identity(run.family, python)
    return known[run.family]


def cache_args(run: Run) -> list[str]:
    """run.args without paths (a models directory is in identity() by its contents)."""
    out, skip = [], False
    for a in run.args:
        if skip:
            skip = False
            continue
        if a == "--models-dir":
            skip = True
            continue
        out.append(a)
    return out


def execute(run: Run, stream_name: str, stream_wav: str, stream_s: float, ears: str, python: str, workdir: str) -> Result:
    cmd = run.command(stream_wav, ears, python, workdir)
    stdout, stderr, rc, wall, cpu, rss = timed(cmd)
    if rc != 0:
        raise RuntimeError(f"{run.system} ({run.key}) failed on {stream_name} (exit {rc}): {stderr.strip()[-800:]}\n  {shlex.join(cmd)}")
    wakes, audio = run.parse(stdout)
    return Result(run.key, stream_name, wakes, audio if audio is not None else stream_s, cpu, wall, rss)


def peer_python() -> str:
    venv = os.path.join(ROOT, ".deps", "bench", "venv", "bin", "python")
    return venv if os.access(venv, os.X_OK) else "python3"


def parse_ears_config(spec: str) -> tuple[str, list[str]]:
    """"LABEL=ARGS" (ARGS split like a shell would) -> (label, args)."""
    label, _, args = spec.partition("=")
    return label.strip(), shlex.split(args)


def plan(phrases: list[str], ears_configs: list[tuple[str, list[str]]], ears_sweep: list[str],
         peers: bool = True, trained_sweep: list[str] | None = None) -> list[Run]:
    """Every process kind of the benchmark: each system at its default on every stream;
    its other thresholds either read off the same pass (openWakeWord and microWakeWord
    score every frame; ears's wakes carry their scores, read at `ears_sweep` and
    config.TRAINED_SCORE_SWEEP, above the default) or, where a threshold changes what
    the engine does, in processes of their own on the sweep streams (Porcupine's
    sensitivity, PocketSphinx's keyphrase threshold; a trained configuration's
    thresholds below its models' own, `trained_sweep`, default config.TRAINED_SWEEP)."""
    below = config.TRAINED_SWEEP if trained_sweep is None else trained_sweep
    runs: list[Run] = []
    for index, (label, args) in enumerate(ears_configs):
        # A variant of the trained design ("ears trained, …") reads the trained models too.
        expect = label.startswith(config.TRAINED_LABEL) if "--models-dir" in args else None
        # The trained design, and a variant of it with models of its own ("ears trained, before"),
        # is swept over the trained thresholds, so two sets of models compare at equal false wakes.
        if label == config.TRAINED_LABEL or (expect and label.startswith(config.TRAINED_LABEL)):
            runs.append(Run(f"{label}|default", label, "ears", ["default", *config.TRAINED_SCORE_SWEEP], "default",
                            {p: p for p in phrases}, False, list(args), expect, score_sweep=list(config.TRAINED_SCORE_SWEEP),
                            score_sweep_route="trained"))
            runs += [Run(f"{label}|{t}", label, "ears", [t], None, {p: p for p in phrases}, True,
                         [*args, config.TRAINED_SWEEP_FLAG, t], expect) for t in below]
            continue
        # Only the first configuration (the default design) is swept; the others are
        # compared at their defaults.
        sweep = ears_sweep if index == 0 and "transcript" not in args else []
        runs.append(Run(f"{label}|default", label, "ears", ["default", *sweep], "default", {p: p for p in phrases}, False,
                        list(args), expect, score_sweep=list(sweep)))
    kws = {p: p for p in kws_phrases(phrases)}
    if kws:
        name = "PocketSphinx kws"
        runs.append(Run(f"kws|{config.KWS_DEFAULT}", name, "kws", [config.KWS_DEFAULT], config.KWS_DEFAULT, kws, False))
        runs += [Run(f"kws|{t}", name, "kws", [t], None, kws, True) for t in config.KWS_SWEEP]
    if not peers:
        return runs
    pick = lambda table: {p: k for p, k in table.items() if p in phrases}
    if pick(config.PORCUPINE_KEYWORDS):
        name = "Porcupine 1.9.5"
        runs.append(Run("porcupine|0.5", name, "porcupine", ["0.5"], "0.5", pick(config.PORCUPINE_KEYWORDS), False))
        runs += [Run(f"porcupine|{s}", name, "porcupine", [s], None, pick(config.PORCUPINE_KEYWORDS), True)
                 for s in config.PORCUPINE_SWEEP]
    if pick(config.OWW_KEYWORDS):
        runs.append(Run("openwakeword", "openWakeWord 0.5.1", "openwakeword", ["0.5", *config.OWW_SWEEP], "0.5",
                        pick(config.OWW_KEYWORDS), False))
    if pick(config.MICRO_KEYWORDS):
        runs.append(Run("microwakeword", "microWakeWord 2.5.0", "microwakeword", ["default", *config.MICRO_SWEEP], "default",
                        pick(config.MICRO_KEYWORDS), False))
    return runs
