"""The training table says where each model came from (bench/wakebench/report.py)."""
from __future__ import annotations

import unittest

from wakebench import report


def phrase(**change: object) -> dict[str, object]:
    base: dict[str, object] = dict(phrase="alexa", model="m", wall_s=1200.0, cpu_s=1500.0, held_out_voices=[],
                                   summary=[], cached=False, load_average=2.0, from_feature_cache=False)
    base.update(change)
    return base


class TrainingOrigin(unittest.TestCase):
    def test_a_model_trained_from_synthesis_says_so(self) -> None:
        self.assertEqual(report.training_origin(phrase()), "trained in this run")

    def test_a_model_from_a_feature_cache_says_its_times_are_not_a_users(self) -> None:
        origin = report.training_origin(phrase(from_feature_cache=True))
        self.assertIn("feature cache", origin)
        self.assertIn("not a user's", origin)

    def test_a_kept_model_says_it_was_kept_whatever_trained_it(self) -> None:
        self.assertTrue(report.training_origin(phrase(cached=True, from_feature_cache=True)).startswith("kept"))

    def test_a_record_from_before_the_field_reads_as_synthesis(self) -> None:
        old = phrase()
        del old["from_feature_cache"]
        self.assertEqual(report.training_origin(old), "trained in this run")


if __name__ == "__main__":
    unittest.main()
