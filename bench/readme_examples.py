#!/usr/bin/env python3
"""make readme-examples: the README's tour, pasted from real runs of the ears it documents.

Synthesizes one call with flite (`-voice rms`, "hey cordelia, what's for
dinner") into a private temporary directory, then runs what the tour shows:
`ears listen --input` on it (the log, until the input has ended), `ears
status` on a pseudo-terminal (the table a person sees), `ears scan --json`
on the same file and `ears soundalikes`. Each command and its output go into
README.md between the script's markers, so the examples are what the
program prints. Nothing heard is kept: the temporary directory (the WAV, the
sockets) is removed at the end. The README's example keys are checked
against the program's by `ReadmeExamplesTests` in `make test`.

usage: bench/readme_examples.py EARS [--readme README.md]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docblock import replace_block  # noqa: E402

SCRIPT = "bench/readme_examples.py"
PHRASE = "hey cordelia"
CALL_TEXT = "hey cordelia, what's for dinner"
# How the README names the binary and the file, instead of this run's temporary paths.
SHOWN_EARS = "ears"
SHOWN_CALL = "/tmp/call.wav"
LISTEN_SECONDS = 20.0


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """`command`, its output as text; a failure ends the script with the command and its stderr."""
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        raise SystemExit(f"readme_examples: {' '.join(command)} exited {result.returncode}: {result.stderr.strip()}")
    return result


def shown(text: str, scratch: Path, ears: str) -> str:
    """`text` with this run's paths replaced by the README's."""
    return text.replace(str(scratch / "call.wav"), SHOWN_CALL).replace(str(scratch), "/tmp/ears-tour").replace(ears, SHOWN_EARS)


def listen_and_status(ears: str, scratch: Path) -> tuple[list[str], list[str]]:
    """The log of `ears listen --input` until the input ends, and `ears status` on a terminal then."""
    runtime, models = scratch / "run", scratch / "models"
    models.mkdir()
    command = [ears, "listen", "--input", str(scratch / "call.wav"), "--phrase", PHRASE, "--config", "/dev/null",
               "--runtime-dir", str(runtime), "--models-dir", str(models), "--auto-train", "off"]
    log_path = scratch / "listen.log"
    with open(log_path, "w") as log:
        daemon = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + LISTEN_SECONDS
        while time.monotonic() < deadline and "input ended" not in log_path.read_text():
            time.sleep(0.2)
        # script(1) gives `ears status` a pseudo-terminal: the table, not the JSON.
        table = run(["script", "-qec", f"{ears} status --runtime-dir {runtime}", "/dev/null"]).stdout
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
    # The configuration line names this run's empty file, which the shown command does not pass.
    log_lines = [line for line in log_path.read_text().splitlines()
                 if not line.startswith(("info: no configuration file", "info: configuration read from"))]
    shown_command = f'$ {SHOWN_EARS} listen --input {SHOWN_CALL} --phrase "{PHRASE}" --runtime-dir /tmp/ears-tour/run'
    status_lines = [f"$ {SHOWN_EARS} status --runtime-dir /tmp/ears-tour/run   # a table on a terminal; --json or a pipe: GET /ears as JSON"]
    status_lines += [line.rstrip("\r") for line in table.splitlines() if line.strip()]
    return [shown_command, *log_lines], status_lines


def block(lines: list[str], scratch: Path, ears: str) -> list[str]:
    """`lines` as a fenced shell block, with this run's paths replaced."""
    return ["```sh", *(shown(line, scratch, ears) for line in lines), "```"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ears", help="the ears binary (make readme-examples passes the release build)")
    parser.add_argument("--readme", type=Path, default=Path("README.md"))
    args = parser.parse_args()
    ears = os.path.abspath(args.ears)
    with tempfile.TemporaryDirectory(prefix="ears-readme-") as name:
        scratch = Path(name)
        run(["flite", "-voice", "rms", "-t", CALL_TEXT, "-o", str(scratch / "call.wav")])
        listen, status = listen_and_status(ears, scratch)
        scan = run([ears, "scan", str(scratch / "call.wav"), "--json", "--phrase", PHRASE, "--config", "/dev/null",
                    "--models-dir", str(scratch / "models")]).stdout.splitlines()
        alikes = run([ears, "soundalikes", PHRASE, "--count", "3", "--config", "/dev/null"]).stdout.splitlines()
        alike_json = run([ears, "soundalikes", PHRASE, "--json", "--count", "1", "--config", "/dev/null"]).stdout.splitlines()[:1]
        # CPU seconds and wall times differ run to run; the README keeps them as measured here.
        sections = {
            "readme-tour-listen": block(listen, scratch, ears),
            "readme-tour-status": block(status, scratch, ears),
            "readme-tour-scan": block([f"$ {SHOWN_EARS} scan {SHOWN_CALL} --json", *scan], scratch, ears),
            "readme-tour-soundalikes": block([f'$ {SHOWN_EARS} soundalikes "{PHRASE}" --count 3', *alikes,
                                              f'$ {SHOWN_EARS} soundalikes "{PHRASE}" --json --count 1 | head -1', *alike_json],
                                             scratch, ears),
        }
    commit = run(["git", "rev-parse", "--short", "HEAD"]).stdout.strip()
    for name, lines in sections.items():
        stamped = [f"(Pasted by `make readme-examples` from a run at {commit}: `flite -voice rms` saying \"{CALL_TEXT}\".)", "",
                   *lines] if name == "readme-tour-listen" else lines
        replace_block(args.readme, name, SCRIPT, stamped)
    print("\n".join(line for lines in sections.values() for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
