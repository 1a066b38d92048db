#!/usr/bin/env python3
"""Korean wake phrase on Vosk with espeak-ng's Korean voices: free decoding vs
the runtime grammar (the default). espeak-ng is the only Korean voice on
Debian, and Vosk's small model transcribes it poorly, so this measures what
can be measured here; real voices are not covered.

usage: bench/korean.py EARS WORKDIR
"""
import json, os, subprocess, sys

PHRASE = "코델리아 피파"
VOICES = ["ko", "ko+klatt", "ko+f2", "ko+m3"]
SPEEDS = [130, 160, 175, 200]
COMMANDS = ["오늘 저녁 뭐 먹을까", "불 좀 켜 줘", "지금 몇 시야", "음악 틀어 줘"]
OTHERS = ["오늘 저녁에는 피자를 먹을 거예요", "델리에서 샌드위치를 샀어요", "내일 아침 일찍 일어나야 해요",
          "주말에 가족과 영화를 봤어요", "날씨가 맑고 바람이 불어요", "시장에서 과일을 샀어요",
          "책을 읽고 잠을 잤어요", "친구에게 전화를 했어요"]


def wav(text, voice, speed, path):
    raw = path + ".raw.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", raw, text], check=True)
    subprocess.run(["sox", raw, "-r", "16000", "-c", "1", "-b", "16", path, "pad", "0.8", "1.0"], check=True)
    os.remove(raw)


def scan(ears, files, extra):
    out = subprocess.run([ears, "scan", "--json", "--engine", "vosk", "--phrase", PHRASE, *extra, *files],
                         capture_output=True, text=True).stdout
    events = [json.loads(l) for l in out.splitlines()]
    woke = {e["file"] for e in events if e["event"] == "wake"}
    summary = events[-1]
    return woke, summary


def main():
    ears, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    positives, negatives = [], []
    for vi, voice in enumerate(VOICES):
        for si, speed in enumerate(SPEEDS):
            p = f"{work}/pos-{vi}-{si}.wav"
            wav(f"{PHRASE}, {COMMANDS[si]}", voice, speed, p)
            positives.append(p)
        for oi, other in enumerate(OTHERS):
            n = f"{work}/neg-{vi}-{oi}.wav"
            wav(other, voice, 175, n)
            negatives.append(n)
    conf = f"{work}/free.conf"
    open(conf, "w").write("[engine]\nvosk_grammar = off\n")
    print("| Vosk decoding | phrase files that woke | other sentences that woke | CPU s per audio s |")
    print("|---|---|---|---|")
    for label, extra in [("grammar (default)", []), ("free", ["--config", conf])]:
        woke_pos, s1 = scan(ears, positives, extra)
        woke_neg, s2 = scan(ears, negatives, extra)
        cpu = (s1["cpu_s"] + s2["cpu_s"]) / (s1["audio_s"] + s2["audio_s"])
        print(f"| {label} | {len(woke_pos)}/{len(positives)} | {len(woke_neg)}/{len(negatives)} | {cpu:.3f} |", flush=True)


if __name__ == "__main__":
    main()
