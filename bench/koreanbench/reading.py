"""Hours of Korean read speech without the phrase, as a microphone hears a
person reading aloud: for each espeak-ng Korean voice one continuous stream
of sentences from a real Korean text, clean and under pink noise at
config.SNR_DB, so a false-wake rate of the issue's order (at most 1 per hour)
can be shown rather than guessed from minutes of short files.

The text is the Korean GIMP manual (Debian's gimp-help-ko, unpacked by
`make korean-prose`): real Korean prose that no part of ears trains on (a
Korean model's other speech is made from hunspell-ko's words,
`KoreanSentenceMaker`). Sentences naming a phrase word are left out. The
voices read it in parts of SENTENCES_PER_PART sentences, each part at a rate
and pitch drawn from config, with espeak-ng's own pauses between sentences
and PART_GAP_SECONDS between parts. Deterministic: the order and the draws
come from config.SEED and the voice; the noise from `sox -R`. Pure Python
and sox; no numpy."""
from __future__ import annotations

import glob
import html.parser
import math
import os
import random
import re
import shutil
import subprocess
import sys
from typing import Sequence

from .config import PHRASE, PITCHES, RATES, REPOSITORY, SAMPLE_RATE, SEED, SNR_DB, VOICES
from .corpus import Clip, read_samples, run, wav_seconds

PROSE_DIRECTORY = os.path.join(REPOSITORY, ".deps/bench/gimp-help-ko/usr/share/gimp/2.0/help/ko")
READING_SECONDS_PER_VOICE = 1200  # 20 min a voice: 2 h clean and 2 h at 10 dB over the six voices
SENTENCES_PER_PART = 40
PART_GAP_SECONDS = 1.0
SENTENCE_CHARACTERS = (10, 120)  # shortest and longest sentence kept, in characters
HANGUL_SHARE = 0.95  # of a sentence's letters, at least: Korean, not English words read by a Korean voice
ACTIVE_WITHIN_DB = 40.0  # a 20 ms frame counts as speech within this many dB of the loudest


class _Text(html.parser.HTMLParser):
    """A page's text, a line break at every block element, scripts and styles left out."""
    BLOCKS = {"p", "li", "div", "br", "td", "th", "h1", "h2", "h3", "h4", "title", "dt", "dd", "pre"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.hidden = max(0, self.hidden - 1)

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def is_hangul(character: str) -> bool:
    """A precomposed Hangul syllable."""
    return "\uac00" <= character <= "\ud7a3"


def korean_sentences(text: str, phrase: str = PHRASE) -> list[str]:
    """The sentences of a text fit to read: SENTENCE_CHARACTERS long, at least
    HANGUL_SHARE of their letters Hangul (and 8 syllables), none holding a
    word of the phrase. Ends a sentence without final punctuation with a full
    stop, so espeak-ng pauses after it."""
    phrase_words = phrase.split()
    kept = []
    for line in text.split("\n"):
        for sentence in re.split(r"(?<=[.?!])\s+", " ".join(line.split())):
            letters = [c for c in sentence if c.isalpha()]
            syllables = sum(is_hangul(c) for c in letters)
            if not (SENTENCE_CHARACTERS[0] <= len(sentence) <= SENTENCE_CHARACTERS[1]):
                continue
            if syllables < 8 or syllables < HANGUL_SHARE * len(letters):
                continue
            if any(word in sentence for word in phrase_words):
                continue
            kept.append(sentence if sentence[-1] in ".?!" else sentence + ".")
    return kept


def prose(directory: str = PROSE_DIRECTORY) -> list[str]:
    """Every sentence of the manual fit to read, each once, in a fixed order.
    A missing manual is a sentence saying how to get it."""
    pages = sorted(glob.glob(os.path.join(directory, "*.html")))
    if not pages:
        raise SystemExit(f"korean.py: no Korean text in {directory}: run `make korean-prose` "
                         f"(it unpacks Debian's gimp-help-ko there)")
    sentences: set[str] = set()
    for page in pages:
        parser = _Text()
        with open(page, encoding="utf-8") as f:
            parser.feed(f.read())
        sentences.update(korean_sentences("".join(parser.parts)))
    return sorted(sentences)


def active_rms(samples: Sequence[int]) -> float:
    """The RMS of the 20 ms frames within ACTIVE_WITHIN_DB of the loudest:
    the speech's level, not diluted by its pauses."""
    frame = SAMPLE_RATE // 50
    powers = [sum(s * s for s in samples[i:i + frame]) / frame for i in range(0, len(samples) - frame + 1, frame)]
    if not powers:
        return 0.0
    floor = max(powers) / 10 ** (ACTIVE_WITHIN_DB / 10)
    active = [p for p in powers if p >= floor]
    return math.sqrt(sum(active) / len(active))


def read_aloud(voice: str, sentences: Sequence[str], work: str) -> str:
    """One voice reads shuffled sentences, part by part, into one clean 16 kHz
    stream of at least READING_SECONDS_PER_VOICE (the sentences start over if
    they run out). Returns the stream's path."""
    generator = random.Random(f"{SEED}:{voice}:reading")
    order = list(sentences)
    generator.shuffle(order)
    name = voice.replace("+", "_")
    parts: list[str] = []
    seconds, index = 0.0, 0
    while seconds < READING_SECONDS_PER_VOICE:
        chunk = [order[(index + k) % len(order)] for k in range(SENTENCES_PER_PART)]
        index += SENTENCES_PER_PART
        text_path = os.path.join(work, f"{name}-{len(parts):03d}.txt")
        with open(text_path, "w", encoding="utf-8") as f:
            f.write("\n".join(chunk) + "\n")
        raw, part = text_path[:-4] + ".espeak.wav", text_path[:-4] + ".wav"
        run(["espeak-ng", "-v", voice, "-s", str(generator.choice(RATES)), "-p", str(generator.choice(PITCHES)),
             "-f", text_path, "-w", raw])
        # -v 0.9: espeak-ng's loudest peaks would clip in the resampler.
        run(["sox", "-R", "-v", "0.9", raw, "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e", "signed-integer", part,
             "pad", "0", str(PART_GAP_SECONDS)])
        os.remove(raw)
        os.remove(text_path)
        parts.append(part)
        seconds += wav_seconds(part)
    stream = os.path.join(work, f"reading-{name}-clean.wav")
    run(["sox", *parts, stream])
    for part in parts:
        os.remove(part)
    return stream


def add_noise(clean: str) -> str:
    """The clean stream under `sox -R` pink noise at SNR_DB against the
    speech's active level; speech and noise are scaled down together if the
    mix would clip. Returns the noisy stream's path."""
    samples = read_samples(clean)
    noise = clean.replace("-clean.wav", "-pink.wav")
    run(["sox", "-R", "-n", "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e", "signed-integer", noise,
         "synth", f"{len(samples) / SAMPLE_RATE:.4f}", "pinknoise", "vol", "0.25"])
    noise_samples = read_samples(noise)
    gain = active_rms(samples) / max(active_rms(noise_samples), 1e-9) / 10 ** (SNR_DB / 20)
    peak = max(-min(samples), max(samples)) + gain * max(-min(noise_samples), max(noise_samples))
    scale = min(1.0, 32767 / peak) if peak else 1.0
    noisy = clean.replace("-clean.wav", f"-snr{SNR_DB:g}.wav")
    run(["sox", "-R", "-m", "-v", f"{scale:.6f}", clean, "-v", f"{scale * gain:.6f}", noise, noisy])
    os.remove(noise)
    return noisy


def build_reading(work: str, sentences: Sequence[str]) -> list[Clip]:
    """Every voice reading `sentences` (`prose()`) into one stream, clean and
    at SNR_DB, in work/reading (rebuilt on every run). Each is a Clip without
    the phrase."""
    directory = os.path.join(work, "reading")
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    clips: list[Clip] = []
    for voice in VOICES:
        clean = read_aloud(voice, sentences, directory)
        seconds = wav_seconds(clean)  # the noisy stream is as long
        for path, is_noisy in ((clean, False), (add_noise(clean), True)):
            clips.append(Clip(path, "read speech", voice, 0, 0, has_phrase=False, noisy=is_noisy, seconds=seconds))
        print(f"korean.py: {voice}: {seconds / 60:.1f} min of read speech", file=sys.stderr, flush=True)
    return clips

