"""The markdown bench/wyoming_bench.py prints and writes into the docs.

Every figure comes from the run being reported; ratios compare engines (or
allocator settings) measured in that same run on the same clips.
"""
from __future__ import annotations

import datetime
import subprocess
from dataclasses import dataclass

from .corpus import NOISE_SNR_DB, PHRASE, Clip
from .phases import ArenaRun, EngineRun, percentile
from .targets import memory_rows

# docs/performance.md: PocketSphinx on continuous speech, CPU s per audio s.
SPEECH_CPU_TARGET = 0.20


def _commit() -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip() or "?"


def _milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


@dataclass
class Report:
    """One run's figures, rendered as markdown lines."""

    engines: list[EngineRun]
    arenas: list[ArenaRun]
    calls: list[Clip]
    negatives: list[Clip]
    streams: int
    wall_seconds: float
    trained_idle_rss_megabytes: float | None = None
    trained_models: str | None = None

    def lines(self, command: str) -> list[str]:
        return [*self._header(command), "", *self._engine_table(), "", *self._engine_notes(), "",
                *self._arena_table(), "", *self._arena_verdict(), "", *self._memory_targets()]

    def _memory_targets(self) -> list[str]:
        """Issue 21's memory targets against this run's figures (`targets.memory_rows`)."""
        peaks = {r.streams: r.phase.peak_rss_megabytes for r in (self.arenas[0].rounds if self.arenas else [])}
        return memory_rows(PHRASE, self.trained_idle_rss_megabytes, self.trained_models, peaks)

    def _header(self, command: str) -> list[str]:
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        voices = sorted({clip.voice for clip in self.calls + self.negatives})
        per_condition = len(self.calls) // 2
        negative_minutes = sum(clip.seconds for clip in self.negatives) / 60
        call_minutes = sum(clip.seconds for clip in self.calls) / 60
        return [
            f"Measured {when} at {_commit()} by `{command}` (release build, 2 shared cores, "
            f"{self.wall_seconds / 60:.1f} min wall for the whole run).",
            "",
            f"Corpus, synthesized for the run and removed after it: {per_condition} calls (\"{PHRASE}\", a 0.15 s pause, "
            f"a command; {call_minutes:.1f} min in all), each clean and with pink noise at {NOISE_SNR_DB} dB SNR (sox), "
            f"and {negative_minutes:.1f} min of fortunes ({len(self.negatives)} clips, none saying the phrase), "
            f"all said by {len(voices)} voices ({', '.join(voices)}) at varied rate and pitch. "
            "No model was trained or tuned on these voices here; ears ran its default acoustic path "
            "(PocketSphinx keyword spotting on the phrase's text, no trained model), openWakeWord its bundled "
            "`hey_jarvis` model at its default threshold (0.5) and trigger level (1). Both were sent the same clips "
            "over Wyoming from the PyPI `wyoming` client in 1024-sample chunks, one engine after the other.",
        ]

    def _engine_table(self) -> list[str]:
        names = [run.name for run in self.engines]
        rows = [f"| | {' | '.join(names)} |", f"|---|{'---|' * len(names)}"]

        def row(label: str, cell) -> None:
            rows.append(f"| {label} | {' | '.join(cell(run) for run in self.engines)} |")

        def heard(condition: str):
            return lambda run: "{} of {}".format(*run.heard(condition))

        row("calls heard, clean", heard("clean"))
        row(f"calls heard, pink noise {NOISE_SNR_DB} dB", heard(f"snr{NOISE_SNR_DB}"))
        row("false detections in the negatives (clips / events)", lambda run: "{} / {}".format(*run.false_detections()))
        row("latency p50 (end of phrase sent → detection)", lambda run: _milliseconds(percentile(run.latencies(), 0.5)))
        row("latency p95", lambda run: _milliseconds(percentile(run.latencies(), 0.95)))
        row("CPU s per audio s, 1 stream (calls)", lambda run: f"{run.calls.cpu_per_audio_second:.4f}")
        row(f"CPU s per audio s, {self.streams} streams (negatives)", lambda run: f"{run.negatives.cpu_per_audio_second:.4f}")
        row("RSS idle, before any stream", lambda run: f"{run.idle_rss_megabytes:.0f} MB")
        row("RSS peak, 1 stream", lambda run: f"{run.calls.peak_rss_megabytes:.0f} MB")
        row(f"RSS peak, {self.streams} streams", lambda run: f"{run.negatives.peak_rss_megabytes:.0f} MB")
        row("RSS 5 s after the last stream", lambda run: f"{run.after_rss_megabytes:.0f} MB")
        return rows

    def _engine_notes(self) -> list[str]:
        ears, other = self.engines[0], self.engines[-1]
        retries = self._busy_retries()
        cpu_one = ears.calls.cpu_per_audio_second / other.calls.cpu_per_audio_second
        cpu_many = ears.negatives.cpu_per_audio_second / other.negatives.cpu_per_audio_second
        rss_many = ears.negatives.peak_rss_megabytes / other.negatives.peak_rss_megabytes
        speech = ears.negatives.cpu_per_audio_second
        verdict = "met" if speech <= SPEECH_CPU_TARGET else f"missed by {speech - SPEECH_CPU_TARGET:.4f}"
        return [
            "Both pacings are real time: a chunk is sent when its last sample would have been captured, as a "
            "satellite's microphone sends it (wyoming-openwakeword keeps a fixed window of the newest audio and "
            "loses what a faster client sends, so real time is also the only fair pacing for it). RSS is VmRSS "
            "of the server process, sampled every 0.1 s; CPU is its utime + stime over the phase (10 ms ticks) "
            "divided by the audio seconds streamed. ears ran with its own microphone absent (`--device nosuch`: "
            "it retries quietly), so its CPU is the remote streams'. After a connection closes, ears keeps its "
            "engine for the next one (at most two, so a new Home Assistant pipeline does not wait for a load; "
            "the verifier and the front end's sessions are shared by all streams).",
            "",
            f"Ratios, ears over openWakeWord, this run: CPU per audio second ×{cpu_one:.1f} with one stream and "
            f"×{cpu_many:.1f} with {self.streams}; peak RSS with {self.streams} streams ×{rss_many:.1f}. "
            f"Per stream, ears' {speech:.4f} CPU s per audio s on speech against PocketSphinx's continuous-speech "
            f"target (≤ {SPEECH_CPU_TARGET:.2f}, docs/performance.md): {verdict}. "
            f"ears ran with `[wyoming] max_streams` = {self.streams} (the default is 4); "
            + (f"{retries} connections in the concurrent phases were refused as busy and retried 0.1 s later, as a "
               f"satellite reconnects: a client that stops waiting (1 s without an event after audio-stop) while ears "
               f"still decodes its stream holds a slot until that stream is done."
               if retries else
               "no session was refused as busy (each client opened its next session as soon as the last ended)."),
        ]

    def _busy_retries(self) -> int:
        phases = [phase for run in self.engines for phase in (run.calls, run.negatives)]
        phases += [round_.phase for run in self.arenas for round_ in run.rounds]
        return sum(result.busy_retries for phase in phases for _, result in phase.sessions)

    def _arena_table(self) -> list[str]:
        counts = [round_.streams for round_ in self.arenas[0].rounds]
        rows = ["Memory after concurrent streams: for each N, two fresh `ears listen` with `[wyoming] max_streams` = N, "
                "one with `MALLOC_ARENA_MAX=2` in its environment, each sent the same negatives from N streams at once, "
                "unpaced (ears reads a connection only as fast as it decodes it). RSS idle / peak / 5 s after the "
                "last stream, and CPU s per audio s:", "",
                "| ears | " + " | ".join(f"{n} streams" for n in counts) + " |",
                "|---|" + "---|" * len(counts)]
        for run in self.arenas:
            cells = [f"{r.idle_rss_megabytes:.0f} / {r.phase.peak_rss_megabytes:.0f} / {r.after_rss_megabytes:.0f} MB; "
                     f"{r.phase.cpu_per_audio_second:.4f}" for r in run.rounds]
            rows.append(f"| {run.name} | " + " | ".join(cells) + " |")
        return rows

    def _arena_verdict(self) -> list[str]:
        default, capped = self.arenas[0], self.arenas[-1]
        lines = []
        for plain, arena in zip(default.rounds, capped.rounds):
            cpu = arena.phase.cpu_per_audio_second / plain.phase.cpu_per_audio_second
            after, capped_after = plain.after_rss_megabytes, arena.after_rss_megabytes
            lines.append(f"- {plain.streams} streams: with MALLOC_ARENA_MAX=2, RSS 5 s after {capped_after:.0f} MB against "
                         f"{after:.0f} MB ({capped_after - after:+.0f} MB, {100 * (capped_after / after - 1):+.0f}%); "
                         f"peak {arena.phase.peak_rss_megabytes:.0f} against {plain.phase.peak_rss_megabytes:.0f} MB; "
                         f"CPU per audio s ×{cpu:.2f} (one run each on a shared machine: a few percent is noise).")
        return lines
