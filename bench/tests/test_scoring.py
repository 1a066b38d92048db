"""Scoring wakes against call windows (bench/wakebench/scoring.py), reading settings off
candidates (runners.candidate_wakes) and choosing settings at equal false-wake rate."""
from __future__ import annotations

import unittest

from wakebench import compare, config, runners, scoring, streams
from wakebench.runners import Result, Run, Wake


def call(file: str, phrase: str, voice: str = "flite-slt") -> dict[str, object]:
    return dict(file=file, kind="positive", phrase=phrase, voice=voice, phrase_start=0.8, phrase_end=1.6)


CALLS = streams.Stream("pos-clean", "positive", "clean", "pos.wav", 20.0,
                       [call("a.wav", "alexa"), call("b.wav", "hey jarvis", "festival-kal")], [1.0, 10.0])
NEGATIVES = streams.Stream("neg-clean", "negative", "clean", "neg.wav", 1800.0, [dict(file="n.wav", kind="negative", voice="flite-slt")], [0.0])
RUN = Run("sys|default", "sys", "openwakeword", ["default"], "default", {"alexa": "alexa", "hey jarvis": "hey_jarvis"}, False)


def scored(call_wakes: list[Wake], negative_wakes: list[Wake] = []) -> scoring.Metrics:
    results = [Result(RUN.key, "pos-clean", {"default": call_wakes}, 20.0, 1.0, 20.0, 1000),
               Result(RUN.key, "neg-clean", {"default": negative_wakes}, 1800.0, 9.0, 1800.0, 1000)]
    [m] = scoring.score([RUN], results, [CALLS, NEGATIVES], ["alexa", "hey jarvis"])
    return m


class CallWindows(unittest.TestCase):
    def test_a_wake_for_the_phrase_inside_its_call_is_a_hit_with_its_latency(self) -> None:
        m = scored([Wake("alexa", 1.0 + 1.9)])
        self.assertEqual(m.hits("clean"), (1, 2))
        self.assertAlmostEqual(m.latencies["clean"][0], 0.3, places=3)

    def test_a_wake_naming_the_other_phrase_is_no_hit(self) -> None:
        m = scored([Wake("hey jarvis", 1.0 + 1.9)])
        self.assertEqual(m.hits("clean"), (0, 2))
        self.assertEqual(m.other_wakes_on_positives["clean"], 1)

    def test_a_wake_before_the_phrase_starts_is_no_hit(self) -> None:
        m = scored([Wake("alexa", 1.0 + 0.5)])
        self.assertEqual(m.hits("clean"), (0, 2))

    def test_a_wake_in_the_gap_after_a_call_still_counts_for_that_call(self) -> None:
        m = scored([Wake("hey jarvis", 10.0 + 9.0)])
        self.assertEqual(m.hits("clean", "engine:festival"), (1, 1))
        self.assertEqual(m.hits("clean", "engine:flite"), (0, 1))

    def test_the_cpu_target_is_measured_on_continuous_speech_and_the_cost_on_every_stream(self) -> None:
        m = scored([])
        self.assertAlmostEqual(m.cpu_per_speech_s, 9.0 / 1800.0)
        self.assertAlmostEqual(m.cpu_per_audio_s, 10.0 / 1820.0)

    def test_false_wakes_are_counted_per_hour_of_negatives(self) -> None:
        m = scored([], [Wake("alexa", 100.0), Wake("hey jarvis", 900.0)])
        self.assertEqual(m.false_wakes_pooled(), (2, 0.5))
        self.assertEqual(m.false_wakes_pooled(["alexa"]), (1, 0.5))
        self.assertAlmostEqual(m.fa_per_hour("clean"), 4.0)


    def test_false_wakes_are_also_counted_by_the_voices_that_read_the_negatives_each_file_owning_its_gap(self) -> None:
        read = streams.Stream("neg-clean", "negative", "clean", "neg.wav", 1800.0,
                              [dict(file="n1.wav", kind="negative", voice="flite-slt"),
                               dict(file="n2.wav", kind="negative", voice="festival-ked")], [0.0, 1200.0])
        results = [Result(RUN.key, "neg-clean", {"default": [Wake("alexa", 1300.0), Wake("alexa", 1700.0)]}, 1800.0, 9.0, 1800.0, 1000)]
        [m] = scoring.score([RUN], results, [read], ["alexa", "hey jarvis"],
                            {"sys": config.VoiceSplit("engine", ("festival",))})
        self.assertEqual(m.false_wakes_of_group("engine:festival", ["clean"]), (2, 600.0 / 3600))
        self.assertEqual(m.false_wakes_of_group("engine:flite", ["clean"]), (0, 1200.0 / 3600))
        self.assertEqual(m.false_wakes_of_group("held-out", ["clean"]), (2, 600.0 / 3600))
        self.assertEqual(m.false_wakes_of_group("held-out", ["pink10"]), (0, 0.0))


class CandidateSettings(unittest.TestCase):
    CANDIDATES = [("alexa", 2.0, 0.4, False), ("alexa", 2.5, 0.9, False), ("alexa", 9.0, 0.95, True)]

    def test_a_setting_wakes_on_candidates_that_reach_it_then_rests(self) -> None:
        low = runners.candidate_wakes(self.CANDIDATES, [], 0.3)
        self.assertEqual([(w.t, w.score) for w in low], [(2.0, 0.4)])  # 2.5 falls in the 2 s rest
        high = runners.candidate_wakes(self.CANDIDATES, [], 0.8)
        self.assertEqual([w.t for w in high], [2.5])

    def test_a_candidate_a_sound_alike_won_never_wakes(self) -> None:
        self.assertEqual(runners.candidate_wakes(self.CANDIDATES, [], 0.0)[-1].t, 2.0)
        self.assertNotIn(9.0, [w.t for w in runners.candidate_wakes(self.CANDIDATES, [], 0.0)])

    def test_a_wake_without_a_candidate_stands_at_every_setting(self) -> None:
        trained = [Wake("hey jarvis", 30.0, 0.97)]
        self.assertIn(30.0, [w.t for w in runners.candidate_wakes([], trained, 0.99)])


class EqualRate(unittest.TestCase):
    POINTS = [compare.Point("0.2", 95, 100, 10, 2.0), compare.Point("0.5", 90, 100, 1, 2.0),
              compare.Point("0.8", 70, 100, 0, 2.0)]

    def test_the_best_recall_among_settings_no_noisier_is_chosen(self) -> None:
        self.assertEqual(compare.best_within(self.POINTS, 0.5).setting, "0.5")
        self.assertEqual(compare.best_within(self.POINTS, 0.0).setting, "0.8")
        self.assertEqual(compare.best_within(self.POINTS, 10.0).setting, "0.2")

    def test_no_setting_is_chosen_when_none_is_quiet_enough(self) -> None:
        self.assertIsNone(compare.best_within(self.POINTS[:2], 0.1))

    def test_a_difference_inside_the_intervals_is_called_level(self) -> None:
        self.assertEqual(compare.verdict(compare.Point("a", 90, 100, 0, 1), compare.Point("b", 86, 100, 0, 1)),
                         "level within the intervals")
        self.assertEqual(compare.verdict(compare.Point("a", 140, 150, 0, 1), compare.Point("b", 90, 150, 0, 1)), "ahead")


class QuickGuard(unittest.TestCase):
    def test_a_drop_outside_the_committed_interval_is_flagged(self) -> None:
        before = {"ears": {"pink10": [45, 50], "false wakes": [0, 0.5], "near misses": [1, 58]}}
        now = {"ears": {"pink10": [30, 50], "false wakes": [6, 0.5], "near misses": [1, 58]}}
        table = compare.beside(now, before)
        self.assertIn("ears | pink 10 dB | 60.0%", table)
        self.assertIn("DROP", table.split("pink 10 dB")[1].splitlines()[0])
        self.assertIn("DROP (more false wakes)", table)

    def test_an_unchanged_figure_is_not_flagged(self) -> None:
        same = {"ears": {"clean": [48, 50]}}
        self.assertNotIn("DROP", compare.beside(same, same))


class StreamRecipes(unittest.TestCase):
    def test_the_recipe_follows_the_condition_the_files_and_the_seed(self) -> None:
        clean, pink = config.CONDITION_BY_NAME["clean"], config.CONDITION_BY_NAME["pink10"]
        base = streams.recipe(clean, ["a.wav"], 1, streams.GAP_S)
        self.assertEqual(base, streams.recipe(clean, ["a.wav"], 1, streams.GAP_S))
        self.assertNotEqual(base, streams.recipe(pink, ["a.wav"], 1, streams.GAP_S))
        self.assertNotEqual(base, streams.recipe(clean, ["a.wav", "b.wav"], 1, streams.GAP_S))
        self.assertNotEqual(base, streams.recipe(clean, ["a.wav"], 2, streams.GAP_S))


class StreamShares(unittest.TestCase):
    ITEMS = [dict(file=f"{v}-{k}.wav", voice=v, phrase="alexa", seconds=60.0) for v in ["a", "b"] for k in range(3)]

    def test_a_share_takes_the_first_files_of_each_voice_and_phrase(self) -> None:
        kept = streams.first_per(self.ITEMS, lambda i: (i["voice"], i["phrase"]), 1)
        self.assertEqual([i["file"] for i in kept], ["a-0.wav", "b-0.wav"])
        self.assertEqual(streams.first_per(self.ITEMS, lambda i: i["voice"], None), self.ITEMS)

    def test_a_share_of_minutes_keeps_whole_files_until_it_is_reached(self) -> None:
        kept = streams.first_minutes(self.ITEMS, 2.5, seed=1)
        self.assertEqual(len(kept), 3)  # 60 + 60 < 150 s, so a third whole file
        self.assertEqual(streams.first_minutes(self.ITEMS, 2.5, seed=1), kept)  # the same every run

    def test_the_audio_digest_follows_the_samples(self) -> None:
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            a, b = f"{d}/a.wav", f"{d}/b.wav"
            for path, data in [(a, b"RIFF1"), (b, b"RIFF1")]:
                with open(path, "wb") as f:
                    f.write(data)
            self.assertEqual(streams.audio_digest(a), streams.audio_digest(b))
            with open(b, "wb") as f:
                f.write(b"RIFF2")
            self.assertNotEqual(streams.audio_digest(a), streams.audio_digest(b))


class UntrainedEngines(unittest.TestCase):
    def test_a_voice_of_an_engine_training_cannot_synthesize_counts_as_held_out_for_trained_models(self) -> None:
        split = config.VoiceSplit("engine", config.with_untrained(("festival",)))
        self.assertEqual(split.held_out_engines, ("festival", "piper"))
        self.assertEqual(split.group("piper-joe"), "held-out")
        self.assertEqual(split.group("festival-ked"), "held-out")
        self.assertEqual(split.group("flite-slt"), "tuning")
        self.assertEqual(split.group("espeak-us"), "espeak")

    def test_the_piper_voice_is_in_the_corpus_and_never_a_tuning_voice(self) -> None:
        self.assertIn("piper-joe", config.VOICES)
        self.assertEqual(config.voice_engine("piper-joe"), "piper")
        self.assertEqual(config.voice_split("piper-joe"), "held-out")


class TargetCells(unittest.TestCase):
    CPU = next(t for t in config.TARGETS if t.key == "cpu")
    CLEAN = next(t for t in config.TARGETS if t.key == "recall_clean")

    def test_a_miss_under_the_rounding_shows_one_more_digit(self) -> None:
        from wakebench import report
        self.assertEqual(report.target_cell(0.0303, self.CPU), ("0.0303", "missed by 0.0003"))

    def test_a_met_target_and_a_wide_miss_keep_the_columns_precision(self) -> None:
        from wakebench import report
        self.assertEqual(report.target_cell(0.0300, self.CPU), ("0.030", "met"))
        self.assertEqual(report.target_cell(0.152, self.CPU), ("0.152", "missed by 0.122"))
        self.assertEqual(report.target_cell(0.767, self.CLEAN), ("76.7%", "missed by 20.3 points"))


class NegativeColumns(unittest.TestCase):
    def test_the_kinds_of_negative_keep_one_order_whatever_order_the_scans_finished_in(self) -> None:
        from types import SimpleNamespace
        from wakebench import report
        talk_first = [SimpleNamespace(negative_hours={"talk": 0.4, "pink10": 1.1}),
                      SimpleNamespace(negative_hours={"clean": 1.1, "other": 0.1})]
        self.assertEqual(report.negative_conditions(talk_first), ["clean", "pink10", "talk", "other"])


if __name__ == "__main__":
    unittest.main()
