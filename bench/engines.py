#!/usr/bin/env python3
"""Engine cost on this machine: CPU seconds per audio second listening to
silence, to steady noise and to continuous speech; model load time; peak RSS.
Each engine with the speech gate on (the default) and off.

usage: bench/engines.py EARS WORKDIR [--seconds S]
Prints a markdown table; also `ears listen` on a file-backed ALSA device
playing silence at real time, measured from /proc (the daemon's real cost).
"""
import argparse, json, os, signal, subprocess, sys, tempfile, time

KOREAN_TEXT = ("오늘은 날씨가 맑고 바람이 조금 붑니다. 저녁에는 친구와 함께 시장에 가서 과일과 채소를 살 생각입니다. "
               "내일 아침에는 일찍 일어나서 공원을 산책하고 책을 읽을 것입니다. 주말에는 가족과 함께 영화를 보러 갈 계획입니다. ")


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, **kw)


def make_audio(work, seconds):
    """Silence, steady pink noise, English speech (fortunes, flite rms) and Korean speech (espeak-ng ko)."""
    os.makedirs(work, exist_ok=True)
    files = {}
    files["silence"] = f"{work}/silence.wav"
    sh(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", files["silence"], "trim", "0", str(seconds)])
    files["noise"] = f"{work}/noise.wav"
    sh(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", files["noise"], "synth", str(seconds), "pinknoise", "vol", "0.05"])
    text = open("/usr/share/games/fortunes/literature", encoding="utf-8", errors="ignore").read().replace("%", " ")
    text = " ".join(text.split()[:900])
    sh(["flite", "-voice", "rms", "-t", text, "-o", f"{work}/en-raw.wav"])
    files["speech-en"] = f"{work}/speech-en.wav"
    sh(["sox", f"{work}/en-raw.wav", "-r", "16000", "-c", "1", "-b", "16", files["speech-en"], "trim", "0", str(seconds)])
    sh(["espeak-ng", "-v", "ko", "-w", f"{work}/ko-raw.wav", KOREAN_TEXT * 12])
    files["speech-ko"] = f"{work}/speech-ko.wav"
    sh(["sox", f"{work}/ko-raw.wav", "-r", "16000", "-c", "1", "-b", "16", files["speech-ko"], "trim", "0", str(seconds)])
    return files


def scan(ears, path, args):
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tf.name, ears, "scan", "--json", *args, path],
                             capture_output=True, text=True)
        rss_kb = int(open(tf.name).read().strip().splitlines()[-1])
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    return summary["cpu_s"] / summary["audio_s"], summary["load_s"], rss_kb / 1024


def proc_cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def listen_silence(ears, work, engine_args, seconds=30):
    """`ears listen` on the ALSA file plugin reading silence (paced at real time by
    the audio owner); CPU seconds per second, measured after the engine loaded."""
    raw = f"{work}/silence.raw"
    with open(raw, "wb") as f:
        f.write(bytes(32000 * 2))  # 2 s; past the end the plugin keeps returning (zeroed) frames
    conf = f"{work}/asound.conf"
    open(conf, "w").write(f'pcm.cap {{ type file; slave.pcm {{ type null }}; file "/dev/null"; infile "{raw}"; format "raw" }}\n')
    env = dict(os.environ, ALSA_CONFIG_PATH=conf)
    proc = subprocess.Popen([ears, "listen", "--auto-train", "off", "--device", "cap", "--runtime-dir", f"{work}/run", *engine_args],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in proc.stdout:
            if "listening on" in line:
                break
        time.sleep(2)
        start_cpu, start = proc_cpu_seconds(proc.pid), time.monotonic()
        time.sleep(seconds)
        return (proc_cpu_seconds(proc.pid) - start_cpu) / (time.monotonic() - start)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ears")
    ap.add_argument("work")
    ap.add_argument("--seconds", type=int, default=120)
    args = ap.parse_args()
    files = make_audio(args.work, args.seconds)
    engines = [("pocketsphinx", ["--engine", "pocketsphinx"], "speech-en"),
               ("vosk (Korean, grammar)", ["--engine", "vosk", "--phrase", "코델리아 피파"], "speech-ko"),
               ("vosk (Korean, free)", ["--engine", "vosk", "--phrase", "코델리아 피파", "--config", write_conf(args.work, "vosk_grammar = off")], "speech-ko")]
    print(f"| engine | gate | silence | steady noise | continuous speech | model load (s) | peak RSS (MB) |")
    print("|---|---|---|---|---|---|---|")
    for name, engine_args, speech in engines:
        for gate in ["on", "off"]:
            a = engine_args + ["--speech-gate", gate]
            cells, loads, rss = [], [], 0
            for kind in ["silence", "noise", speech]:
                cpu, load, peak = scan(args.ears, files[kind], a)
                cells.append(f"{cpu:.4f}")
                loads.append(load)
                rss = max(rss, peak)
            print(f"| {name} | {gate} | {' | '.join(cells)} | {min(loads):.2f} | {rss:.0f} |", flush=True)
    print()
    print("`ears listen` on silence (file-backed ALSA device at real time, 30 s, gate on), CPU s per s:")
    for name, engine_args, _ in engines[:2]:
        print(f"- {name}: {listen_silence(args.ears, args.work, engine_args):.4f}", flush=True)


def write_conf(work, line):
    path = f"{work}/engine.conf"
    open(path, "w").write(f"[engine]\n{line}\n")
    return path


if __name__ == "__main__":
    main()
