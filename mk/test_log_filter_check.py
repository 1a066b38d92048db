#!/usr/bin/env python3
"""Checks mk/test_log_filter.py and mk/fuzz_summary.py on logs of the shapes they read.

    python3 mk/test_log_filter_check.py      (make test runs it; silent when all pass)

The samples are cut from real output of Swift 6.3's `swift test` (Swift
Testing and XCTest) and of libFuzzer.
"""
from __future__ import annotations

import io
import subprocess
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_summary import summary  # noqa: E402
from test_log_filter import interesting  # noqa: E402

PASSING = """\
[24/26] Write Objects.LinkFileList
Build complete! (15.35s)
Test Suite 'All tests' started at 2026-12-01 15:42:53.343
Test Suite 'All tests' passed at 2026-12-01 15:42:53.387
\t Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds
\x1b[90m\u25c7\x1b[0m Test run started.
\u21b3 Testing Library Version: 6.3.1 (937120cbc281cf2)
\u25c7 Test passes() started.
error: ears printed this on purpose
\u2714 Test passes() passed after 0.001 seconds.
\u2714 Test run with 1 test in 1 suite passed after 0.002 seconds.
"""

FAILING = """\
Test Suite 'All tests' started at 2026-12-01 15:42:53.343
Test Case 'XT.testBad' started at 2026-12-01 15:42:53.383
/tmp/tp/Tests/LibTests/T.swift:18: error: XT.testBad : XCTAssertEqual failed: ("2") is not equal to ("5") - xctest message
Test Case 'XT.testBad' failed (0.004 seconds)
Test Suite 'XT' failed at 2026-12-01 15:42:53.387
\t Executed 2 tests, with 1 failure (0 unexpected) in 0.004 (0.004) seconds
Test Suite 'All tests' failed at 2026-12-01 15:42:53.387
\t Executed 3 tests, with 1 failure (0 unexpected) in 0.004 (0.004) seconds
\u25c7 Test run started.
\u25c7 Test fails() started.
\u2718 Test fails() recorded an issue at T.swift:9:5: Expectation failed: (two() \u2192 2) == 3
\u21b3 two is hey cordelia
\u2718 Test param(x:) with 2 test cases failed after 0.001 seconds with 1 issue.
some test stdout
\u2718 Test recorded() recorded an issue at T.swift:12:66: Issue recorded
\u21b3 multi
  line comment
\u25c7 Test other() started.
\u2718 Test fails() failed after 0.001 seconds with 1 issue.
\u2718 Test run with 5 tests in 1 suite failed after 0.002 seconds with 4 issues.
"""

BUILD_ERROR = """\
Building for debugging...
[4/6] Compiling LibTests T.swift
/tmp/tp/Tests/LibTests/T.swift:5:9: warning: variable 'x' was never used
/tmp/tp/Tests/LibTests/T.swift:6:33: error: cannot find 'twoo' in scope
 4 |
 6 |   @Test func passes() { #expect(twoo() == 2) }
   |                                 `- error: cannot find 'twoo' in scope
 7 |   @Test func fails() {
[5/6] Compiling Lib Lib.swift
error: fatalError
"""

CRASH = """\
\u25c7 Test run started.
\u25c7 Test passes() started.
Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range

*** Program crashed: Illegal instruction at 0x00007f5dd956df7f ***

Thread 0 "tpPackageTests.":
  0      0x00007f5dd7c92301 sigsuspend + 65 in libc.so.6

Thread 4 "oot.default-qos" crashed:

  0      0x00007f5dd956df7f closure #1 in _assertionFailure(_:_:file:line:flags:) + 623 in libswiftCore.so
  3 [ra] 0x000056493f5c3c29 Things.passes() + 56 in tpPackageTests.xctest at /tmp/tp/Tests/LibTests/T.swift:6:49

rflags 0x0000000000010202
0x00007f5dd7e38000\u20130x00007f5dd7ff4960 05dc4d654da7 libTesting.so   error: Process '/tmp/tp/.build/debug/tpPackageTests.xctest' exited with unexpected signal code 4
   /opt/swift/usr/lib/swift/linux/libTesting.so
"""

FUZZ_CLEAN = """\
INFO: Seed: 1234
#2\tINITED cov: 700 ft: 3000 corp: 500/39Kb exec/s: 0 rss: 60Mb
#40000\tNEW    cov: 793 ft: 3631 corp: 512/40Kb lim: 8192 exec/s: 8000 rss: 80Mb L: 12/99 MS: 1 ChangeByte-
#41234\tDONE   cov: 793 ft: 3631 corp: 512/40Kb lim: 8192 exec/s: 8246 rss: 80Mb
Done 41234 runs in 5 second(s)
stat::number_of_executed_units: 41234
"""

FUZZ_CRASH = """\
#2\tINITED cov: 700 ft: 3000 corp: 500/39Kb exec/s: 0 rss: 60Mb
Fuzz/ConfigParserFuzz.swift:40: Fatal error: an error longer than 2 KB
==4242== ERROR: libFuzzer: deadly signal
    #0 0x55d0 in __sanitizer_print_stack_trace
SUMMARY: libFuzzer: deadly signal
MS: 1 ChangeByte-; base unit: 0123
artifact_prefix='.build/fuzz/config/'; Test unit written to .build/fuzz/config/crash-abc123
Base64: QQ==
stat::number_of_executed_units: 99
"""


def filtered(text: str) -> list[str]:
    return list(interesting(text.splitlines(keepends=True)))


class TestLogFilter(unittest.TestCase):
    def test_a_passing_run_shows_only_the_totals(self):
        self.assertEqual(filtered(PASSING), [
            "XCTest: Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds",
            "\u2714 Test run with 1 test in 1 suite passed after 0.002 seconds."])

    def test_failures_come_first_with_their_details_then_the_totals(self):
        self.assertEqual(filtered(FAILING), [
            "/tmp/tp/Tests/LibTests/T.swift:18: error: XT.testBad : XCTAssertEqual failed: (\"2\") is not equal to (\"5\") - xctest message",
            "\u2718 Test fails() recorded an issue at T.swift:9:5: Expectation failed: (two() \u2192 2) == 3",
            "\u21b3 two is hey cordelia",
            "\u2718 Test recorded() recorded an issue at T.swift:12:66: Issue recorded",
            "\u21b3 multi",
            "  line comment",
            "XCTest: Executed 3 tests, with 1 failure (0 unexpected) in 0.004 (0.004) seconds",
            "\u2718 Test run with 5 tests in 1 suite failed after 0.002 seconds with 4 issues."])

    def test_a_build_error_shows_with_its_source_lines_and_no_warnings(self):
        lines = filtered(BUILD_ERROR)
        self.assertEqual(lines[0], "/tmp/tp/Tests/LibTests/T.swift:6:33: error: cannot find 'twoo' in scope")
        self.assertEqual(len(lines), 7)  # the error, 4 source lines, fatalError, no summary
        self.assertEqual(lines[5], "error: fatalError")
        self.assertIn("no summary", lines[-1])

    def test_a_crash_shows_the_fatal_error_the_crashed_thread_and_swiftpm_s_line(self):
        lines = filtered(CRASH)
        self.assertEqual(lines[:3], ["Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range",
                                     "*** Program crashed: Illegal instruction at 0x00007f5dd956df7f ***",
                                     "Thread 4 \"oot.default-qos\" crashed:"])
        self.assertIn("Things.passes()", lines[4])
        self.assertTrue(lines[5].startswith("error: Process '/tmp/tp/.build/debug/tpPackageTests.xctest' exited"))
        self.assertEqual(len(lines), 7)

    def test_an_unknown_ending_shows_the_log_s_tail(self):
        lines = filtered("Building for debugging...\nKilled\n")
        self.assertEqual(lines, ["(the log's last 2 lines)", "Building for debugging...", "Killed",
                                 "Swift Testing printed no summary: the run did not finish."])

    def test_the_exit_status_is_the_command_s(self):
        script = Path(__file__).resolve().parent / "test_log_filter.py"
        log = Path("/tmp") / f"test_log_filter_check.{id(self)}.log"
        try:
            run = subprocess.run([sys.executable, str(script), "--log", str(log), "--",
                                  "sh", "-c", "printf 'Build complete!\\n'; exit 3"], capture_output=True, text=True)
            self.assertEqual(run.returncode, 3)
            self.assertEqual(log.read_text(), "Build complete!\n")
            self.assertTrue(run.stdout.splitlines()[-1].endswith(f"status 3; the whole log: {log}"))
        finally:
            log.unlink(missing_ok=True)


class TestFuzzSummary(unittest.TestCase):
    def test_a_clean_run_is_one_line_of_figures(self):
        self.assertEqual(summary("config", 0, FUZZ_CLEAN, ".build/fuzz/config/smoke.log"), (True, [
            "fuzz-config: 41,234 runs in 5 s, cov 793, ft 3,631, corpus 512 (40Kb), crashes 0"]))

    def test_a_crash_shows_the_report_and_where_the_input_went(self):
        clean, lines = summary("config", 1, FUZZ_CRASH, ".build/fuzz/config/smoke.log")
        self.assertFalse(clean)
        self.assertIn("the input is in .build/fuzz/config/crash-abc123", lines[0])
        self.assertTrue(lines[1].endswith("Fatal error: an error longer than 2 KB"))
        self.assertEqual(lines[-1], "fuzz-config: FAILED; replay with .build/fuzz/config/fuzzer .build/fuzz/config/crash-abc123")

    def test_a_run_without_done_is_not_clean(self):
        self.assertFalse(summary("config", 0, FUZZ_CLEAN.replace("Done", "Don"), "x.log")[0])


if __name__ == "__main__":
    output = io.StringIO()  # shown only when a check fails
    result = unittest.TextTestRunner(stream=output).run(unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__]))
    if not result.wasSuccessful():
        print(output.getvalue(), end="")
    sys.exit(0 if result.wasSuccessful() else 1)
