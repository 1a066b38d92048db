"""microWakeWord (pymicro-wakeword 2.5.0 with pymicro-features): its bundled
models, fed 160-sample (10 ms) frames, the feature front end's step."""
from __future__ import annotations

import sys

from pymicro_wakeword import MicroWakeWord, MicroWakeWordFeatures, Model

from common import main, uniform

KEYWORDS = [m.value for m in Model]  # okay_nabu, hey_jarvis, hey_mycroft, alexa
FRAME_SAMPLES = 160


class MicroWakeWordScorer:
    frame_samples = FRAME_SAMPLES

    def __init__(self, keywords: list[str]) -> None:
        self.features = MicroWakeWordFeatures()
        self.models = {k: MicroWakeWord.from_builtin(Model(k)) for k in keywords}
        # Each model's own probability_cutoff (from its JSON), what "default" means.
        self.cutoffs = {k: float(m.probability_cutoff) for k, m in self.models.items()}

    def feed(self, frame: bytes) -> dict[str, float]:
        out: dict[str, float] = {}
        for features in self.features.process_streaming(frame):
            for k, model in self.models.items():
                prob = model.process_streaming_prob(features)
                if prob is not None:
                    out[k] = max(out.get(k, 0.0), prob)
        return out


def make(keywords: list[str], labels: list[str]) -> tuple[MicroWakeWordScorer, dict[str, dict[str, float]]]:
    scorer = MicroWakeWordScorer(keywords)
    return scorer, uniform(labels, keywords, scorer.cutoffs)


if __name__ == "__main__":
    main("microwakeword", KEYWORDS, make, sys.argv[1:])
