#!/usr/bin/env python3
"""Says one text in a piper voice into a WAV, the same audio every time.

piper's VITS voices draw noise inside the model (how each phoneme lasts and sounds);
onnxruntime's random seed is set from the text, so a corpus made twice is the same
corpus while two texts still sound as a person saying them would, not averaged.
Run by bench/corpus.py under piper's own virtualenv (.deps/piper/venv).

usage: piper_say.py MODEL OUT.wav [--length-scale X] < text
"""
from __future__ import annotations

import argparse
import sys
import wave
import zlib

import onnxruntime
from piper import PiperVoice, SynthesisConfig


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="the voice's .onnx file (its .onnx.json beside it)")
    ap.add_argument("out", help="the WAV to write (the voice's own sample rate)")
    ap.add_argument("--length-scale", type=float, default=None, help="phoneme length factor (1 = the voice's)")
    args = ap.parse_args()
    text = sys.stdin.read().strip()
    if not text:
        print("piper_say: no text on stdin", file=sys.stderr)
        return 2
    onnxruntime.set_seed(zlib.crc32(text.encode()))
    voice = PiperVoice.load(args.model)
    with wave.open(args.out, "wb") as wav:
        voice.synthesize_wav(text, wav, SynthesisConfig(length_scale=args.length_scale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
