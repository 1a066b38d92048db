"""The page (docs/benchmark-korean.md): how the run was made (Run, the binary's
digest, the tools' versions, the commit), the headline the README quotes, the
sections on the set and the trained model, and write_doc."""
from __future__ import annotations

import hashlib
import os
import platform
import shlex
import subprocess
from dataclasses import dataclass
from typing import Sequence

from .config import (COMMANDS, DEFAULT_THRESHOLD, LEAD_SECONDS, NEGATIVE_SENTENCES, NOISE_BED_SECONDS, PHRASE,
                     PHRASE_INSIDE, PITCHES, RATES, REPOSITORY, SEED, SNR_DB, TAIL_SECONDS, TARGET_RECALL_PERCENT,
                     TRAINED_THRESHOLDS, VOICES)
from .corpus import Clip, negative_seconds
from .scanning import Result
from .reading import READING_SECONDS_PER_VOICE, SENTENCES_PER_PART, PART_GAP_SECONDS
from .tables import (best_without_false_wakes, issue_sentence, per_sentence_table, per_voice_table, reading_table,
                     table, target_section, voice_group_table)
from .training import Training, VoiceGroup, voice_group


def tool_version(command: Sequence[str]) -> str:
    """The first line a tool prints for its version, without espeak-ng's "Data at:" path."""
    done = subprocess.run(command, capture_output=True, text=True)
    first = (done.stdout or done.stderr).strip().splitlines()[0]
    return " ".join(first.split(" Data at:")[0].split())


def sha256(path: str) -> str:
    """The SHA-256 of a file (the ears binary), in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class Run:
    """What the doc says about how the numbers were made."""
    command: str
    date: str
    commit: str  # git rev-parse --short HEAD when the run started, marked if Sources/ had changes
    ears: str
    ears_sha256: str
    model: str
    clips: list[Clip]
    audio_s: float
    build_s: float
    train_s: float  # this run's wall time on training (near 0 when the model was cached)
    scan_s: float
    load_average: float
    vosk_sweep: bool
    training: Training | None
    reading: Result | None = None  # the trained model, its own threshold, over the read-speech streams
    reading_sentences: int = 0  # sentences of the manual the streams are read from


def repository_commit() -> str:
    """The repository's commit as the English benchmark names it:
    `git rev-parse --short HEAD`, plus "(uncommitted changes in Sources/)"
    when Sources/ or Package.swift differ from it."""
    def git(*arguments: str) -> str:
        done = subprocess.run(["git", "-C", REPOSITORY, *arguments], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""
    dirty = git("status", "--porcelain", "--", "Sources", "Package.swift")
    return (git("rev-parse", "--short", "HEAD") or "unknown") + (" (uncommitted changes in Sources/)" if dirty else "")


FEW_NEGATIVE_MINUTES = 60  # below this much audio without the phrase, the page says the rates are rough


def negatives_note(clips: Sequence[Clip]) -> str:
    """How much audio without the phrase the false-wake rates rest on."""
    files = sum(not c.has_phrase and not c.noisy for c in clips)
    clean, noisy = negative_seconds(clips, False) / 60, negative_seconds(clips, True) / 60
    note = (f"The false-wake rates rest on {clean:.1f} minutes of audio without the phrase clean and "
            f"{noisy:.1f} minutes at 10 dB ({files} short files each, {clean + noisy:.1f} minutes together, "
            f"{(clean + noisy) / len(VOICES):.1f} per voice)")
    if clean + noisy < FEW_NEGATIVE_MINUTES:
        note += (": only a few minutes, so their intervals are wide (that is the honest figure: this set "
                 "cannot pin a false-wake rate down, and the English benchmark's hours of negative streams "
                 "are not matched here)")
    return note + "."


def headline(results: Sequence[Result], reading: Result | None = None) -> str:
    """The one line the README quotes: recall clean and at 10 dB and false
    wakes per hour (clean and 10 dB together), each with its 95% interval,
    for Vosk at ears' defaults and for the trained model at its own threshold;
    with `reading`, the trained model's false wakes over the read speech."""
    parts = []
    for result in results:
        if result.setting.is_default:
            name = (f"Vosk at ears' defaults (grammar on, noise suppression on, threshold "
                    f"{DEFAULT_THRESHOLD:g})")
        elif result.setting.is_trained_default:
            name = "the trained model at its own threshold"
        else:
            continue
        parts.append(f"{name}: recall {result.recall_interval(False)} clean and {result.recall_interval(True)} "
                     f"at 10 dB, {result.false_wake_rate()} false wakes per hour")
    minutes = negative_seconds(results[0].clips) / 60
    if reading is not None:
        parts.append(f"over {reading.negative_hours():.1f} h of continuous Korean read speech (clean and 10 dB) "
                     f"the trained model woke {reading.false_wake_events()} times, "
                     f"{reading.false_wake_rate()} per hour")
    return (f"**Headline** (espeak-ng voices only; 95% intervals; false wakes over {minutes:.0f} min of short "
            f"files without the phrase, clean and 10 dB): " + "; ".join(parts) + ".")


def reading_section(run_info: Run) -> str:
    """The page's "Read speech" section: the streams, how they are made, and
    the trained model's false wakes in them voice by voice."""
    reading = run_info.reading
    if reading is None:
        return ""
    return f"""## Read speech

A false-wake rate of the issue's order (at most 1 per hour) cannot be shown on
minutes of short files, so each voice also reads {READING_SECONDS_PER_VOICE / 60:.0f} minutes of a real Korean
text without the phrase, in one continuous stream as a microphone would hear
a person reading aloud, clean and under pink noise at {SNR_DB:g} dB SNR (against
the speech's active level): {reading.negative_hours():.2f} hours in all. The text is
the Korean GIMP manual (Debian's `gimp-help-ko`, unpacked by `make korean-prose`;
no part of ears trains on it): {run_info.reading_sentences} of its sentences that are Korean
(at least 95% of their letters Hangul) and hold no word of the phrase, shuffled
per voice and read in parts of {SENTENCES_PER_PART} at a rate and pitch drawn from the set's,
{PART_GAP_SECONDS:g} s apart (bench/koreanbench/reading.py). Only the trained model at its own
threshold scans them (Vosk, at 0.11 CPU s per audio s, would add about half an
hour, and its short-file rate above already misses by far).

{reading_table(reading)}
"""


def set_section(run_info: Run) -> str:
    """The page's "The set" section: voices, rates and pitches, the files,
    how SNR, recall and false wakes are counted, and every sentence."""
    clips = run_info.clips
    positives = [c for c in clips if c.has_phrase and not c.noisy]
    negatives = [c for c in clips if not c.has_phrase and not c.noisy]
    commands = "\n".join(f"- {PHRASE}, {c}" for c in COMMANDS)
    inside = "\n".join(f"- {t}" for t in PHRASE_INSIDE)
    others = "\n".join(f"- {t}" for t in NEGATIVE_SENTENCES)
    return f"""## The set

espeak-ng is the only Korean voice on Debian, so every file here is espeak-ng's
`ko` voice (with variants); **real voices are not covered**, and these numbers
say nothing about how ears hears Korean people.

- Voices: {", ".join(f"`{v}`" for v in VOICES)} (the one Korean voice of
  `espeak-ng --voices=ko` and variants from `espeak-ng --voices=variant`).
- Rates {", ".join(map(str, RATES))} words per minute and pitches {", ".join(map(str, PITCHES))}
  (`-s`, `-p`), cycled by rule so that each voice says its sentences at every
  rate and pitch and each sentence changes rate and pitch from voice to voice.
- {len(positives)} files with the phrase ({len(COMMANDS) + len(PHRASE_INSIDE)} sentences × {len(VOICES)} voices)
  and {len(negatives)} without it ({len(NEGATIVE_SENTENCES)} sentences × {len(VOICES)} voices), each clean and
  mixed with pink noise at {SNR_DB:g} dB SNR: {len(clips)} files, {run_info.audio_s / 60:.1f} minutes of audio.
  Each file is 16 kHz mono with {LEAD_SECONDS:g} s of silence before the speech and {TAIL_SECONDS:g} s after.
- SNR is the RMS of the speech (espeak-ng's output, without the added silence)
  over the RMS of the noise. The noise is cut from {NOISE_BED_SECONDS} s of `sox -R` (repeatable)
  pink noise at an offset drawn from a generator seeded by {SEED} and the file name,
  so every run makes the same files.
- Recall: the share of files with the phrase that woke at least once, with
  its 95% Wilson interval. False wakes: the number of files without the
  phrase that woke at least once, and the wakes (every one, a file can wake
  more than once) per hour of audio without the phrase, with the exact 95%
  Poisson interval (bench/wakebench/intervals.py); how much audio without the
  phrase there is, and so how wide those intervals are, is said at the top.
  CPU s per audio s: the scan's CPU time after the model loaded over the audio
  it scanned (all {len(clips)} files). It is CPU time, not wall time, so other
  work on the machine (see the load average above) changes it little.

The phrase followed by a command:

{commands}

The phrase inside (or at the end of) a sentence:

{inside}

Sentences without the phrase (the first ones have syllables like the phrase's:
델리, 코드, 코리아, 피자, 피아노, 파파, and 피파 alone; then the commands alone):

{others}
"""


def training_section(training: Training, results: Sequence[Result]) -> str:
    """How the model was made, which voices it held out, and the trained rows
    against the target and by voice."""
    trained = [r for r in results if r.setting.route == "trained"]
    default = next(r for r in trained if r.setting.is_trained_default)
    made = ("made before this run, into the same directory, and reused: its times are that `ears train` run's"
            if training.cached else "made by this run")
    held_out = [v for v in VOICES if voice_group(v, training) == "held out"]
    held_out_phrase_files = sum(c.has_phrase and not c.noisy and c.voice in held_out for c in default.clips)

    def named(group: VoiceGroup) -> str:
        return ", ".join(f"`{v}`" for v in VOICES if voice_group(v, training) == group) or "none"
    output = "\n".join(f"    {line}" for line in training.output)
    return f"""## Trained model

`{shlex.join(["ears", *training.command[1:]])}` at the default budget
({made}): {training.wall_s / 60:.1f} minutes wall, {training.cpu_s / 60:.1f} minutes CPU (user + system of
the `ears train` process, from its resource usage), on the same shared machine
(CPU below wall means it waited for the cores).
Its model, `{training.model_path}`, hears the phrase at threshold
{training.model_threshold:g} unless `--trained-threshold` says otherwise. What `ears train` printed:

{output}

**The voices are not independent of the model.** The set is said by espeak-ng's
`ko` voice and its variants, and the model learnt from the same engine:
espeak-ng is the only Korean text-to-speech engine on Debian, so no whole
engine could be held out (for English, ears holds out a whole engine; for
Korean it holds out a fifth of the `ko` variants). Even the held-out variants
share the trained ones' phonemes, prosody rules and synthesizer, so the
figures below say how well the model hears espeak-ng's Korean, not Korean
speakers, and its recall here flatters it.

Of this set's voices, by the model file (which names the train and held-out
speakers): held out {named("held out")}; trained on {named("trained on")};
validation {named("validation")} (not in the file: the rest of ears' `ko+VARIANT`
speakers, used for early stopping and to choose the threshold, so not unseen
either). The bare `ko` (no variant) is no speaker of any split, since ears
trains on `ko+VARIANT` speakers only: new to the model as a variant, not as a
voice. So {len(held_out)} of this set's {len(VOICES)} voices {"is" if len(held_out) == 1 else "are"} held out,
and the held-out rows rest on {held_out_phrase_files} files with the phrase, clean and {held_out_phrase_files}
at 10 dB.

{target_section(default)}

By voice, the model against the voices it knows (each row counts only those
voices' files):

{voice_group_table(trained, training)}

At the model's own threshold, voice by voice:

{per_voice_table(default, training)}

Sentences with the phrase at the model's own threshold:

{per_sentence_table(default, has_phrase=True, only_woken=False)}

Sentences without the phrase that woke at the model's own threshold:

{per_sentence_table(default, has_phrase=False, only_woken=True)}
"""


def write_doc(path: str, run_info: Run, results: Sequence[Result]) -> None:
    """Writes the whole page: header and headline, the targets, the results
    table with the tables by voice and sentence, the trained model's section
    (with --trained) and the set."""
    default = next(r for r in results if r.setting.is_default)
    best = best_without_false_wakes(results)
    training = run_info.training
    if best is None:
        best_line = "No Vosk setting measured here gets through the set without a false wake."
    else:
        best_line = (f"Best Vosk recall with no false wake: **{best.setting.describe()}**: "
                     f"{best.recall_interval(False)} clean, {best.recall_interval(True)} at 10 dB, "
                     f"{best.cpu_per_audio:.3f} CPU s per audio s.")
        misses = [f"{label} by {TARGET_RECALL_PERCENT - best.recall_percent(noisy):.1f} points"
                  for noisy, label in ((False, "clean"), (True, "at 10 dB"))
                  if best.recall_percent(noisy) < TARGET_RECALL_PERCENT]
        if misses:
            best_line += f" Its recall misses {TARGET_RECALL_PERCENT:g}% {' and '.join(misses)}."
    trained_default = next((r for r in results if r.setting.is_trained_default), None)
    scans = len(results) + (1 if run_info.reading else 0)
    total_minutes = (run_info.build_s + run_info.train_s + run_info.scan_s) / 60
    reused = " (the model was reused: see [Trained model](#trained-model))" if training and training.cached else ""
    sweep = ("Vosk: every combination of the runtime grammar (`[engine] vosk_grammar`, on by default; off "
             "decodes with the model's full language model), noise suppression (`--noise-suppression`, on by "
             f"default) and the match threshold (`--threshold`, {DEFAULT_THRESHOLD:g} by default)."
             if run_info.vosk_sweep else
             "Vosk: this run scanned only the default setting (`--no-vosk-sweep`: the whole sweep of grammar, "
             "noise suppression and threshold takes about 85 minutes on this machine; an earlier version of "
             "this file in the git history has it, made with an earlier binary).")
    if training:
        sweep += (" The trained model: `ears train`'s model for the phrase (`--models-dir WORKDIR/models`), at "
                  f"its own threshold ({training.model_threshold:g}) and at `--trained-threshold` "
                  f"{', '.join(f'{t:g}' for t in TRAINED_THRESHOLDS if t is not None)}; the Vosk rows ran with an "
                  "empty `--models-dir`, so no trained model heard for them.")
    trained_targets = ("" if trained_default is None else
                       f"\n\nThe trained model at its own threshold (its voices are espeak-ng's, like the set's: "
                       f"see [Trained model](#trained-model)):\n\n{target_section(trained_default, run_info.reading)}")
    text = f"""# Korean wake phrase on Vosk and a trained model (espeak-ng voices)

Generated by `bench/korean.py` (`make bench-korean`); every number below comes
from that script's run, none is typed by hand. This run: `{run_info.command}`
(from the repository root) on {run_info.date} UTC, **repository at {run_info.commit}**;
**it took {total_minutes:.0f} min**. The wake phrase is "{PHRASE}", heard by the Vosk
engine with its Korean model{" and by a model `ears train` made for it" if training else ""}.

{headline(results, run_info.reading)}

Every recall carries its 95% Wilson interval and every false-wake rate (wakes
per hour of audio without the phrase) its exact 95% Poisson interval, in
brackets: two figures whose brackets overlap are not shown to differ by this
run. {negatives_note(run_info.clips)}{" The trained model's rate over hours of continuous read speech is in [Read speech](#read-speech)." if run_info.reading else ""}

- Binary: `{run_info.ears}`, sha256 `{run_info.ears_sha256}`
- Model: `{run_info.model}`
- Tools: {tool_version(["espeak-ng", "--version"])}; {tool_version(["sox", "--version"])}
- Machine: {os.cpu_count()} cores, Linux {platform.release()}, load average {run_info.load_average:.2f} at the start
- The run took {total_minutes:.1f} minutes: {run_info.build_s / 60:.1f} to make the set,
  {run_info.train_s / 60:.1f} to train{reused}, and {run_info.scan_s / 60:.1f} for the {scans} scans
  (one `ears scan` at a time, each over every file).

## Target

The issue's target: at least {TARGET_RECALL_PERCENT:g}% recall, clean and at 10 dB, with no false wake,
at the default settings.

{target_section(default)}

{best_line}{trained_targets}

The issue's sentence ("{PHRASE}, {COMMANDS[0]}", voice `ko` at espeak-ng's
defaults, rate 175 and pitch 50, clean), at Vosk's default threshold
{DEFAULT_THRESHOLD:g}{" and the trained model's own" if training else ""}:

{issue_sentence(results)}

## Results

{sweep}

{table(results, training)}

Vosk at the default settings, voice by voice:

{per_voice_table(default)}

Sentences with the phrase, Vosk at the default settings:

{per_sentence_table(default, has_phrase=True, only_woken=False)}

Sentences without the phrase that woke, Vosk at the default settings:

{per_sentence_table(default, has_phrase=False, only_woken=True)}

""" + (training_section(training, results) + "\n" if training else "") + "\n" + set_section(run_info) + \
        ("\n" + reading_section(run_info) if run_info.reading else "")
    with open(path, "w") as f:
        f.write(text)


def readme_headline(results: Sequence[Result], commit: str, date: str, reading: Result | None = None) -> str:
    """The headline as the README quotes it (between its bench-korean markers),
    with where and when it was measured."""
    where = f"(repository at {commit}, {date}; [docs/benchmark-korean.md](docs/benchmark-korean.md); "
    return headline(results, reading).replace("**Headline** (", "Korean, measured by `make bench-korean` " + where, 1)
