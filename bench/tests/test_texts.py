"""The English benchmarks' read speech is text no model trained on (bench/corpus.py's
held-out fortunes), on fortune files written here, not Debian's."""
from __future__ import annotations

import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus  # noqa: E402  (bench/corpus.py, a script beside the package)


def write_fortunes(directory: str, name: str, texts: list[str]) -> None:
    with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
        f.write("\n%\n".join(texts) + "\n%\n")


class HeldOutTexts(unittest.TestCase):
    def setUp(self) -> None:
        self.saved = (corpus.TRAINING_FORTUNES, corpus.HELD_OUT_FORTUNES, corpus.HELD_OUT_FORTUNE_FILES)
        self.training = tempfile.mkdtemp()
        self.held_out = tempfile.mkdtemp()
        corpus.TRAINING_FORTUNES, corpus.HELD_OUT_FORTUNES = self.training, self.held_out
        corpus.HELD_OUT_FORTUNE_FILES = ["people", "wisdom"]
        write_fortunes(self.training, "fortunes", ["A stitch in time saves nine, or so my grandmother said."])
        write_fortunes(self.training, "fortunes.dat", ["an index, not text"])
        write_fortunes(self.held_out, "people", ["A  stitch in time saves nine, or so my grandmother said!",
                                                 "Everybody wants to go to heaven, but nobody wants to die."])
        write_fortunes(self.held_out, "wisdom", ["The early bird gets the worm, but the second mouse gets the cheese.",
                                                 "Too short."])

    def tearDown(self) -> None:
        corpus.TRAINING_FORTUNES, corpus.HELD_OUT_FORTUNES, corpus.HELD_OUT_FORTUNE_FILES = self.saved

    def test_a_fortune_training_reads_is_never_a_benchmark_text_even_spaced_and_punctuated_otherwise(self) -> None:
        texts = corpus.held_out_fortunes()
        self.assertNotIn("stitch", " ".join(texts))
        self.assertIn("Everybody wants to go to heaven, but nobody wants to die.", texts)

    def test_the_negatives_are_drawn_only_from_the_held_out_files_and_keep_the_length_rule(self) -> None:
        picked = corpus.fortunes(random.Random(1), minutes=10)
        self.assertEqual(sorted(picked), ["Everybody wants to go to heaven, but nobody wants to die.",
                                          "The early bird gets the worm, but the second mouse gets the cheese."])

    def test_other_held_out_texts_give_another_digest_so_another_corpus(self) -> None:
        before = corpus.held_out_texts_digest()
        write_fortunes(self.held_out, "wisdom", ["Look before you leap, unless the building is on fire."])
        self.assertNotEqual(corpus.held_out_texts_digest(), before)

    def test_missing_held_out_texts_stop_the_corpus_with_the_command_that_unpacks_them(self) -> None:
        corpus.HELD_OUT_FORTUNE_FILES = ["people", "no-such-file"]
        with self.assertRaises(SystemExit) as stopped:
            corpus.held_out_fortunes()
        self.assertIn("make bench-texts", str(stopped.exception))


if __name__ == "__main__":
    unittest.main()
