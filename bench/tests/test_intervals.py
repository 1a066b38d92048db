"""The interval math (bench/wakebench/intervals.py) against published values."""
from __future__ import annotations

import unittest

from wakebench import intervals


class WilsonInterval(unittest.TestCase):
    def test_half_of_a_hundred_is_about_ten_points_either_side(self) -> None:
        low, high = intervals.wilson(50, 100)
        self.assertAlmostEqual(low, 0.4038, places=4)
        self.assertAlmostEqual(high, 0.5962, places=4)

    def test_none_heard_still_leaves_room_above_zero(self) -> None:
        low, high = intervals.wilson(0, 10)
        self.assertEqual(low, 0.0)
        self.assertAlmostEqual(high, 0.2775, places=4)

    def test_all_heard_still_leaves_room_below_one(self) -> None:
        low, high = intervals.wilson(150, 150)
        self.assertEqual(high, 1.0)
        self.assertAlmostEqual(low, 0.9750, places=3)

    def test_no_calls_means_nothing_is_known(self) -> None:
        self.assertEqual(intervals.wilson(0, 0), (0.0, 1.0))

    def test_more_hits_than_calls_is_refused(self) -> None:
        with self.assertRaises(ValueError):
            intervals.wilson(11, 10)

    def test_more_calls_narrow_the_interval(self) -> None:
        small = intervals.wilson(9, 10)
        large = intervals.wilson(135, 150)
        self.assertLess(large[1] - large[0], small[1] - small[0])


class PoissonInterval(unittest.TestCase):
    # Garwood's exact limits, as tabulated (e.g. Ulm 1990): 0 → (0, 3.689), 1 → (0.0253, 5.572), 10 → (4.795, 18.39).
    def test_zero_events(self) -> None:
        low, high = intervals.poisson_count(0)
        self.assertEqual(low, 0.0)
        self.assertAlmostEqual(high, 3.6889, places=3)

    def test_one_event(self) -> None:
        low, high = intervals.poisson_count(1)
        self.assertAlmostEqual(low, 0.0253, places=3)
        self.assertAlmostEqual(high, 5.5716, places=3)

    def test_ten_events(self) -> None:
        low, high = intervals.poisson_count(10)
        self.assertAlmostEqual(low, 4.7954, places=3)
        self.assertAlmostEqual(high, 18.390, places=2)

    def test_a_rate_divides_by_the_hours(self) -> None:
        low, high = intervals.poisson_rate(0, 2.0)
        self.assertEqual(low, 0.0)
        self.assertAlmostEqual(high, 3.6889 / 2, places=3)

    def test_no_hours_is_refused(self) -> None:
        with self.assertRaises(ValueError):
            intervals.poisson_rate(1, 0)

    def test_cells_read_as_figure_and_bracket(self) -> None:
        self.assertEqual(intervals.pct_interval(50, 100), "50.0% (40–60)")
        self.assertEqual(intervals.rate_interval(0, 2.0), "0.00 (0.00–1.84)")
        self.assertEqual(intervals.pct_interval(0, 0), "n/a")


if __name__ == "__main__":
    unittest.main()
