"""The trained configuration's models: `ears train PHRASE --models-dir DIR` for each
benchmarked phrase, with the binary under test, before any stream is scanned.

A model is kept under its training key (bench/wakebench/cache.py: phrase, seed,
budget, the training code's and front end's digest, the synthesizers' versions), so a
rebuilt binary retrains only when what trains changed. Each phrase's training wall and
CPU time (user + sys of the process, from /usr/bin/time) and the voices `ears train`
says it held out are kept beside the model (record.json), so a cached model still
reports how long it took and which voices it never heard."""
from __future__ import annotations

import json
import os
import re
import shlex
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from . import cache, config, runners

# `ears train`'s summary line: "  on held-out voices (festival:kal_diphone, festival:ked_diphone): recall clean …"
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
    # True when `ears train` heard its clips from a developer's feature cache
    # (EARS_TRAIN_FEATURES): no synthesis, so the times are not what a user waits.
    from_feature_cache: bool = False

    @property
    def held_out_engines(self) -> list[str]:
        return sorted({engine_of(v) for v in self.held_out_voices})


@dataclass
class Training:
    """Every benchmarked phrase's model, in one directory."""
    directory: str
    sources_digest: str  # cache.training_sources()'s digest when the models were looked up
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
        return dict(directory=self.directory, sources_digest=self.sources_digest, seed=self.seed,
                    held_out_engines=self.held_out_engines, phrases=[asdict(p) for p in self.phrases])

    @staticmethod
    def from_json(d: dict[str, Any]) -> "Training":
        return Training(d["directory"], d.get("sources_digest", d.get("binary_sha256", "")), d["seed"],
                        [TrainedPhrase(**p) for p in d["phrases"]])


# What `ears train` prints (stderr) when it reads a developer's feature cache
# ("heard N clips from the feature cache …", PhraseTrainer.swift).
FEATURE_CACHE_NOTE = "from the feature cache"


def parse_held_out(stdout: str) -> list[str]:
    """The held-out voices from `ears train`'s summary; [] when it names none."""
    m = HELD_OUT_LINE.search(stdout)
    return [v.strip() for v in m.group(1).split(",") if v.strip()] if m else []


def train_all(ears: str, phrases: list[str], out: str, seed: int, log: Callable[[str], None],
              minutes: float | None = None, jobs: int = 1, retrain: bool = False) -> Training:
    """Trains each phrase whose model is stale, `jobs` at a time (one trainer keeps
    about one core busy: synthesis is serial), at the default budget (or `minutes`). A model is kept in
    OUT/trained/<file>-<key>/ under its cache.training_key, so it is reused until the
    training code, the front end, the synthesizers, the seed or the budget change; the
    configuration reads OUT/models-<keys digest>/, which holds a link to each. Raises
    RuntimeError naming the phrase and the command when `ears train` fails."""
    sources = cache.training_sources()
    sources_digest = cache.file_digest(sources)
    synthesizers = cache.debian_versions(cache.SYNTHESIZERS)
    keys = {p: cache.training_key(p, seed, minutes, sources_digest, synthesizers) for p in phrases}
    directory = os.path.join(out, f"models-{cache.digest(sorted(keys.values()))}")
    os.makedirs(directory, exist_ok=True)
    training = Training(directory, sources_digest, seed)
    def one(phrase: str) -> TrainedPhrase:
        name = model_file_name(phrase)
        home = os.path.join(out, "trained", f"{name[:-len(MODEL_EXTENSION)]}-{keys[phrase]}")
        model, record_path = os.path.join(home, name), os.path.join(home, "record.json")
        if os.path.exists(model) and os.path.exists(record_path) and not retrain:
            log(f"wake: model for \"{phrase}\" kept in {model} (training key {keys[phrase]})")
            trained = TrainedPhrase(**{**json.load(open(record_path)), "cached": True})
        else:
            os.makedirs(home, exist_ok=True)
            # --use-anyway: the bench measures the heads themselves (their lever table,
            # issue 20); `ears train` still prints how they compare with the acoustic
            # route on its held-out calls, kept in the record's summary.
            cmd = [ears, "train", phrase, "--seed", str(seed), "--models-dir", home, "--use-anyway"]
            if minutes is not None:
                cmd += ["--minutes", f"{minutes:g}"]
            log(f"wake: training \"{phrase}\" (its model is stale or missing): {shlex.join(cmd)}")
            stdout, stderr, rc, wall, cpu, _ = runners.timed(cmd)
            if rc != 0 or not os.path.exists(model):
                # stderr is ears's own progress and error sentence; no audio or transcript.
                raise RuntimeError(f"ears train failed for \"{phrase}\" (exit {rc}): {stderr.strip()[-800:]}\n  {shlex.join(cmd)}")
            trained = TrainedPhrase(phrase, model, wall, cpu, parse_held_out(stdout), stdout.strip().splitlines(),
                                    load_average=round(os.getloadavg()[0], 1),
                                    from_feature_cache=FEATURE_CACHE_NOTE in stderr)
            log(f"wake: trained \"{phrase}\" in {wall:.0f} s ({cpu:.0f} CPU s); held out: {', '.join(trained.held_out_voices) or 'none'}")
            # The record last: a model without one is trained again.
            json.dump(asdict(trained), open(record_path, "w"), indent=1)
        link = os.path.join(directory, name)
        if os.path.exists(link) and not os.path.samefile(link, model):
            os.remove(link)  # retrained: the configuration reads the new model
        if not os.path.exists(link):
            os.link(model, link)
        trained.model = link
        return trained

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        training.phrases = list(pool.map(one, phrases))
    return training


def reads_store_models(args: list[str], store: str) -> bool:
    """Whether ears arguments name a models directory the benchmark trains into
    (STORE/models-<key>, not the empty models-none)."""
    named = config.named_models_dir(args)
    if not named:
        return False
    directory = os.path.abspath(named)
    name = os.path.basename(directory)
    return (os.path.dirname(directory) == os.path.abspath(store) and name.startswith("models-")
            and name != "models-none")
