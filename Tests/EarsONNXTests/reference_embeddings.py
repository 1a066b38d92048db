#!/usr/bin/env python3
"""The reference the EarsONNX tests compare OpenWakeWordEmbedder with.

openWakeWord 0.5.1's streaming feature pipeline (openwakeword/utils.py,
AudioFeatures._streaming_features), restated with onnxruntime and numpy
only (openwakeword itself imports tqdm and requests, which .deps/onnx does
not have): the audio is fed in whole steps of 1280 samples; each step's mel
run gets the step behind 480 samples of look-back (none at the stream's
start); the output is transformed x / 10 + 2 and appended to a frame buffer
that starts with 76 frames of ones; after each step the embedding model runs
on the buffer's last 76 frames. One model run per step, one embedding per
step, exactly as openWakeWord streams 1280-sample chunks.

Usage: PYTHONPATH=.deps/onnx python3 reference_embeddings.py MODELS_DIR AUDIO.wav
Prints {"sample_count": n, "embeddings": [[96 floats], ...]} as JSON.
"""

from __future__ import annotations

import json
import sys
import wave
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import onnxruntime as ort

STEP = 1280
LOOK_BACK = 480
WINDOW = 76
MEL_BINS = 32

FloatArray = npt.NDArray[np.float32]


def read_wav(path: Path) -> npt.NDArray[np.int16]:
    with wave.open(str(path), "rb") as audio:
        if audio.getnchannels() != 1 or audio.getsampwidth() != 2 or audio.getframerate() != 16000:
            raise SystemExit(f"{path}: expected 16 kHz mono 16-bit PCM")
        return np.frombuffer(audio.readframes(audio.getnframes()), dtype=np.int16)


def session(path: Path) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


def streaming_embeddings(samples: npt.NDArray[np.int16], models: Path) -> list[list[float]]:
    mel = session(models / "melspectrogram.onnx")
    embedding = session(models / "embedding_model.onnx")
    mel_input: str = mel.get_inputs()[0].name
    embedding_input: str = embedding.get_inputs()[0].name
    frames: FloatArray = np.ones((WINDOW, MEL_BINS), dtype=np.float32)
    out: list[list[float]] = []
    for step in range(len(samples) // STEP):
        start = max(0, step * STEP - LOOK_BACK)
        chunk = samples[start:(step + 1) * STEP].astype(np.float32)[None, :]
        raw: Any = mel.run(None, {mel_input: chunk})[0]
        spec = np.asarray(raw, dtype=np.float32).reshape(-1, MEL_BINS) / 10 + 2
        frames = np.vstack((frames, spec))[-WINDOW:]
        window = frames.astype(np.float32)[None, :, :, None]
        result: Any = embedding.run(None, {embedding_input: window})[0]
        out.append([float(v) for v in np.asarray(result, dtype=np.float32).reshape(-1)])
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    samples = read_wav(Path(argv[2]))
    embeddings = streaming_embeddings(samples, Path(argv[1]))
    json.dump({"sample_count": int(len(samples)), "embeddings": embeddings}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
