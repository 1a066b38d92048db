"""Which processes the wake bench runs (bench/wakebench/runners.plan)."""
from __future__ import annotations

import unittest

from wakebench import config, runners


class TrainedSweeps(unittest.TestCase):
    def test_the_trained_design_and_a_variant_with_its_own_models_are_both_swept(self) -> None:
        configs = [("ears", []), (config.TRAINED_LABEL, ["--models-dir", "new"]),
                   (config.TRAINED_LABEL + ", before", ["--models-dir", "old"]), ("ears, no verifier", ["--verifier", "off"])]
        runs = runners.plan(["alexa"], configs, ["0.7"], peers=False)
        swept = {run.system for run in runs if config.TRAINED_SWEEP_FLAG in run.args}
        self.assertEqual(swept, {config.TRAINED_LABEL, config.TRAINED_LABEL + ", before"})
        before = [run for run in runs if run.system == config.TRAINED_LABEL + ", before"]
        self.assertEqual(len(before), 1 + len(config.TRAINED_SWEEP))

    def test_no_trained_sweep_leaves_each_trained_configuration_one_pass_at_its_models_own_thresholds(self) -> None:
        configs = [(config.TRAINED_LABEL, ["--models-dir", "new"]), (config.TRAINED_LABEL + ", before", ["--models-dir", "old"])]
        runs = runners.plan(["alexa"], configs, [], peers=False, trained_sweep=[])
        ears = [run.key for run in runs if run.family == "ears"]
        self.assertEqual(ears, [config.TRAINED_LABEL + "|default", config.TRAINED_LABEL + ", before|default"])
        self.assertTrue(all(config.TRAINED_SWEEP_FLAG not in run.args for run in runs))

    def test_other_variants_run_at_their_defaults_only(self) -> None:
        runs = runners.plan(["alexa"], [("ears", []), ("ears, no verifier", ["--verifier", "off"])], ["0.7"], peers=False)
        self.assertEqual([run.system for run in runs if run.system == "ears, no verifier"], ["ears, no verifier"])


class OwnModels(unittest.TestCase):
    def test_only_configurations_naming_a_models_directory_of_their_own_count(self) -> None:
        configs = [("ears", ["--models-dir", "bench/out/quick/models-none"]), ("ears trained", ["--models-dir", "m/new/"]),
                   ("ears, no verifier", ["--verifier", "off"]), ("ears trained, before", ["--models-dir", "m/old"]),
                   ("dangling", ["--models-dir"])]
        self.assertEqual(config.labels_with_own_models(configs), ["ears trained", "ears trained, before"])

    def test_held_out_engines_are_read_from_a_comma_list(self) -> None:
        self.assertEqual(config.engine_list(" festival, flite ,,"), ["festival", "flite"])
        self.assertEqual(config.engine_list(""), [])


class WaitingForTraining(unittest.TestCase):
    """A configuration reading the models this run trains is scanned after the training."""

    def test_a_models_directory_the_bench_trains_into_waits(self) -> None:
        from wakebench import training
        self.assertTrue(training.reads_store_models(["--models-dir", "bench/out/models-2bbb83fc9fae39eb", "--both-routes", "off"],
                                                    "bench/out"))

    def test_the_empty_directory_and_directories_elsewhere_do_not_wait(self) -> None:
        from wakebench import training
        self.assertFalse(training.reads_store_models(["--models-dir", "bench/out/models-none"], "bench/out"))
        self.assertFalse(training.reads_store_models(["--models-dir", "/work/scratch/models-x"], "bench/out"))
        self.assertFalse(training.reads_store_models(["--both-routes", "off"], "bench/out"))
        self.assertFalse(training.reads_store_models(["--models-dir"], "bench/out"))


if __name__ == "__main__":
    unittest.main()


class ScoreSweepReading(unittest.TestCase):
    """A trained configuration's stricter settings read off its default pass."""

    LINES = "\n".join([
        '{"event":"wake","file":"s.wav","phrase":"alexa","t":3.0,"score":0.995,"route":"trained"}',
        '{"event":"wake","file":"s.wav","phrase":"alexa","t":9.0,"score":0.97,"route":"trained"}',
        '{"event":"wake","file":"s.wav","phrase":"alexa","t":15.0,"score":0.62,"route":"acoustic"}',
        '{"event":"summary","audio_s":20.0,"trained":["alexa"]}',
    ])

    def test_an_acoustic_wake_of_a_trained_phrase_stands_at_every_trained_threshold(self) -> None:
        run = next(r for r in runners.plan(["alexa"], [(config.TRAINED_LABEL, ["--models-dir", "m"])], [],
                                           peers=False, trained_sweep=[]))
        found, audio = run.parse(self.LINES)
        self.assertEqual(audio, 20.0)
        self.assertEqual([w.t for w in found["default"]], [3.0, 9.0, 15.0])
        self.assertEqual([w.t for w in found["0.99"]], [3.0, 15.0])
        self.assertEqual([w.t for w in found["0.999"]], [15.0])

    def test_the_acoustic_designs_verifier_sweep_reads_every_wake_by_its_score(self) -> None:
        run = next(r for r in runners.plan(["alexa"], [("ears", [])], ["0.9"], peers=False))
        found, _ = run.parse(self.LINES.replace(',"trained":["alexa"]', ""))
        self.assertEqual([w.t for w in found["0.9"]], [3.0, 9.0])
