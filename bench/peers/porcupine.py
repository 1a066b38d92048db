"""Porcupine 1.9.5 (pvporcupine, the last release without an online AccessKey),
its built-in keywords, fed 512-sample frames."""
from __future__ import annotations

import array
import sys
from typing import Sequence

import pvporcupine

from common import main

DEFAULT_SENSITIVITY = 0.5  # pvporcupine.create's default


class PorcupineScorer:
    def __init__(self, keywords: list[str], sensitivity: float) -> None:
        self.keywords = keywords
        self.engine = pvporcupine.create(keywords=keywords, sensitivities=[sensitivity] * len(keywords))
        self.frame_samples: int = self.engine.frame_length
        if self.engine.sample_rate != 16000:
            raise SystemExit(f"porcupine wants {self.engine.sample_rate} Hz")

    def feed(self, frame: bytes) -> dict[str, float]:
        index = self.engine.process(array.array("h", frame))
        return {self.keywords[index]: 1.0} if index >= 0 else {}


def make(keywords: list[str], labels: list[str]) -> tuple[PorcupineScorer, dict[str, dict[str, float]]]:
    if len(labels) != 1:
        raise SystemExit("porcupine: one sensitivity per process (it is set inside the engine)")
    sensitivity = DEFAULT_SENSITIVITY if labels[0] == "default" else float(labels[0])
    # The engine decides; its scorer says 1.0 when it fires, so every label compares against 1.0.
    return PorcupineScorer(keywords, sensitivity), {labels[0]: {k: 1.0 for k in keywords}}


KEYWORDS: Sequence[str] = sorted(pvporcupine.KEYWORDS)

if __name__ == "__main__":
    main("porcupine", KEYWORDS, make, sys.argv[1:])
