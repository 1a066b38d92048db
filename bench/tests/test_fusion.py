"""The fusion fit's pure parts (bench/fit_fusion.py): labelling a candidate by where it
falls, placing a stream time in its file, the logistic fit, and what a threshold does."""
from __future__ import annotations

import unittest

import numpy as np

import fit_fusion
from fit_fusion import Candidate


def candidate(stream: str, label: int, head: float, llr: float, engine: str = "flite", item: str = "a.wav",
              competitor_wins: bool = False) -> Candidate:
    return Candidate(stream=stream, phrase="alexa", t=1.0, features=[head, llr, 0.0, 0.5, 0.1],
                     competitor_wins=competitor_wins, label=label, engine=engine, item=item)


class LabelTest(unittest.TestCase):
    CALL = dict(phrase="alexa", phrase_start=0.8, phrase_end=1.4)

    def test_a_candidate_for_the_said_phrase_after_it_starts_is_a_call(self) -> None:
        self.assertEqual(fit_fusion.label("pos-pink10", dict(phrase="alexa"), self.CALL, 1.5), 1)

    def test_before_the_phrase_another_phrase_or_a_negative_stream_is_not(self) -> None:
        self.assertEqual(fit_fusion.label("pos-pink10", dict(phrase="alexa"), self.CALL, 0.5), 0)
        self.assertEqual(fit_fusion.label("pos-pink10", dict(phrase="hey jarvis"), self.CALL, 1.5), 0)
        self.assertEqual(fit_fusion.label("neg-clean", dict(phrase="alexa"), dict(voice="flite-slt"), 1.5), 0)

    def test_a_stream_time_falls_in_the_file_that_started_last(self) -> None:
        files, starts = ["a.wav", "b.wav", "c.wav"], [0.0, 5.0, 9.0]
        self.assertEqual(fit_fusion.locate(starts, files, 4.9), "a.wav")
        self.assertEqual(fit_fusion.locate(starts, files, 5.0), "b.wav")
        self.assertEqual(fit_fusion.locate(starts, files, 30.0), "c.wav")


class FitTest(unittest.TestCase):
    def test_separable_candidates_are_fitted_apart_and_the_llr_weight_is_positive(self) -> None:
        rng = np.random.default_rng(3)
        calls = np.column_stack([rng.normal(2, 0.5, 50), rng.normal(1, 0.3, 50), np.zeros(50), np.full(50, 0.8), np.zeros(50)])
        others = np.column_stack([rng.normal(2, 0.5, 80), rng.normal(-1, 0.3, 80), np.zeros(80), np.full(80, 0.2), np.zeros(80)])
        rows = np.vstack([calls, others])
        labels = np.array([1.0] * 50 + [0.0] * 80)
        bias, weights = fit_fusion.fit(rows, labels)
        scores = [fit_fusion.fused(bias, weights, list(r)) for r in rows]
        self.assertGreater(min(scores[:50]), max(scores[50:]))
        self.assertGreater(weights[1], 0)


class EvaluateTest(unittest.TestCase):
    def test_a_threshold_counts_calls_heard_false_wakes_per_hour_and_near_misses_on_its_engines_only_without_a_contest(self) -> None:
        weights = np.array([0.0, 1.0, 0.0, 0.0, 0.0])
        candidates = [candidate("pos-clean", 1, 0, 2.0, item="c1"), candidate("pos-clean", 1, 0, 2.0, item="c1"),
                      candidate("pos-clean", 1, 0, -2.0, item="c2"), candidate("neg-clean", 0, 0, 2.0, item="n1"),
                      candidate("alike-clean", 0, 0, 2.0, item="s1"), candidate("neg-clean", 0, 0, 2.0, engine="festival"),
                      candidate("neg-talk", 0, 0, 3.0, item="n2", competitor_wins=True)]
        point = fit_fusion.evaluate(candidates, 0.0, weights, 0.5, {"flite"}, {"flite": {"neg-clean": 1800.0}},
                                    {"flite": {"pos-clean": 4}})
        # A candidate whose sound-alike wins still wakes: the contest is off by default.
        self.assertEqual((point.heard, point.calls, point.false_wakes, point.near_misses), (1, 4, 2, 1))
        self.assertAlmostEqual(point.false_wakes_per_hour, 4.0)


if __name__ == "__main__":
    unittest.main()


class NothingToFitTest(unittest.TestCase):
    def test_no_candidates_or_one_class_is_refused_with_a_sentence(self) -> None:
        self.assertIn("no trained candidate", fit_fusion.nothing_to_fit([]) or "")
        calls = [candidate("pos-clean", 1, 0, 2.0, item="c1")]
        self.assertIn("in calls", fit_fusion.nothing_to_fit(calls) or "")
        both = calls + [candidate("neg-clean", 0, 0, 2.0, item="n1")]
        self.assertIsNone(fit_fusion.nothing_to_fit(both))
