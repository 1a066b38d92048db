#!/usr/bin/env python3
"""Runs `swift test` with its whole output in a log file, and prints what failed, then the totals.

    python3 mk/test_log_filter.py --log .build/test.log -- swift test --build-path .build
    python3 mk/test_log_filter.py < old.log          (filter only, for checking a log)

The terminal gets, as they come: build errors (with the compiler's source
lines), Swift Testing's issue lines (`✘ Test x() recorded an issue at
File.swift:12:5: …`) and their `↳` details, XCTest's `file:line: error:`
lines, and a crash (Swift's `Fatal error:`, the crashed thread's frames,
SwiftPM's `error: Process … exited`). Then the summaries (Swift Testing's
`Test run with N tests …`, XCTest's last `Executed N tests …`), and last the
exit status and the log's path. The exit status is the command's.
mk/test_log_filter_check.py checks it.
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from typing import Iterable, Iterator

ANSI = re.compile(r"\x1b\[[0-9;]*m")
RUN_STARTED = re.compile(r"^(Test Suite 'All tests' started|\S+ Test run started\.)")
RUN_SUMMARY = re.compile(r"^\S+ Test run with \d+ tests?\b")         # Swift Testing's last line
XCTEST_TOTAL = re.compile(r"^\s*Executed \d+ tests?, with ")          # the last one is all of XCTest
ISSUE = re.compile(r"^\u2718 .* recorded an issue\b")                  # ✘ Test x() recorded an issue at F.swift:1:2: …
ISSUE_DETAIL = re.compile(r"^(\u21b3|\u00b1|\s)")                     # ↳ details, ± differences, indented lines
XCTEST_FAILURE = re.compile(r"^\S+:\d+: error: ")                     # /path/T.swift:18: error: XT.testBad : …
BUILD_ERROR = re.compile(r"(^|: )error: ")                            # /path/F.swift:6:33: error: …, error: fatalError
SOURCE_CONTEXT = re.compile(r"^(\s*\d*\s*\||>>> )")                   # the compiler's ` 6 | code` lines, ld's `>>> referenced by`
CRASH = re.compile(r"Fatal error:|^\*\*\* Program crashed:|error: (Process .*exited|Exited with)")
CRASHED_THREAD = re.compile(r"^Thread \d+ .*crashed:$")
MAX_CONTEXT = 30   # lines kept after one issue or build error
MAX_FRAMES = 12    # frames kept of a crashed thread
TAIL = 30          # lines of the log shown when the run printed nothing else and no summary


def interesting(lines: Iterable[str]) -> Iterator[str]:
    """Yields the lines of a `swift test` log worth showing, in order, then the summaries."""
    started = False          # the tests have started (so `error:` is no longer the compiler's)
    context = None           # the pattern of lines continuing the last line shown, or None
    left = 0                 # how many more of them to show
    summaries: list[str] = []
    xctest_total = None
    shown = 0
    tail: list[str] = []
    for raw in lines:
        line = ANSI.sub("", raw.rstrip("\n"))
        tail = (tail + [line])[-TAIL:]
        if context is not None:
            if not line:             # a blank line neither ends the context nor shows
                continue
            if left > 0 and context.match(line):
                left -= 1
                yield line
                continue
            context = None
        if RUN_STARTED.match(line):
            started = True
        elif RUN_SUMMARY.match(line):
            summaries.append(line)
        elif XCTEST_TOTAL.match(line):
            xctest_total = line.strip()
        elif ISSUE.match(line):
            context, left = ISSUE_DETAIL, MAX_CONTEXT
            shown += 1
            yield line
        elif CRASH.search(line) or XCTEST_FAILURE.match(line) or (not started and BUILD_ERROR.search(line)):
            # SwiftPM's crash line may come glued to the end of a backtrace line: start it at `error:`.
            match = re.search(r"error: (Process|Exited)", line)
            context, left = (SOURCE_CONTEXT, MAX_CONTEXT) if not started else (None, 0)
            shown += 1
            yield line[match.start():] if match else line
        elif CRASHED_THREAD.match(line):
            context, left = re.compile(r"^\s+\d+ "), MAX_FRAMES
            shown += 1
            yield line
    if xctest_total:
        summaries.insert(0, "XCTest: " + xctest_total)
    if not any(RUN_SUMMARY.match(s) for s in summaries):
        summaries.append("Swift Testing printed no summary: the run did not finish.")
        if not shown and tail:
            yield f"(the log's last {len(tail)} lines)"
            yield from tail
    yield from summaries


def main(argv: list[str]) -> int:
    log_path, command = None, []
    if argv[:1] == ["--log"]:
        log_path, argv = argv[1], argv[2:]
    if argv[:1] == ["--"]:
        command = argv[1:]
    if command and not log_path:
        sys.exit("usage: test_log_filter.py --log FILE -- COMMAND... | test_log_filter.py < LOG")
    if not command:                     # filter standard input, for checking
        for line in interesting(sys.stdin):
            print(line)
        return 0
    print(f"{shlex.join(command)}: the whole output goes to {log_path}; what fails and the totals show here", flush=True)
    with open(log_path, "w", encoding="utf-8", errors="replace") as log:
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, errors="replace", bufsize=1)

        def logged(stream: Iterable[str]) -> Iterator[str]:
            for line in stream:
                log.write(line)
                log.flush()
                yield line
        try:
            for line in interesting(logged(child.stdout)):
                print(line, flush=True)
            status = child.wait()
        except KeyboardInterrupt:       # ^C reached swift test too
            child.wait()
            return 130
    status = status if status >= 0 else 128 - status   # killed by signal N: 128 + N, as a shell says
    print(f"{' '.join(command[:2])} exited with status {status}; the whole log: {log_path}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
