"""The Korean benchmark's pure parts (bench/koreanbench): the rate and pitch each
file is said at, the sentences of the set, the table cells and the scan names."""
from __future__ import annotations

import unittest

from koreanbench import config, corpus, reading, scanning, tables


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


class ReadingSentences(unittest.TestCase):
    def test_korean_sentences_are_kept_and_each_ends_in_a_stop(self) -> None:
        kept = reading.korean_sentences("이 모드를 적용하면 이미지는 밝아집니다. 그 외의 동작은 일반 붓과 같습니다\n")
        self.assertEqual(kept, ["이 모드를 적용하면 이미지는 밝아집니다.", "그 외의 동작은 일반 붓과 같습니다."])

    def test_english_short_and_phrase_sentences_are_left_out(self) -> None:
        text = "\n".join(["Open the Layers dialog with the mouse pointer.",  # English
                          "김프 Layers dialog 를 엽니다.",  # mostly English letters
                          "선택 도구.",  # too short
                          "코델리아 씨가 그림을 그렸습니다.",  # a phrase word
                          "피파 게임을 하면서 그림을 그렸습니다."])
        self.assertEqual(reading.korean_sentences(text), [])

    def test_a_missing_manual_says_how_to_get_it(self) -> None:
        with self.assertRaises(SystemExit) as raised:
            reading.prose("/nonexistent")
        self.assertIn("make korean-prose", str(raised.exception))

    def test_the_active_level_leaves_the_pauses_out(self) -> None:
        frame = config.SAMPLE_RATE // 50
        speech = [1000, -1000] * (frame // 2)
        self.assertAlmostEqual(reading.active_rms(speech + [0] * frame * 3), 1000.0)


class ReadingTarget(unittest.TestCase):
    def reading(self, wakes: int, hours: float) -> scanning.Result:
        clip = corpus.Clip("s.wav", "read speech", "ko", 0, 0, has_phrase=False, noisy=False, seconds=hours * 3600)
        return scanning.Result(scanning.Setting("trained", threshold=None), {"s.wav"} if wakes else set(), {},
                               1.0, 1.0, 1.0, [clip], {"s.wav": wakes} if wakes else {})

    def test_no_wake_in_four_hours_is_shown_to_meet_one_per_hour(self) -> None:
        self.assertTrue(tables.reading_check(self.reading(0, 4.0)).endswith(": met"))

    def test_no_wake_in_half_an_hour_meets_it_without_showing_it(self) -> None:
        self.assertIn("not shown to meet it", tables.reading_check(self.reading(0, 0.5)))

    def test_twenty_wakes_in_four_hours_miss_by_the_difference(self) -> None:
        check = tables.reading_check(self.reading(20, 4.0))
        self.assertIn("missed by 4.00 per hour", check)
        self.assertNotIn("not shown", check)
