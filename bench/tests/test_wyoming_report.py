"""The Wyoming bench's memory-target rows (bench/wyomingbench/targets.py) say met or missed by how much."""
from __future__ import annotations

import unittest

from wyomingbench.targets import memory_rows


class MemoryTargets(unittest.TestCase):
    def test_each_target_is_met_or_missed_by_its_margin(self) -> None:
        rows = memory_rows("hey jarvis", 47.0, "models", {4: 260.0, 8: 300.0, 2: 900.0})
        self.assertIn("| 47 MB | met |", rows[4])
        self.assertIn("| 260 MB | **missed by 10 MB** |", rows[5])
        self.assertIn("| 300 MB | met |", rows[6])
        self.assertEqual(len(rows), 7, "a stream count without a target gets no row")

    def test_a_run_without_a_trained_model_says_it_was_not_measured(self) -> None:
        rows = memory_rows("hey jarvis", None, None, {4: 200.0})
        self.assertIn("not measured", rows[4])


if __name__ == "__main__":
    unittest.main()
