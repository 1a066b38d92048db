"""The clips bench/wyoming_bench.py streams: "hey jarvis" calls and non-phrase speech.

Built with bench/corpus.py's synthesis (flite, festival and espeak-ng voices,
sox for the pink noise), into a directory the caller owns and removes. Every
clip is 16 kHz mono S16; a call knows when its phrase ends, so latency can be
measured from the moment that sample is sent.
"""
from __future__ import annotations

import os
import random
import subprocess
import tempfile
import wave
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import corpus

PHRASE = "hey jarvis"
# Ten voices, so 20 calls are two per voice. festival's ked comes with
# festvox-kdlpc16k (make bench-setup); a voice that cannot speak here is left
# out, and the report lists the voices used.
VOICES = ["flite-kal16", "flite-awb", "flite-rms", "flite-slt", "festival-kal", "festival-ked",
          "espeak-us", "espeak-us-f", "espeak-gb-m", "espeak-gb-f"]
NOISE_SNR_DB = 10
CORPUS_SEED = 20261130


@dataclass(frozen=True)
class Clip:
    """One WAV to stream: `kind` is "call" or "negative"; `condition` "clean" or "snr10"."""

    path: Path
    kind: str
    condition: str
    voice: str
    seconds: float
    phrase_end_seconds: float | None  # calls only: where the phrase's last sample is

    def pcm(self) -> bytes:
        """The clip's samples (S16_LE, 16 kHz, mono)."""
        with wave.open(str(self.path), "rb") as wav:
            return wav.readframes(wav.getnframes())


def available_voices() -> list[str]:
    """VOICES whose synthesizer runs here (festival's ked may be missing)."""
    usable = []
    for voice in VOICES:
        try:
            _probe(voice)
            usable.append(voice)
        except (subprocess.CalledProcessError, FileNotFoundError):
            pass
    return usable


def _probe(voice: str) -> None:
    """Says one word with `voice` into a throwaway file (raises when it cannot)."""
    with tempfile.TemporaryDirectory(prefix="ears-voice-") as scratch:
        corpus.say(voice, "test", os.path.join(scratch, "probe.wav"))


def _make_call(out: Path, voice: str, command: str, variant: tuple[float, int], bed: Path, index: int) -> list[Clip]:
    """One call said by `voice`, clean and with pink noise at NOISE_SNR_DB."""
    clean = out / f"call-{index:03d}-clean.wav"
    phrase_end = corpus.say_call(voice, PHRASE, command, str(clean), variant)
    noisy = out / f"call-{index:03d}-snr{NOISE_SNR_DB}.wav"
    corpus.add_noise(str(clean), NOISE_SNR_DB, str(noisy), str(bed))
    return [Clip(path, "call", condition, voice, corpus.duration(str(path)), phrase_end)
            for path, condition in [(clean, "clean"), (noisy, f"snr{NOISE_SNR_DB}")]]


def _make_negative(out: Path, voice: str, text: str, variant: tuple[float, int], index: int) -> list[Clip]:
    """One fortune read by `voice` (clean)."""
    path = out / f"negative-{index:03d}.wav"
    corpus.say(voice, text, str(path), variant=variant)
    return [Clip(path, "negative", "clean", voice, corpus.duration(str(path)), None)]


def build(out: Path, calls: int, negative_minutes: float, jobs: int) -> tuple[list[Clip], list[Clip]]:
    """`calls` calls (each clean and noisy) and about `negative_minutes` of fortunes.

    Calls go round the voices, each with the next command and rate/pitch
    variant; fortunes (none saying the phrase) are shared out over the voices.
    The same arguments give the same clips (seeded choice, sox -R).
    """
    voices = available_voices()
    if not voices:
        raise RuntimeError("no speech synthesizer works: install flite, festival and espeak-ng (make setup)")
    bed = out / "noise-bed.wav"
    corpus.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", str(bed), "synth", str(corpus.NOISE_BED_S), "pinknoise"])
    work = []
    for index in range(calls):
        voice = voices[index % len(voices)]
        turn = index // len(voices) + index
        command = corpus.COMMANDS[turn % len(corpus.COMMANDS)]
        variant = corpus.VARIANTS[turn % len(corpus.VARIANTS)]
        work.append(lambda o=out, v=voice, c=command, w=variant, i=index: _make_call(o, v, c, w, bed, i))
    texts = corpus.fortunes(random.Random(CORPUS_SEED), negative_minutes, [PHRASE])
    for index, text in enumerate(texts):
        voice = voices[index % len(voices)]
        variant = corpus.VARIANTS[index % len(corpus.VARIANTS)]
        work.append(lambda o=out, v=voice, t=text, w=variant, i=index: _make_negative(o, v, t, w, i))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        made = [clip for clips in pool.map(lambda make: make(), work) for clip in clips]
    bed.unlink()
    return [c for c in made if c.kind == "call"], [c for c in made if c.kind == "negative"]
