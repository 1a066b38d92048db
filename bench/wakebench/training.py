"""The trained configuration's models: `ears train PHRASE --models-dir DIR` for each
benchmarked phrase, with the binary under test, before any stream is scanned.

Models live in OUT/models-<binary sha256 prefix>-<seed>/, so a rebuilt binary trains
afresh and an unchanged one reuses what it trained. Each phrase's training wall and
CPU time (user + sys of the process, from /usr/bin/time) and the voices `ears train`
says it held out are kept beside the directory, in OUT/models-<hash>-<seed>.json, so
a cached model still reports how long it took and which voices it never heard."""
from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from . import config, runners

# `ears train`'s summary line: "  held-out voices (festival:kal_diphone, festival:ked_diphone): recall clean …"
HELD_OUT_LINE = re.compile(r"held-out voices \(([^)]*)\)")
# A model's file: PhraseModelDirectory.fileName(forPhrase:) (lower-case words joined by "-").
MODEL_EXTENSION = ".wakemodel"
TRAINED_LABEL = config.TRAINED_LABEL


def model_file_name(phrase: str) -> str:
    """The file `ears train` writes for `phrase` (mirrors PhraseModelDirectory.fileName(forPhrase:))."""
    words = [w for w in re.split(r"[^\w]+|_", phrase.lower()) if w]
    return ("-".join(words) or "phrase") + MODEL_EXTENSION


def engine_of(voice: str) -> str:
    """A voice's synthesis engine: "festival:kal_diphone" (ears train) and "festival-kal"
    (the benchmark's names) both give "festival"; espeak-ng's voices give "espeak"."""
    engine = re.split(r"[:\-]", voice, maxsplit=1)[0].lower()
    return "espeak" if engine.startswith("espeak") else engine


@dataclass
class TrainedPhrase:
    """One phrase's model and what training it cost."""
    phrase: str
    model: str  # the model file's path
    wall_s: float  # training wall time, seconds
    cpu_s: float  # training CPU time (user + sys), seconds
    held_out_voices: list[str]  # as `ears train` names them ("festival:kal_diphone")
    summary: list[str]  # `ears train`'s stdout (where the file went, threshold, its own held-out figures)
    cached: bool = False  # true when this run found the model and did not train it
    # The machine's 1-minute load average when training ended: wall time on a shared
    # machine grows with it (CPU time much less), so the reader can judge the wall figure.
    load_average: float | None = None

    @property
    def held_out_engines(self) -> list[str]:
        return sorted({engine_of(v) for v in self.held_out_voices})


@dataclass
class Training:
    """Every benchmarked phrase's model, in one directory."""
    directory: str
    binary_sha256: str
    seed: int
    phrases: list[TrainedPhrase] = field(default_factory=list)

    @property
    def held_out_engines(self) -> list[str]:
        """The engines every phrase's model held out (the intersection: a voice counts as
        held out for the configuration only if no phrase's model trained on it)."""
        sets = [set(p.held_out_engines) for p in self.phrases]
        return sorted(set.intersection(*sets)) if sets else []

    @property
    def ears_args(self) -> list[str]:
        """The `ears scan` arguments of the trained configuration."""
        return ["--models-dir", self.directory]

    def to_json(self) -> dict[str, Any]:
        return dict(directory=self.directory, binary_sha256=self.binary_sha256, seed=self.seed,
                    held_out_engines=self.held_out_engines, phrases=[asdict(p) for p in self.phrases])

    @staticmethod
    def from_json(d: dict[str, Any]) -> "Training":
        return Training(d["directory"], d["binary_sha256"], d["seed"], [TrainedPhrase(**p) for p in d["phrases"]])


def parse_held_out(stdout: str) -> list[str]:
    """The held-out voices from `ears train`'s summary; [] when it names none."""
    m = HELD_OUT_LINE.search(stdout)
    return [v.strip() for v in m.group(1).split(",") if v.strip()] if m else []


def train_all(ears: str, phrases: list[str], out: str, binary_sha256: str, seed: int,
              log: Callable[[str], None]) -> Training:
    """Trains each phrase without a model in OUT/models-<hash>-<seed>/ (one at a time: the
    trainer uses both cores), at the default budget. Raises RuntimeError naming the phrase
    and the command when `ears train` fails."""
    directory = os.path.join(out, f"models-{binary_sha256}-{seed}")
    record_path = directory + ".json"
    os.makedirs(directory, exist_ok=True)
    known: dict[str, TrainedPhrase] = {}
    if os.path.exists(record_path):
        known = {p.phrase: p for p in Training.from_json(json.load(open(record_path))).phrases}
    training = Training(directory, binary_sha256, seed)
    for phrase in phrases:
        model = os.path.join(directory, model_file_name(phrase))
        if os.path.exists(model) and phrase in known:
            log(f"wake: model for \"{phrase}\" cached in {model}")
            training.phrases.append(TrainedPhrase(**{**asdict(known[phrase]), "cached": True}))
            continue
        cmd = [ears, "train", phrase, "--seed", str(seed), "--models-dir", directory]
        log(f"wake: training \"{phrase}\": {shlex.join(cmd)}")
        stdout, stderr, rc, wall, cpu, _ = runners.timed(cmd)
        if rc != 0 or not os.path.exists(model):
            # stderr is ears's own progress and error sentence; no audio or transcript.
            raise RuntimeError(f"ears train failed for \"{phrase}\" (exit {rc}): {stderr.strip()[-800:]}\n  {shlex.join(cmd)}")
        trained = TrainedPhrase(phrase, model, wall, cpu, parse_held_out(stdout), stdout.strip().splitlines(),
                                load_average=round(os.getloadavg()[0], 1))
        log(f"wake: trained \"{phrase}\" in {wall:.0f} s ({cpu:.0f} CPU s); held out: {', '.join(trained.held_out_voices) or 'none'}")
        training.phrases.append(trained)
        known[phrase] = trained
        # Written after every phrase so an interrupted run keeps what it trained.
        json.dump(Training(directory, binary_sha256, seed, list(known.values())).to_json(), open(record_path, "w"), indent=1)
    return training
