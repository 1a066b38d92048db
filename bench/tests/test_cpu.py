"""Issue 20's CPU target measured alone (bench/wakebench/cpu.py): what is cut, what runs
and in which order, and how the repeats are summarised."""
from __future__ import annotations

import json
import os
import stat
import tempfile
import unittest
import wave
from unittest import mock

from wakebench import config, cpu, report, runners, scoring, streams


def silent_wav(path: str, seconds: float) -> None:
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"\0\0" * int(seconds * 16000))


def fake_ears(directory: str) -> tuple[str, str]:
    """A stand-in `ears scan` that notes when each process starts and ends and prints a
    summary (the bench's own unit test: what is measured here is the step, not ears)."""
    log = os.path.join(directory, "processes")
    path = os.path.join(directory, "ears")
    summary = json.dumps(dict(event="summary", audio_s=2.0, trained=[]))
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\necho \"start $(date +%s%N)\" >> '{log}'\nsleep 0.05\n"
                f"echo '{summary}'\necho \"end $(date +%s%N)\" >> '{log}'\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path, log


def negative_and_positive(directory: str) -> list[streams.Stream]:
    out = []
    for name, kind in [("neg-clean", "negative"), ("pos-clean", "positive"), ("neg-talk", "negative")]:
        wav = os.path.join(directory, name + ".wav")
        silent_wav(wav, 5.0)
        out.append(streams.Stream(name, kind, "clean", wav, 5.0, [], [], digest=name))
    return out


class Summary(unittest.TestCase):
    def test_the_median_the_range_and_the_ratio_to_the_reference_are_over_the_repeats(self) -> None:
        alone = cpu.Alone("ears trained", ["alexa"], 900.0, [0.020, 0.030, 0.022], [0.010, 0.010, 0.011])
        self.assertAlmostEqual(alone.median or 0, 0.022)
        self.assertEqual(alone.spread, (0.020, 0.030))
        # Ratios per repeat 2.0, 3.0, 2.0: the median is 2.0, not the ratio of the medians (2.2).
        self.assertAlmostEqual(alone.reference_ratio or 0, 2.0)
        self.assertEqual(cpu.Alone.from_json(alone.to_json()), alone)

    def test_the_targets_table_reads_the_measurement_alone_and_shows_the_runs_figure_beside_it(self) -> None:
        m = scoring.Metrics("ears trained", "default", True, "ears", ["alexa", "hey jarvis"],
                            speech_cpu_s=31.0, speech_audio_s=1000.0)
        alone = cpu.Alone("ears trained", ["alexa"], 900.0, [0.020, 0.021, 0.022], [0.010, 0.010, 0.010])
        row = next(r for r in report.targets(m, alone) if r["key"] == "cpu")
        self.assertEqual(row["value"], "0.021 alone (0.020–0.022 over 3; ×2.10 PocketSphinx kws)")
        self.assertEqual(row["verdict"], "met (2 phrases beside the other scans: 0.031)")
        without = next(r for r in report.targets(m) if r["key"] == "cpu")
        self.assertEqual(without["verdict"], "missed by 0.001")
        self.assertIn("not measured alone", without["value"])


class Step(unittest.TestCase):
    def test_the_target_counts_three_phrases_the_spotter_can_read(self) -> None:
        # "okay nabu" and "hey mycroft" have words PocketSphinx's dictionary lacks.
        self.assertEqual(cpu.phrases_for(config.PHRASES), ["hey jarvis", "alexa", "hey cordelia"])

    def test_only_the_negative_streams_are_cut_to_the_seconds_asked(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            cut = cpu.stretches(negative_and_positive(d), d, 2.0)
            self.assertEqual([name for name, _, _ in cut], ["neg-clean", "neg-talk"])
            for _, wav, seconds in cut:
                self.assertAlmostEqual(seconds, 2.0)
                with wave.open(wav, "rb") as w:
                    self.assertEqual(w.getnframes(), 32000)

    def test_every_process_runs_alone_each_system_once_per_stretch_per_repeat_beside_the_reference(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            ears, log = fake_ears(d)
            configs = [("ears", ["--models-dir", d]), ("ears quiet", ["--models-dir", d, "--speech-gate", "on"])]
            measured = cpu.measure(ears, configs, ["alexa", "hey jarvis", "hey cordelia", "okay nabu"],
                                   negative_and_positive(d), d, "python3", lambda *a: None, seconds=2.0, repeats=2)
            self.assertEqual([m.system for m in measured], ["ears", "ears quiet"])
            for m in measured:
                self.assertEqual(m.phrases, ["alexa", "hey jarvis", "hey cordelia"])
                self.assertEqual(len(m.cpu_per_audio_s), 2)
                self.assertEqual(len(m.reference_per_audio_s), 2)
                self.assertAlmostEqual(m.audio_s, 4.0)
            with open(log) as f:
                events = [line.split() for line in f]
            # Two configurations × (a start-up and two stretches) × two repeats, one after another.
            self.assertEqual(len(events), 24)
            self.assertEqual([kind for kind, _ in events], ["start", "end"] * 12)
            times = [int(t) for _, t in events]
            self.assertEqual(times, sorted(times))

    def test_each_process_has_its_start_up_taken_off(self) -> None:
        # Stand-in processes: a second of silence costs 1.0 CPU s (the start-up), each
        # 100 s stretch 3.0, so each stretch's listening costs 2.0: 4.0 CPU s over 200 s.
        def execute(run: runners.Run, name: str, wav: str, seconds: float, *rest: object) -> runners.Result:
            return runners.Result(run.key, name, {}, seconds, 1.0 if name == "startup" else 3.0, seconds, 1000)
        run = runners.plan(["alexa"], [("ears", [])], [], peers=False, trained_sweep=[])[0]
        cut = [("neg-clean", "a.wav", 100.0), ("neg-talk", "b.wav", 100.0)]
        with mock.patch.object(runners, "execute", execute):
            self.assertEqual(cpu.rate(run, cut, ("startup", "s.wav", 1.0), "ears", "python3", "."), (0.02, 1.0))

    def test_a_configuration_whose_process_fails_is_left_out_and_the_others_measured(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            ears, log = fake_ears(d)
            # A stand-in that fails when given the broken configuration's argument, as a scan
            # whose models lack a phrase does; the other configuration still runs.
            script = open(ears).read().replace("#!/bin/sh\n", "#!/bin/sh\ncase \"$*\" in *--broken*) echo 'no model' >&2; exit 3;; esac\n", 1)
            with open(ears, "w") as f:
                f.write(script)
            notes: list[str] = []
            measured = cpu.measure(ears, [("ears", []), ("ears broken", ["--broken"])], ["alexa"],
                                   negative_and_positive(d), d, "python3", lambda *a: notes.append(" ".join(map(str, a))),
                                   seconds=1.0, repeats=2)
            self.assertEqual([m.system for m in measured], ["ears"])
            self.assertEqual(len(measured[0].cpu_per_audio_s), 2)
            self.assertTrue(any("not measured for ears broken" in n and "no model" in n for n in notes))

    def test_a_run_without_negative_streams_measures_nothing(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            ears, log = fake_ears(d)
            only_calls = [s for s in negative_and_positive(d) if s.kind == "positive"]
            self.assertEqual(cpu.measure(ears, [("ears", [])], ["alexa"], only_calls, d, "python3", lambda *a: None), [])
            self.assertFalse(os.path.exists(log))


if __name__ == "__main__":
    unittest.main()
