#!/usr/bin/env python3
"""Writes the fuzz targets' last runs into docs/testing.md (called by `make fuzz`).

Reads `<dir>/<name>/last-run.txt` (libFuzzer's output, kept by mk/fuzz.mk) for
each target named, and writes one table row per target between the `fuzz`
markers of --doc: how long it ran, inputs executed and per second, coverage
(edges, features) and whether it ended cleanly. A target with a crash file or
without a final "Done" line is reported as such, never as clean.

usage: bench/fuzz_report.py --dir .build/fuzz --doc docs/testing.md --command "make fuzz" [--block NAME] NAME...
"""
from __future__ import annotations

import argparse
import datetime
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docblock import replace_block  # noqa: E402


@dataclass(frozen=True)
class FuzzRun:
    """What one target's last run printed."""

    name: str
    seconds: int | None
    executions: int | None
    per_second: int | None
    edges: int | None
    features: int | None
    crashes: int
    finished: bool

    @property
    def clean(self) -> bool:
        return self.finished and self.crashes == 0

    def row(self) -> str:
        def number(value: int | None) -> str:
            return f"{value:,}" if value is not None else "—"
        verdict = "0 crashes" if self.clean else (f"**{self.crashes} crash file(s)**" if self.crashes else "**did not finish**")
        return (f"| `fuzz-{self.name}` | {number(self.seconds)} s | {number(self.executions)} | {number(self.per_second)}/s "
                f"| {number(self.edges)} | {number(self.features)} | {verdict} |")


def read_run(directory: Path, name: str) -> FuzzRun:
    """Parses `directory/name/last-run.txt` and counts `crash-*` files beside it."""
    text = (directory / name / "last-run.txt").read_text(errors="replace") if (directory / name / "last-run.txt").exists() else ""
    done = re.search(r"^Done (\d+) runs in (\d+) second", text, re.M)
    per_second = re.search(r"stat::average_exec_per_sec:\s+(\d+)", text)
    coverage = re.findall(r"cov: (\d+) ft: (\d+)", text)
    crashes = len(list((directory / name).glob("crash-*")))
    return FuzzRun(
        name=name,
        seconds=int(done.group(2)) if done else None,
        executions=int(done.group(1)) if done else None,
        per_second=int(per_second.group(1)) if per_second else None,
        edges=int(coverage[-1][0]) if coverage else None,
        features=int(coverage[-1][1]) if coverage else None,
        crashes=crashes,
        finished=done is not None,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True, help="the fuzz build directory (FUZZ_DIR)")
    parser.add_argument("--doc", type=Path, required=True)
    parser.add_argument("--command", required=True, help="the command that ran the fuzzers, for the record")
    parser.add_argument("--block", default="fuzz", help="the doc block to write (default: fuzz, every target)")
    parser.add_argument("names", nargs="+")
    arguments = parser.parse_args()
    runs = [read_run(arguments.dir, name) for name in arguments.names]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    replace_block(arguments.doc, arguments.block, "bench/fuzz_report.py", [
        f"Last `{arguments.command}` at {commit or '?'}, {when} (2 shared cores, AddressSanitizer on):",
        "",
        "| target | ran | inputs | per second | edges | features | result |",
        "|---|---|---|---|---|---|---|",
        *[run.row() for run in runs],
    ])
    for run in runs:
        print(run.row())
    return 0 if all(run.clean for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
