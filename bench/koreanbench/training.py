"""The phrase's trained model: `ears train` into WORKDIR/models at the default
budget (timed, and kept with a record of the run so the next run reuses it),
the speakers read from the model file, and how the model knows each voice of
the set (held out, trained on, validation, or no speaker)."""
from __future__ import annotations

import json
import os
import re
import resource
import struct
import subprocess
import time
from dataclasses import dataclass
from typing import Iterable, Literal, TypedDict

from wakebench.cache import SYNTHESIZERS, debian_versions, digest, file_digest, training_sources

from .config import PHRASE


def models_directory(work: str) -> str:
    """Where `ears train` writes the phrase's model for this benchmark."""
    return os.path.join(work, "models")


@dataclass(frozen=True)
class Training:
    """The phrase's model and the `ears train` run that made it."""
    command: list[str]
    model_path: str
    model_threshold: float
    voices: list[str]  # the speakers of its train split, as ears names them, e.g. "espeak:ko+m3"
    held_out_voices: list[str]  # the speakers it never trained or validated on, e.g. "espeak:ko+Annie"
    wall_s: float
    cpu_s: float  # user + system time of the `ears train` process
    output: list[str]  # its stdout: the file, the threshold, the held-out figures
    cached: bool  # true when this run found the model and did not train

    @property
    def held_out_variants(self) -> set[str]:
        """The held-out voices as this set names them ("ko+annie")."""
        return set_names(self.held_out_voices)

    @property
    def trained_variants(self) -> set[str]:
        """The speakers it trained on, as this set names them."""
        return set_names(self.voices)


def set_names(voices: Iterable[str]) -> set[str]:
    """espeak-ng voice ids as this set names its voices, lowercased: the
    engine prefix and any rate or pitch suffix dropped."""
    return {voice.split(":")[1].lower() for voice in voices if voice.startswith("espeak:")}


MODEL_MAGIC = b"\x89EWAKE\r\n"
MODEL_HEADER_BYTES = 20  # magic, format version, payload length, CRC-32


def model_voices(path: str) -> list[str]:
    """The speakers of a model's train split, read from the model file
    (format 1 of Sources/EarsNeural/WakeModelFile.swift: little-endian;
    a string is a UInt32 byte count then UTF-8). `ears train` prints only how
    many there are."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MODEL_MAGIC or struct.unpack_from("<I", data, 8)[0] != 1:
        raise SystemExit(f"korean.py: {path} is not a format 1 wake model; run ears train again")
    offset = MODEL_HEADER_BYTES

    def u32() -> int:
        nonlocal offset
        value: int = struct.unpack_from("<I", data, offset)[0]
        offset += 4
        return value

    def string() -> str:
        nonlocal offset
        count = u32()
        offset += count
        return data[offset - count:offset].decode("utf-8")

    for _ in range(3):  # phrase, language, front-end version
        string()
    offset += 4  # threshold
    u32()  # window embeddings
    u32()  # dimension
    offset += 4  # leak
    for _ in range(u32()):  # layers: inputs, outputs, weights, biases
        inputs, outputs = u32(), u32()
        offset += 4 * (inputs * outputs + outputs)
    normalisation = u32()
    offset += 2 * 4 * normalisation  # means and scales
    return [string() for _ in range(u32())]


TRAINING_RECORD = "training-run.json"  # in WORKDIR/models, next to the model


class TrainingRecord(TypedDict):
    """What training-run.json keeps of an `ears train` run (no audio: its
    stdout is the file, the threshold and the held-out figures)."""
    command: list[str]
    wall_s: float
    user_s: float
    system_s: float
    stdout: str
    sources: str  # training_identity() when it was made: a model made from other sources is not reused


def training_identity() -> str:
    """What the model depends on besides the phrase: the training sources and
    the installed synthesizers (as the English benchmark keys its models), so
    a change to either trains again instead of measuring a stale model."""
    return digest(["korean-training-v1", file_digest(training_sources()), debian_versions(SYNTHESIZERS)])


def train_command(ears: str, work: str) -> list[str]:
    """`ears train` for the phrase into WORKDIR/models, at the default budget (the
    model used even if the acoustic route heard more held-out calls: the bench
    measures the head)."""
    return [ears, "train", PHRASE, "--models-dir", models_directory(work), "--use-anyway"]


def written_model(stdout: str) -> str | None:
    """The model file `ears train` says it wrote ("wrote PATH"), or None."""
    found = re.search(r"^wrote (.+)$", stdout, re.MULTILINE)
    return found.group(1) if found else None


def read_training(record: TrainingRecord, cached: bool) -> Training:
    """Reads what `ears train` printed: the model file ("wrote PATH"), its
    threshold and the held-out voices ("held-out voices (A, B): ...")."""
    stdout: str = record["stdout"]
    path = written_model(stdout)
    threshold = re.search(r"threshold ([0-9.]+), trained in", stdout)
    held_out = re.search(r"held-out voices \(([^)]*)\)", stdout)
    if not (path and threshold and held_out):
        raise SystemExit(f"korean.py: could not read ears train's output (the model file, threshold or held-out "
                         f"voices):\n{stdout}")
    return Training(record["command"], path, float(threshold.group(1)), model_voices(path),
                    [v.strip() for v in held_out.group(1).split(",") if v.strip()],
                    record["wall_s"], record["user_s"] + record["system_s"],
                    stdout.strip().splitlines(), cached)


def train(ears: str, work: str) -> Training:
    """Runs `ears train` for the phrase at the default budget into
    WORKDIR/models, timing it (wall, and CPU from the child's resource usage),
    and keeps its output and times in WORKDIR/models/training-run.json. When
    the model and that record are already there and the record names this
    checkout's training sources, it does not train again; without the record
    the held-out voices are unknown, so it trains."""
    directory = models_directory(work)
    os.makedirs(directory, exist_ok=True)
    record_path = os.path.join(directory, TRAINING_RECORD)
    models = [name for name in os.listdir(directory) if name.endswith(".wakemodel")]
    identity = training_identity()
    if models and os.path.exists(record_path):
        with open(record_path) as f:
            kept = json.load(f)
        path = written_model(kept["stdout"])
        if kept.get("sources") == identity and path and os.path.exists(path):
            return read_training(kept, cached=True)
        print("korean.py: the kept model is missing or was made from other training sources; training again", flush=True)
    command = train_command(ears, work)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"korean.py: ears train failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    record = TrainingRecord(command=command, wall_s=wall, user_s=after.ru_utime - before.ru_utime,
                            system_s=after.ru_stime - before.ru_stime, stdout=done.stdout, sources=identity)
    with open(record_path, "w") as f:
        json.dump(record, f, ensure_ascii=False, indent=1)
    return read_training(record, cached=False)


VoiceGroup = Literal["held out", "trained on", "validation", "not a training voice"]
VOICE_GROUPS: list[VoiceGroup] = ["held out", "trained on", "validation", "not a training voice"]


def voice_group(voice: str, training: Training) -> VoiceGroup:
    """How the model knows a voice of this set. The model file names its
    train and held-out speakers; the validation speakers (early stopping and
    the threshold's choice) are the rest of VoiceCatalog's `ko+VARIANT`
    speakers, which are every person-like variant, as this set's are. The
    bare `ko` is no speaker: ears trains on `ko+VARIANT` only."""
    if voice.lower() in training.held_out_variants:
        return "held out"
    if voice.lower() in training.trained_variants:
        return "trained on"
    return "validation" if "+" in voice else "not a training voice"
