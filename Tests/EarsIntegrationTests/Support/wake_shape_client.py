#!/usr/bin/env python3
"""One Wyoming wake-service session, reduced to its shape, for ears' tests.

The same script is run against wyoming-openwakeword 1.8.2 and against ears
(Tests/EarsIntegrationTests/WyomingDifferentialTests.swift): it connects to
URI (tcp://HOST:PORT), and with the PyPI `wyoming` package (.deps/wyoming,
`make wyoming-setup`) sends

    describe                      -> reads the info
    detect (names = --name ...)
    audio-start, audio-chunk ...  (AUDIO, raw S16_LE 16 kHz mono, paced at
                                   real time in 1024-sample chunks, as a
                                   satellite's microphone would send it)
    audio-stop                    (after a second of reading)

and reads until the server closes the connection or is quiet for --idle
seconds. It prints one JSON object: the events received, each as its type
and the sorted key set of its data (never values: scores, timestamps and
model names differ between engines, the protocol's shape must not), with
the info's nested programs and models reduced the same way:

    {"events": [{"type": "info", "keys": ["wake"],
                 "wake": [{"keys": [...], "models": [[...]]}]},
                {"type": "detection", "keys": ["name", "timestamp"]},
                ...],
     "closed": true, "detections": ["hey_jarvis_v0.1"]}

Detection names are printed apart from the shape so a test can check that
the phrase (not just any event) was found. Exit 0 after a session, 1 when
the server cannot be reached or the package is missing.
"""

import argparse
import asyncio
import json
import sys

# No __pycache__ beside the tests (SwiftPM would see it as unhandled files).
sys.dont_write_bytecode = True
from wyoming_support import emit, missing_package, use_pinned_wyoming  # noqa: E402

use_pinned_wyoming()

try:
    from wyoming.audio import AudioChunk, AudioStart, AudioStop
    from wyoming.client import AsyncClient
    from wyoming.info import Describe, Info
    from wyoming.wake import Detect, Detection
except ImportError as error:  # pragma: no cover - environment problem
    missing_package("wake_shape_client", error)

RATE, WIDTH, CHANNELS = 16000, 2, 1
SAMPLES_PER_CHUNK = 1024
# Seconds read after the last chunk before audio-stop: a detection near the
# end of the audio may still be on its way (openWakeWord sends from a thread).
SETTLE_SECONDS = 1.0


def keys(data: dict) -> list:
    """The sorted keys whose value is not null: an absent field and a null
    one mean the same to every wyoming client."""
    return sorted(key for key, value in (data or {}).items() if value is not None)


def info_keys(data: dict) -> list:
    """The info's program kinds that list a program: wyoming 1.2.0 writes
    every kind, so a wake service also says "asr": [], "tts": [] ..."""
    return sorted(key for key, value in (data or {}).items() if value not in (None, []))


def shape(event) -> dict:
    """The event's type and data key set; for info, the wake programs' too."""
    data = event.data or {}
    line = {"type": event.type, "keys": info_keys(data) if Info.is_type(event.type) else keys(data)}
    if Info.is_type(event.type):
        programs = data.get("wake") or []
        line["wake"] = [{"keys": keys(program),
                         "models": sorted({tuple(keys(model)) for model in program.get("models") or []})}
                        for program in programs]
    return line


class Reader:
    """Reads every event for the whole session in one task (never cancelled
    mid-event, which could split an event), noting when the last one came."""

    def __init__(self, client) -> None:
        self.client = client
        self.events: list = []
        self.detections: list = []
        self.last_at = 0.0
        self.task = asyncio.create_task(self.run())

    async def run(self) -> bool:
        """Collects events until the server closes the connection (True)."""
        while True:
            event = await self.client.read_event()
            self.last_at = asyncio.get_running_loop().time()
            if event is None:
                return True
            self.events.append(shape(event))
            if Detection.is_type(event.type):
                self.detections.append(Detection.from_event(event).name)

    async def until_closed_or_quiet(self, idle: float) -> bool:
        """True if the server closed; False after `idle` seconds without an event."""
        loop = asyncio.get_running_loop()
        self.last_at = max(self.last_at, loop.time())
        while not self.task.done():
            if loop.time() - self.last_at > idle:
                self.task.cancel()
                return False
            await asyncio.sleep(0.05)
        return self.task.result()


async def session(uri: str, audio: bytes, names: list, idle: float) -> dict:
    client = AsyncClient.from_uri(uri)
    await client.connect()
    # describe -> info first, alone, so the info is always the first event.
    await client.write_event(Describe().event())
    info = await asyncio.wait_for(client.read_event(), 10)
    if info is None:
        raise RuntimeError("the server closed the connection instead of answering describe")
    reader = Reader(client)
    reader.events.append(shape(info))

    await client.write_event(Detect(names=names or None).event())
    await client.write_event(AudioStart(rate=RATE, width=WIDTH, channels=CHANNELS).event())
    step = SAMPLES_PER_CHUNK * WIDTH * CHANNELS
    for offset in range(0, len(audio), step):
        chunk = audio[offset:offset + step]
        await client.write_event(AudioChunk(rate=RATE, width=WIDTH, channels=CHANNELS, audio=chunk).event())
        await asyncio.sleep(len(chunk) / (RATE * WIDTH * CHANNELS))
    await asyncio.sleep(SETTLE_SECONDS)
    try:
        await client.write_event(AudioStop().event())
    except (ConnectionError, OSError):
        pass  # closed already; the reader says so
    closed = await reader.until_closed_or_quiet(idle)
    await client.disconnect()
    return {"events": reader.events, "closed": closed, "detections": reader.detections}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("uri", help="tcp://HOST:PORT of the wake service")
    parser.add_argument("audio", help="raw S16_LE 16 kHz mono file")
    parser.add_argument("--name", action="append", default=[], help="a name for detect (repeatable)")
    parser.add_argument("--idle", type=float, default=3.0, help="seconds of quiet after audio-stop that end the session")
    args = parser.parse_args()
    with open(args.audio, "rb") as file:
        audio = file.read()
    try:
        result = asyncio.run(session(args.uri, audio, args.name, args.idle))
    except (OSError, RuntimeError, asyncio.TimeoutError) as error:
        print(f"wake_shape_client: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
