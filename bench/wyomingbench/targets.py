"""Issue 21's memory targets and the table rows that hold a run's figures against them.

Pure (no client, no server), so the verdicts are unit-tested (bench/tests/test_wyoming_report.py).
"""
from __future__ import annotations

# MB of RSS: idle with one trained phrase; peak with N concurrent Wyoming streams.
IDLE_TRAINED_TARGET_MB = 100.0
PEAK_TARGETS_MB = {4: 250.0, 8: 350.0}


def verdict(measured: float, target: float) -> str:
    """"met", or "**missed by N MB**"."""
    return "met" if measured <= target else f"**missed by {measured - target:.0f} MB**"


def memory_rows(phrase: str, trained_idle: float | None, trained_models: str | None,
                peaks: dict[int, float]) -> list[str]:
    """A markdown table: the idle figure with a trained phrase (or why it was not measured), then the peak
    with each stream count that has a target."""
    rows = ["Memory targets (RSS, glibc's default allocator):", "", "| figure | target | measured | result |",
            "|---|---|---|---|"]
    if trained_idle is not None:
        rows.append(f"| idle, one trained phrase (\"{phrase}\", its model from `{trained_models}`) | "
                    f"≤ {IDLE_TRAINED_TARGET_MB:.0f} MB | {trained_idle:.0f} MB | {verdict(trained_idle, IDLE_TRAINED_TARGET_MB)} |")
    else:
        rows.append(f"| idle, one trained phrase | ≤ {IDLE_TRAINED_TARGET_MB:.0f} MB | not measured: no trained "
                    "model (run `make bench-wake-quick` first, or pass `--models-dir`) | — |")
    for streams, peak in sorted(peaks.items()):
        target = PEAK_TARGETS_MB.get(streams)
        if target is not None:
            rows.append(f"| peak, {streams} concurrent streams (acoustic route) | ≤ {target:.0f} MB | {peak:.0f} MB | "
                        f"{verdict(peak, target)} |")
    return rows
