"""How the wake bench runs its scans (bench/wake.py run_all): one failed scan fails the
run at once, and a corpus of more phrases than are listened for is allowed."""
from __future__ import annotations

import argparse
import os
import stat
import tempfile
import unittest

import wake
from wakebench import runners, streams


def fake_ears(directory: str, status: int) -> tuple[str, str]:
    """A stand-in `ears` that notes each start in a file and exits with `status`
    (the bench's own unit test: no engine is measured here)."""
    calls = os.path.join(directory, "calls")
    path = os.path.join(directory, "ears")
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\necho started >> '{calls}'\necho 'ears scan: no such model' >&2\nexit {status}\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path, calls


def options(store: str, ears: str) -> argparse.Namespace:
    return argparse.Namespace(store=store, ears=ears, jobs=1, no_cache=True, rescan="")


def some_streams(directory: str, count: int) -> list[streams.Stream]:
    return [streams.Stream(f"neg-{i}", "negative", "clean", os.path.join(directory, f"neg-{i}.wav"), 60.0 * (count - i),
                           [], [], digest=f"d{i}") for i in range(count)]


class FailedScans(unittest.TestCase):
    def test_one_failed_scan_fails_the_run_and_the_queued_scans_are_not_run(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            ears, calls = fake_ears(d, 1)
            plan = runners.plan(["alexa"], [("ears", [])], [], peers=False, trained_sweep=[])
            with self.assertRaises(RuntimeError) as caught:
                wake.run_all(options(d, ears), plan, some_streams(d, 4), d)
            self.assertIn("no such model", str(caught.exception))
            # One job: the first scan failed, so the three queued behind it never started.
            with open(calls) as f:
                self.assertEqual(f.read().count("started"), 1)


class CorpusPhrases(unittest.TestCase):
    def test_the_corpus_defaults_to_the_phrases_listened_for(self) -> None:
        a = wake.parse_args(["ears", "--phrases", "alexa,hey jarvis"])
        self.assertEqual(a.corpus_phrases, ["alexa", "hey jarvis"])

    def test_a_larger_corpus_keeps_its_own_phrases_and_the_run_listens_for_fewer(self) -> None:
        a = wake.parse_args(["ears", "--phrases", "alexa", "--corpus-phrases", "hey jarvis,alexa,okay nabu"])
        self.assertEqual(a.phrases, ["alexa"])
        self.assertEqual(a.corpus_phrases, ["hey jarvis", "alexa", "okay nabu"])

    def test_a_phrase_outside_the_corpus_is_refused(self) -> None:
        with self.assertRaises(SystemExit):
            wake.parse_args(["ears", "--phrases", "hey computer", "--corpus-phrases", "alexa"])


if __name__ == "__main__":
    unittest.main()
