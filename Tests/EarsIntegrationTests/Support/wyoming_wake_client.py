#!/usr/bin/env python3
"""A Wyoming wake-service client on the real `wyoming` package, for ears' tests.

Plays the part Home Assistant (or wyoming-satellite) plays towards a wake
service such as wyoming-openwakeword, against any `tcp://HOST:PORT` or
`unix:///path` URI, and prints one JSON line per event received (payloads
as lengths only; audio never appears):

    describe URI                  Describe -> Info; prints the info line.
    detect URI WAV [--names N..]  Detect, AudioStart, the WAV as AudioChunks
                                  (its own rate, width and channels), AudioStop;
                                  prints every event until the server closes.
    garbage URI KIND              Sends bytes that are not a Wyoming event
                                  (KIND: notjson, oversized) and prints what
                                  comes back until the server closes.

The last line is always {"type": "closed"} when the server closed the
connection, or {"type": "timeout"} after --timeout seconds (exit 2).
The package is found on sys.path, or else in the repository's .deps/wyoming.
"""

import argparse
import asyncio
import sys
import wave

# No __pycache__ beside the tests (SwiftPM would see it as unhandled files).
sys.dont_write_bytecode = True
from wyoming_support import emit, missing_package, use_pinned_wyoming  # noqa: E402

use_pinned_wyoming()

try:
    from wyoming.audio import AudioChunk, AudioStart, AudioStop
    from wyoming.client import AsyncClient
    from wyoming.event import async_read_event
    from wyoming.info import Describe, Info
    from wyoming.wake import Detect, Detection, NotDetected
except ImportError as error:  # pragma: no cover - environment problem
    missing_package("wyoming_wake_client", error)


def describe_event(event) -> dict:
    """Type and data; every known event is parsed by the package's own class."""
    line = {"type": event.type, "data": event.data or {}}
    if Info.is_type(event.type):
        info = Info.from_event(event)
        line["wake_models"] = [
            {"name": m.name, "languages": m.languages, "installed": m.installed,
             "attribution": m.attribution.name, "version": m.version}
            for program in info.wake for m in program.models
        ]
        line["wake_programs"] = [p.name for p in info.wake]
    elif Detection.is_type(event.type):
        detection = Detection.from_event(event)
        line["name"] = detection.name
        line["timestamp"] = detection.timestamp
    elif NotDetected.is_type(event.type):
        NotDetected.from_event(event)
    if event.payload:
        line["payload_length"] = len(event.payload)
    return line


async def read_until_closed(read_event) -> None:
    while True:
        event = await read_event()
        if event is None:
            emit({"type": "closed"})
            return
        emit(describe_event(event))


async def describe(uri: str) -> None:
    async with AsyncClient.from_uri(uri) as client:
        await client.write_event(Describe().event())
        event = await client.read_event()
        if event is None:
            emit({"type": "closed"})
            return
        emit(describe_event(event))


async def detect(uri: str, path: str, names, chunk_ms: int) -> None:
    with wave.open(path, "rb") as wav:
        rate, width, channels = wav.getframerate(), wav.getsampwidth(), wav.getnchannels()
        frames = wav.readframes(wav.getnframes())
    frame_bytes = width * channels
    step = max(1, rate * chunk_ms // 1000) * frame_bytes
    async with AsyncClient.from_uri(uri) as client:
        reader = asyncio.create_task(read_until_closed(client.read_event))
        await client.write_event(Detect(names=names).event())
        await client.write_event(AudioStart(rate=rate, width=width, channels=channels, timestamp=0).event())
        timestamp = 0
        for offset in range(0, len(frames), step):
            audio = frames[offset:offset + step]
            await client.write_event(AudioChunk(rate=rate, width=width, channels=channels, audio=audio,
                                                timestamp=timestamp).event())
            timestamp += (len(audio) // frame_bytes) * 1000 // rate
        await client.write_event(AudioStop(timestamp=timestamp).event())
        await reader


async def garbage(uri: str, kind: str) -> None:
    async with AsyncClient.from_uri(uri) as client:
        if kind == "notjson":
            data = b"this is not a wyoming event\n"
        else:
            # A header announcing a payload far above any audio chunk.
            data = b'{"type":"audio-chunk","data":{"rate":16000,"width":2,"channels":1},"payload_length":1073741824}\n'
        client._writer.write(data)
        await client._writer.drain()
        await read_until_closed(lambda: async_read_event(client._reader))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["describe", "detect", "garbage"])
    parser.add_argument("uri")
    parser.add_argument("argument", nargs="?", help="WAV for detect, KIND for garbage")
    parser.add_argument("--names", nargs="*", default=None)
    parser.add_argument("--chunk-ms", type=int, default=64)
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    if args.command == "describe":
        work = describe(args.uri)
    elif args.command == "detect":
        work = detect(args.uri, args.argument, args.names, args.chunk_ms)
    else:
        work = garbage(args.uri, args.argument)
    try:
        asyncio.run(asyncio.wait_for(work, timeout=args.timeout))
    except asyncio.TimeoutError:
        emit({"type": "timeout"})
        return 2
    except (ConnectionError, OSError) as error:
        emit({"type": "connection-error", "error": type(error).__name__})
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
