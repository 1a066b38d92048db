"""Speech for the soak: synthesized clips, assembled into one long stream.

Clips are synthesized once into a private temporary directory (removed by the
caller) and kept in memory as raw S16_LE 16 kHz mono bytes. The stream is a
sequence of ~20 s segments: a call ("hey cordelia, <command>") after a stretch
of other speech and quiet, so every segment holds exactly one call.
"""
from __future__ import annotations

import random
import subprocess
from dataclasses import dataclass
from pathlib import Path

SAMPLE_RATE = 16_000
BYTES_PER_SECOND = SAMPLE_RATE * 2

COMMANDS = [
    "what time is it", "turn on the kitchen lights", "what's the weather tomorrow",
    "set a timer for ten minutes", "play some music", "how tall is mount everest",
    "remind me to call my sister", "turn off the radio",
]
OTHER_SPEECH = [
    "the library closes early on sundays during the summer",
    "we should paint the fence before the rain comes back",
    "my neighbour grows tomatoes and gives most of them away",
    "the train was late again so i walked the last mile",
    "please pass the salt and the pepper when you are done",
    "there is a meeting about the budget on thursday afternoon",
    "the children built a snowman that lasted a whole week",
    "i read that octopuses have three hearts and blue blood",
]
VOICES = [("flite", "slt"), ("flite", "kal"), ("flite", "rms"), ("espeak-ng", "en-us"), ("espeak-ng", "en-gb")]


@dataclass(frozen=True)
class Segment:
    """One stretch of the stream: raw audio and where its call ends (seconds into the segment)."""

    audio: bytes
    call_end_seconds: float
    #: Who said the call and what followed the phrase, e.g. "flite/slt: what time is it".
    call_label: str


def synthesize(text: str, voice: tuple[str, str], scratch: Path) -> bytes:
    """Speaks `text` with a Debian synthesizer and returns raw S16_LE 16 kHz mono bytes."""
    engine, name = voice
    wav = scratch / "clip.wav"
    raw = scratch / "clip.raw"
    if engine == "flite":
        subprocess.run(["flite", "-voice", name, "-t", text, "-o", str(wav)], check=True)
    else:
        subprocess.run(["espeak-ng", "-v", name, "-w", str(wav), text], check=True)
    subprocess.run(["sox", str(wav), "-r", str(SAMPLE_RATE), "-c", "1", "-e", "signed", "-b", "16",
                    "-t", "raw", str(raw), "norm", "-3"], check=True)
    data = raw.read_bytes()
    wav.unlink()
    raw.unlink()
    return data


def silence(seconds: float) -> bytes:
    """`seconds` of digital silence, whole samples."""
    return bytes(2 * int(seconds * SAMPLE_RATE))


class SpeechBank:
    """Every call and every other sentence in every voice, synthesized once."""

    def __init__(self, scratch: Path) -> None:
        self.calls = [synthesize(f"hey cordelia, {command}", voice, scratch)
                      for command in COMMANDS for voice in VOICES]
        # Where "cordelia" ends inside each call: the phrase alone, per voice.
        self.phrase_seconds = {voice: len(synthesize("hey cordelia", voice, scratch)) / BYTES_PER_SECOND
                               for voice in VOICES}
        self.call_voices = [voice for _ in COMMANDS for voice in VOICES]
        self.call_labels = [f"{voice[0]}/{voice[1]}: {command}" for command in COMMANDS for voice in VOICES]
        self.others = [synthesize(text, voice, scratch) for text in OTHER_SPEECH for voice in VOICES]

    def segment(self, rng: random.Random, seconds: float) -> Segment:
        """About `seconds` of audio: other speech and pauses, then one call, then quiet."""
        parts: list[bytes] = []
        length = 0
        target_before_call = seconds - 8.0
        while length / BYTES_PER_SECOND < target_before_call - 4.0:
            clip = rng.choice(self.others) if rng.random() < 0.7 else silence(rng.uniform(0.5, 2.0))
            parts.append(clip)
            parts.append(silence(rng.uniform(0.3, 1.0)))
            length += len(clip) + len(parts[-1])
        parts.append(silence(max(0.5, target_before_call - length / BYTES_PER_SECOND)))
        length += len(parts[-1])
        index = rng.randrange(len(self.calls))
        call_start = length / BYTES_PER_SECOND
        parts.append(self.calls[index])
        length += len(self.calls[index])
        parts.append(silence(max(1.0, seconds - length / BYTES_PER_SECOND)))
        # The phrase is the call's first words; a pause follows it, so its end is near the phrase-alone length.
        call_end = call_start + self.phrase_seconds[self.call_voices[index]]
        return Segment(audio=b"".join(parts), call_end_seconds=call_end, call_label=self.call_labels[index])


class SegmentFeed:
    """Segments for a feeder, one call each: `next_block` gives the next
    segment's audio (None after `segments` of them) and records where its
    call ends in the stream (`calls`, audio seconds) and who said what
    (`labels`); `fed_seconds` is the audio handed out so far."""

    def __init__(self, bank: "SpeechBank", rng: random.Random, segments: int, segment_seconds: float) -> None:
        self.bank, self.rng, self.segments, self.segment_seconds = bank, rng, segments, segment_seconds
        self.calls: list[float] = []
        self.labels: list[str] = []
        self.fed_seconds = 0.0

    def next_block(self) -> bytes | None:
        if len(self.calls) >= self.segments:
            return None
        segment = self.bank.segment(self.rng, self.segment_seconds)
        self.calls.append(self.fed_seconds + segment.call_end_seconds)
        self.labels.append(segment.call_label)
        self.fed_seconds += len(segment.audio) / BYTES_PER_SECOND
        return segment.audio
