"""The set: every sentence (config) said by each espeak-ng voice at a rate and
pitch assigned by rule, into 16 kHz mono WAV files with silence around the
speech, each clean and mixed with `sox -R` pink noise at config.SNR_DB. Pure
Python (array, wave): no numpy."""
from __future__ import annotations

import array
import math
import os
import random
import shutil
import subprocess
import sys
import wave
from dataclasses import dataclass
from typing import Iterable, Sequence

from .config import (COMMANDS, LEAD_SECONDS, NEGATIVE_SENTENCES, NOISE_BED_SECONDS, PHRASE, PHRASE_INSIDE, PITCHES,
                     RATES, SAMPLE_RATE, SEED, SNR_DB, TAIL_SECONDS, VOICES)


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
    """Runs a tool (espeak-ng, sox), failing on its exit status; SOX_OPTS is
    emptied so no user setting changes what sox writes."""
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
    """The samples of a 16 kHz mono S16 WAV file (ValueError for any other format)."""
    with wave.open(path, "rb") as w:
        if (w.getnchannels(), w.getsampwidth(), w.getframerate()) != (1, 2, SAMPLE_RATE):
            raise ValueError(f"{path}: not 16 kHz mono S16")
        samples = array.array("h")
        samples.frombytes(w.readframes(w.getnframes()))
    if sys.byteorder == "big":
        samples.byteswap()
    return samples


def write_samples(path: str, samples: Iterable[float]) -> None:
    """Writes samples, rounded and clipped to S16, as a 16 kHz mono WAV file."""
    data = array.array("h", (max(-32768, min(32767, round(s))) for s in samples))
    if sys.byteorder == "big":
        data.byteswap()
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes(data.tobytes())


def rms(samples: Sequence[int]) -> float:
    """The root mean square of samples (0 for none)."""
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
    """A WAV file's length in seconds."""
    with wave.open(path, "rb") as w:
        return w.getnframes() / w.getframerate()


def audio_seconds(clips: Sequence[Clip]) -> float:
    """The length of every clip together, in seconds."""
    return sum(clip.seconds for clip in clips)


def negative_seconds(clips: Sequence[Clip], noisy: bool | None = None) -> float:
    """The audio without the phrase (clean, 10 dB, or both when noisy is None)."""
    return sum(c.seconds for c in clips if not c.has_phrase and (noisy is None or c.noisy == noisy))
