"""The Markdown tables (one row per scan, by voice, by how the model knows a
voice, by sentence) and the issue's targets checked against a scan; printed by
bench/korean.py and written into the page by report."""
from __future__ import annotations

from typing import Sequence

from wakebench import intervals  # bench/wakebench: Wilson and Poisson intervals

from .config import COMMANDS, DEFAULT_THRESHOLD, PHRASE, TARGET_FALSE_WAKES_PER_HOUR, TARGET_RECALL_PERCENT, VOICES
from .corpus import spoken_texts
from .scanning import Result, Setting
from .training import VOICE_GROUPS, Training, voice_group


def percent(hits: int, total: int) -> str:
    """"68.8% (59–77), 66/96": a recall, its 95% Wilson interval and the counts."""
    return f"{intervals.pct_interval(hits, total)}, {hits}/{total}"


def false_wake_cell(result: Result, noisy: bool) -> str:
    """"14/204; 59.63 (32.60–100.05)": files without the phrase that woke, then
    wakes per hour of that audio with its exact 95% Poisson interval."""
    files, total = result.woken(False, noisy)
    return f"{files}/{total}; {result.false_wake_rate(noisy)}"


FALSE_WAKE_COLUMNS = ("false wakes clean: files; per hour (95%) | false wakes 10 dB: files; per hour (95%)")


def threshold_cell(setting: Setting, training: Training | None) -> str:
    """The threshold column: marks the defaults, and names the trained model's own threshold."""
    if setting.is_default:
        return f"{setting.threshold:g} (default)"
    if setting.threshold is None:
        own = f"{training.model_threshold:g}, " if training else ""
        return f"{own}the model's own (default)"
    return f"{setting.threshold:g}"


def table(results: Sequence[Result], training: Training | None) -> str:
    """One row per scan; the trained model's rows leave the Vosk settings
    out, since neither the grammar nor noise suppression reaches it."""
    lines = ["| route | Vosk grammar | noise suppression | threshold | recall clean (95%) | recall 10 dB (95%) "
             f"| {FALSE_WAKE_COLUMNS} | CPU s per audio s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        s = r.setting
        if s.route == "trained":
            route = "trained model | – | – (not applied)"
        else:
            route = f"Vosk | {'on' if s.grammar else 'off'} | {'on' if s.noise_suppression else 'off'}"
        lines.append(f"| {route} | {threshold_cell(s, training)} | {percent(*r.woken(True, False))} "
                     f"| {percent(*r.woken(True, True))} | {false_wake_cell(r, False)} | {false_wake_cell(r, True)} "
                     f"| {r.cpu_per_audio:.3f} |")
    return "\n".join(lines)


def best_without_false_wakes(results: Sequence[Result]) -> Result | None:
    """The Vosk setting that wakes on the most phrase files (clean and 10 dB
    together) with no false wake; ties go to the cheaper one."""
    clean = [r for r in results if r.false_wakes() == 0 and r.setting.route == "vosk"]
    if not clean:
        return None
    return max(clean, key=lambda r: (r.woken(True, False)[0] + r.woken(True, True)[0], -r.cpu_per_audio))


def recall_check(result: Result, noisy: bool) -> str:
    """The recall with its interval, met or missed, and whether the interval
    leaves the verdict open."""
    hits, total = result.woken(True, noisy)
    recall = result.recall_percent(noisy)
    low, high = (100 * bound for bound in intervals.wilson(hits, total))
    measured = result.recall_interval(noisy)
    if recall >= TARGET_RECALL_PERCENT:
        open_end = "" if low >= TARGET_RECALL_PERCENT else \
            f" (the interval reaches below {TARGET_RECALL_PERCENT:g}%: not shown to meet it)"
        return f"{measured}: met{open_end}"
    open_end = "" if high < TARGET_RECALL_PERCENT else \
        f" (the interval reaches {TARGET_RECALL_PERCENT:g}%: not shown to miss it)"
    return f"{measured}: missed by {TARGET_RECALL_PERCENT - recall:.1f} points{open_end}"


def false_wake_check(result: Result) -> str:
    """Files without the phrase that woke (clean and 10 dB), and the wakes per
    hour of that audio with its interval."""
    count, files = result.false_wakes(), sum(not c.has_phrase for c in result.clips)
    rate = (f"{count}/{files} files; {result.false_wake_rate()} wakes per hour over "
            f"{60 * result.negative_hours():.1f} min")
    return f"{rate}: met" if count == 0 else \
        f"{rate}: missed by {count} file{'s' if count != 1 else ''} that woke"


def reading_check(reading: Result) -> str:
    """Wakes in the read-speech streams against issue 20's rate, met or
    missed by how much, and whether the interval shows it."""
    events, hours = reading.false_wake_events(), reading.negative_hours()
    rate = events / hours
    low, high = intervals.poisson_rate(events, hours)
    measured = f"{events} wake{'s' if events != 1 else ''} in {hours:.2f} h; {reading.false_wake_rate()} per hour"
    if rate <= TARGET_FALSE_WAKES_PER_HOUR:
        shown = "" if high <= TARGET_FALSE_WAKES_PER_HOUR else \
            f" (the interval reaches above {TARGET_FALSE_WAKES_PER_HOUR:g} per hour: not shown to meet it)"
        return f"{measured}: met{shown}"
    shown = "" if low > TARGET_FALSE_WAKES_PER_HOUR else \
        f" (the interval reaches {TARGET_FALSE_WAKES_PER_HOUR:g} per hour: not shown to miss it)"
    return f"{measured}: missed by {rate - TARGET_FALSE_WAKES_PER_HOUR:.2f} per hour{shown}"


def target_section(default: Result, reading: Result | None = None) -> str:
    """The issue's three targets against one scan, met or missed by how much;
    with `reading` (the same setting over the read-speech streams), issue 20's
    false-wake rate too."""
    rows = [
        f"| target ({default.setting.describe()}) | measured |",
        "|---|---|",
        f"| recall clean ≥ {TARGET_RECALL_PERCENT:g}% | {recall_check(default, False)} |",
        f"| recall at 10 dB ≥ {TARGET_RECALL_PERCENT:g}% | {recall_check(default, True)} |",
        f"| false wakes (clean and 10 dB) = 0 | {false_wake_check(default)} |",
    ]
    if reading is not None:
        rows.append(f"| false wakes per hour of read speech without the phrase (clean and 10 dB) "
                    f"≤ {TARGET_FALSE_WAKES_PER_HOUR:g} (issue 20) | {reading_check(reading)} |")
    return "\n".join(rows)


def reading_table(reading: Result) -> str:
    """The read-speech streams voice by voice: hours, wakes, the rate."""
    def row(name: str, part: Result) -> str:
        clean, noisy = (f"{part.negative_hours(n):.2f}; {part.false_wake_events(n)}; {part.false_wake_rate(n)}"
                        for n in (False, True))
        return f"| {name} | {clean} | {noisy} |"
    lines = ["| voice | read speech clean: hours; wakes; per hour (95%) | at 10 dB: hours; wakes; per hour (95%) |",
             "|---|---|---|"]
    lines += [row(voice, reading.part([c for c in reading.clips if c.voice == voice])) for voice in VOICES]
    return "\n".join(lines + [row("all", reading)])


def per_voice_table(result: Result, training: Training | None = None) -> str:
    """Recall and false wakes voice by voice; with a training, also how the
    model knows each voice."""
    known = " | to the model" if training else ""
    lines = [f"| voice{known} | recall clean (95%) | recall 10 dB (95%) | {FALSE_WAKE_COLUMNS} |",
             "|---|---|---|---|---|" + ("---|" if training else "")]
    for voice in VOICES:
        part = result.part([c for c in result.clips if c.voice == voice])
        group = f" | {voice_group(voice, training)}" if training else ""
        lines.append(f"| {voice}{group} | {percent(*part.woken(True, False))} | {percent(*part.woken(True, True))} "
                     f"| {false_wake_cell(part, False)} | {false_wake_cell(part, True)} |")
    return "\n".join(lines)


def voice_group_table(results: Sequence[Result], training: Training) -> str:
    """Each trained row counted separately over the voices the model held
    out, trained on, validated on, and the bare `ko` (never a speaker)."""
    lines = [f"| threshold | voices | recall clean (95%) | recall 10 dB (95%) | {FALSE_WAKE_COLUMNS} |",
             "|---|---|---|---|---|---|"]
    for r in results:
        for group in VOICE_GROUPS:
            voices = [v for v in VOICES if voice_group(v, training) == group]
            if not voices:
                continue
            part = r.part([c for c in r.clips if c.voice in voices])
            lines.append(f"| {threshold_cell(r.setting, training)} | {group}: {', '.join(f'`{v}`' for v in voices)} "
                         f"| {percent(*part.woken(True, False))} | {percent(*part.woken(True, True))} "
                         f"| {false_wake_cell(part, False)} | {false_wake_cell(part, True)} |")
    return "\n".join(lines)


def per_sentence_table(result: Result, has_phrase: bool, only_woken: bool) -> str:
    """How many voices woke on each sentence, clean and at 10 dB."""
    lines = [f"| sentence | files that woke, clean (of {len(VOICES)}) | files that woke, 10 dB (of {len(VOICES)}) |",
             "|---|---|---|"]
    for text, phrase in spoken_texts():
        if phrase != has_phrase:
            continue
        counts = [sum(c.path in result.woke for c in result.clips if c.text == text and c.noisy == noisy)
                  for noisy in (False, True)]
        if only_woken and not any(counts):
            continue
        lines.append(f"| {text} | {counts[0]} | {counts[1]} |")
    return "\n".join(lines) if len(lines) > 2 else "None."


def issue_sentence(results: Sequence[Result]) -> str:
    """What became of the issue's sentence in espeak-ng's default voice."""
    text = f"{PHRASE}, {COMMANDS[0]}"
    lines = []
    for r in results:
        clip = next(c for c in r.clips if c.text == text and c.voice == "ko" and not c.noisy)
        vosk_at_default_threshold = r.setting.route == "vosk" and r.setting.threshold == DEFAULT_THRESHOLD
        if not (vosk_at_default_threshold or r.setting.is_trained_default):
            continue
        outcome = f"woke (score {r.scores[clip.path]:.3f})" if clip.path in r.woke else "did not wake"
        lines.append(f"- {r.setting.describe()}: {outcome}")
    return "\n".join(lines)
