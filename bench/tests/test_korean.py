"""The Korean benchmark's pure parts (bench/koreanbench): the rate and pitch each
file is said at, the sentences of the set, the table cells and the scan names."""
from __future__ import annotations

import unittest

from koreanbench import config, corpus, scanning, tables


def negative(path: str, seconds: float) -> corpus.Clip:
    return corpus.Clip(path, "불 좀 켜 줘.", "ko", 175, 50, has_phrase=False, noisy=False, seconds=seconds)


class RateAndPitch(unittest.TestCase):
    def test_the_first_sentence_in_the_first_voice_is_at_espeak_ngs_defaults(self) -> None:
        self.assertEqual(corpus.rate_and_pitch(0, 0), (175, 50))

    def test_each_voice_says_its_sentences_at_every_rate_and_pitch(self) -> None:
        sentences = len(corpus.spoken_texts())
        for voice in range(len(config.VOICES)):
            said = [corpus.rate_and_pitch(voice, text) for text in range(sentences)]
            self.assertEqual({rate for rate, _ in said}, set(config.RATES))
            self.assertEqual({pitch for _, pitch in said}, set(config.PITCHES))

    def test_a_sentence_changes_rate_and_pitch_from_voice_to_voice(self) -> None:
        self.assertNotEqual(corpus.rate_and_pitch(0, 3), corpus.rate_and_pitch(1, 3))


class SpokenTexts(unittest.TestCase):
    def test_the_phrase_comes_first_then_inside_and_never_in_the_negatives(self) -> None:
        texts = corpus.spoken_texts()
        self.assertEqual(texts[0], (f"{config.PHRASE}, {config.COMMANDS[0]}", True))
        positives = [text for text, has_phrase in texts if has_phrase]
        self.assertEqual(len(positives), len(config.COMMANDS) + len(config.PHRASE_INSIDE))
        self.assertTrue(all(config.PHRASE in text for text in positives))
        self.assertFalse(any(config.PHRASE in text for text, has_phrase in texts if not has_phrase))


class Cells(unittest.TestCase):
    def test_percent_gives_recall_its_wilson_interval_and_the_counts(self) -> None:
        self.assertEqual(tables.percent(66, 96), "68.8% (59–77), 66/96")
        self.assertEqual(tables.percent(96, 96), "100.0% (96–100), 96/96")

    def test_a_false_wake_cell_counts_every_wake_per_hour_of_negatives(self) -> None:
        clip = negative("n.wav", 1800.0)  # half an hour without the phrase
        quiet = scanning.Result(scanning.Setting("vosk"), set(), {}, 1.0, 2.0, 3.0, [clip], {})
        self.assertEqual(tables.false_wake_cell(quiet, False), "0/1; 0.00 (0.00–7.38)")
        woke_twice = scanning.Result(scanning.Setting("vosk"), {"n.wav"}, {"n.wav": 0.9}, 1.0, 2.0, 3.0, [clip],
                                     {"n.wav": 2})
        self.assertEqual(tables.false_wake_cell(woke_twice, False), "1/1; 4.00 (0.48–14.45)")

    def test_the_threshold_cell_marks_the_defaults(self) -> None:
        self.assertEqual(tables.threshold_cell(scanning.Setting("vosk"), None), "0.8 (default)")
        self.assertEqual(tables.threshold_cell(scanning.Setting("vosk", threshold=0.6), None), "0.6")
        self.assertEqual(tables.threshold_cell(scanning.Setting("trained", threshold=None), None),
                         "the model's own (default)")


class Settings(unittest.TestCase):
    def test_without_the_sweep_only_vosks_default_and_the_trained_thresholds_are_scanned(self) -> None:
        chosen = scanning.settings(vosk_sweep=False, trained=True)
        self.assertEqual([s.is_default for s in chosen], [True, False, False, False])
        self.assertEqual([s.threshold for s in chosen[1:]], config.TRAINED_THRESHOLDS)
        self.assertEqual(len(scanning.settings(vosk_sweep=True, trained=False)), 12)

    def test_each_scan_keeps_its_json_lines_under_its_own_name(self) -> None:
        self.assertEqual(scanning.Setting("trained", threshold=None).file_name(), "trained-threshold-own.jsonl")
        self.assertEqual(scanning.Setting("vosk", False, True, 0.7).file_name(),
                         "vosk-grammar-off-ns-on-threshold-0.7.jsonl")


if __name__ == "__main__":
    unittest.main()
