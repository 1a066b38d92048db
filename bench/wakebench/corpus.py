"""What audio: the clean corpus (bench/corpus.py: calls, fortunes, sound-alikes,
each a separate WAV), the sound-alikes `ears soundalikes` adds, and the babble bed.
Everything is cached in OUT/wake-corpus-KEY, keyed by the arguments and the sources."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import random
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from . import config
from .audio import read_wav, write_wav

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS_PY = os.path.join(BENCH, "corpus.py")
PIPER_SAY_PY = os.path.join(BENCH, "piper_say.py")  # says the piper voice's files: part of the recipe
BABBLE_S = 180  # seconds of babble bed; each file's babble is cut from it at its own offset
BABBLE_TALKERS = 5


def log(*a: object) -> None:
    print(*a, file=sys.stderr, flush=True)


def corpus_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_corpus", CORPUS_PY)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Corpus:
    path: str
    manifest: dict[str, Any]
    args: list[str]
    key: str
    made_s: float  # seconds making it took (when it was made)
    cached: bool
    soundalike_note: str

    def items(self, kind: str) -> list[dict[str, Any]]:
        return [i for i in self.manifest["items"] if i["kind"] == kind]


def corpus_args(phrases: list[str], voices: list[str], negative_minutes: float, commands_per_call: int,
                soundalikes_per_phrase: int | None, conversation_minutes: float = 0, soundalike_voices: int = 1000) -> list[str]:
    limit = ["--soundalikes-per-phrase", str(soundalikes_per_phrase)] if soundalikes_per_phrase is not None else []
    return limit + ["--negative-minutes", f"{negative_minutes:g}", "--phrases", ",".join(phrases), "--voices", ",".join(voices),
            "--snrs", "", "--negative-snrs", "", "--vary", "--commands-per-call", str(commands_per_call),
            "--conversation-minutes", f"{conversation_minutes:g}", "--soundalike-voices", str(soundalike_voices)]


def source_hash(*paths: str) -> str:
    h = hashlib.sha1()
    for p in paths:
        h.update(open(p, "rb").read())
    return h.hexdigest()


def make_corpus(out: str, ears: str, phrases: list[str], voices: list[str], negative_minutes: float,
                commands_per_call: int, jobs: int, soundalikes_per_phrase: int | None = None,
                conversation_minutes: float = 0, soundalike_voices: int = 1000) -> Corpus:
    # Only the hand-written near-misses (bench/corpus.py): sentences `ears soundalikes`
    # generates would tie the corpus to the detector under test, and every change to it
    # would make the peers scan again.
    extra, note = {}, "the hand-written near-miss sentences of bench/corpus.py (not `ears soundalikes`)"
    args = corpus_args(phrases, voices, negative_minutes, commands_per_call, soundalikes_per_phrase,
                       conversation_minutes, soundalike_voices)
    here = os.path.dirname(os.path.abspath(__file__))
    # The held-out texts' digest: another Debian fortunes package, another corpus.
    texts = corpus_module().held_out_texts_digest()
    key = hashlib.sha1((json.dumps([args, extra, texts]) + source_hash(CORPUS_PY, PIPER_SAY_PY, os.path.join(here, "corpus.py"))).encode()).hexdigest()[:12]
    # The corpus's digest is its key: the same key gives the same files.
    path = os.path.join(out, f"wake-corpus-{key}")
    manifest_path = os.path.join(path, "manifest.json")
    made_path = os.path.join(path, "made.json")
    if os.path.exists(manifest_path) and os.path.exists(made_path):
        log(f"wake: corpus cached in {path}")
        made = json.load(open(made_path))
        return Corpus(path, json.load(open(manifest_path)), args, key, made["seconds"], True, note)
    started = time.time()
    os.makedirs(path, exist_ok=True)
    cmd = [sys.executable, CORPUS_PY, path, *args, "--jobs", str(jobs)]
    if extra:
        extra_path = os.path.join(path, "ears-soundalikes.json")
        json.dump(extra, open(extra_path, "w"), indent=1)
        cmd += ["--extra-soundalikes", extra_path]
    log(f"wake: making the corpus in {path} ({shlex.join(cmd[1:])})")
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    manifest = json.load(open(manifest_path))
    for item in manifest["items"]:
        item["voice_split"] = config.voice_split(item["voice"])
    json.dump(manifest, open(manifest_path, "w"), indent=1)
    make_babble(path, manifest, jobs)
    json.dump(dict(seconds=time.time() - started), open(made_path, "w"))
    return Corpus(path, manifest, args, key, time.time() - started, False, note)


def make_babble(path: str, manifest: dict[str, Any], jobs: int) -> str:
    """The babble bed: BABBLE_TALKERS synthesized talkers (config.BABBLE_VOICES) each
    reading held-out fortunes (no model trained on them) that are not among the
    negatives, summed at equal level."""
    bed = os.path.join(path, "babble-bed.wav")
    if os.path.exists(bed):
        return bed
    corpus = corpus_module()
    rng = random.Random(7)
    # Fortunes the negatives do not use: the negatives take them from the front of the same shuffled list.
    negatives = {i.get("text") for i in manifest["items"]}
    texts = [t for t in corpus.fortunes(rng, 400, manifest["phrases"]) if t not in negatives]
    rng.shuffle(texts)
    work = os.path.join(path, "babble")
    os.makedirs(work, exist_ok=True)
    talkers = []
    per_talker = 14
    for k in range(BABBLE_TALKERS):
        voice = config.BABBLE_VOICES[k % len(config.BABBLE_VOICES)]
        parts = []
        for j, text in enumerate(texts[k * per_talker:(k + 1) * per_talker]):
            wav = os.path.join(work, f"talker{k}-{j}.wav")
            corpus.say(voice, text, wav, lead=0.1, tail=0.2)
            parts.append(read_wav(wav))
        track = np.concatenate(parts)
        reps = int(np.ceil(BABBLE_S * 16000 / len(track)))
        track = np.tile(track, reps)[: BABBLE_S * 16000]
        track = np.roll(track, rng.randrange(len(track)))  # each talker starts somewhere else
        talkers.append(track / max(float(np.sqrt(np.mean(track ** 2))), 1e-9))
    mix = np.sum(talkers, axis=0)
    mix *= 0.1 / float(np.sqrt(np.mean(mix ** 2)))
    write_wav(bed, mix)
    return bed
