#!/usr/bin/env python3
"""Prints one line of figures for a fuzz run from libFuzzer's log (make fuzz-smoke, mk/fuzz.mk).

    python3 mk/fuzz_summary.py --name config --status 0 --log .build/fuzz/config/smoke.log

A clean run (status 0 and libFuzzer's final `Done N runs in S second(s)`)
prints `fuzz-config: 41,234 runs in 5 s, cov 793, ft 3,631, corpus 512 (40Kb), crashes 0`,
the figures from that line and the last `#N DONE cov: … ft: … corp: …` line.
Anything else (a crash, a leak, a timeout, a run that did not finish) prints
the log from the first error line (capped), then where the input went, and
exits 1. mk/test_log_filter_check.py checks it.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

DONE = re.compile(r"^Done (\d+) runs in (\d+) second", re.M)
STATUS = re.compile(r"cov: (\d+) ft: (\d+) corp: (\d+)/(\S+)")
# Where a failure's report starts: Swift's message or backtrace, a sanitizer's or libFuzzer's report.
FAILURE = re.compile(r"Fatal error:|^\*\*\* Program crashed:|==\d+==\s*ERROR:|ERROR: libFuzzer|^SUMMARY: ", re.M)
WRITTEN = re.compile(r"Test unit written to (\S+)")
HEAD, TAIL = 45, 15   # lines of a failure's report shown from its start and its end


def summary(name: str, status: int, text: str, log: str) -> tuple[bool, list[str]]:
    """Returns whether the run was clean, and the lines to print."""
    done, figures = DONE.search(text), STATUS.findall(text)
    if status == 0 and done:
        line = f"fuzz-{name}: {int(done.group(1)):,} runs in {done.group(2)} s"
        if figures:
            cov, ft, corpus, size = figures[-1]
            line += f", cov {cov}, ft {int(ft):,}, corpus {int(corpus):,} ({size})"
        return True, [line + ", crashes 0"]
    lines = text.splitlines()
    failure = FAILURE.search(text)
    start = text.count("\n", 0, failure.start()) if failure else max(0, len(lines) - HEAD - TAIL)
    report = lines[start:]
    if len(report) > HEAD + TAIL:
        report = report[:HEAD] + [f"… {len(report) - HEAD - TAIL} lines left out …"] + report[-TAIL:]
    written = WRITTEN.findall(text)
    where = f"the input is in {written[-1]}" if written else "no input was written"
    return False, [f"fuzz-{name}: FAILED (libFuzzer exit status {status}); {where}; the whole output: {log}",
                   *report,
                   f"fuzz-{name}: FAILED; replay with {Path(log).parent}/fuzzer {written[-1] if written else 'FILE'}"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", required=True)
    parser.add_argument("--status", type=int, required=True, help="libFuzzer's exit status")
    parser.add_argument("--log", required=True)
    arguments = parser.parse_args()
    text = Path(arguments.log).read_text(errors="replace") if Path(arguments.log).exists() else ""
    clean, lines = summary(arguments.name, arguments.status, text, arguments.log)
    print("\n".join(lines))
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
