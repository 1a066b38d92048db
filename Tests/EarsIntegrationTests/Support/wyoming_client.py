#!/usr/bin/env python3
"""A Wyoming client built on the real `wyoming` package, for ears' tests.

Connects to an ears listen socket (`<runtime dir>/listen.sock`), sends
Describe, and prints one JSON line per event it receives:

    {"type": "info", "wake_phrases": ["hey ears"]}
    {"type": "detection", "data": {"name": "hey ears", ...}}
    {"type": "audio-start", "data": {"rate": 16000, "width": 2, "channels": 1, ...}}
    {"type": "audio-chunk", "data": {...}, "payload_length": 3200, "samples": 1600}
    {"type": "audio-stop", "data": {"timestamp": ...}}

Audio never appears in the output, only its length. Every event is also
parsed with the package's own classes (Info, Detection, AudioStart,
AudioChunk, AudioStop), so a line printed means the package accepted it.

It stops after the given number of audio-stop events once the Info has
arrived (exit 0), or after --timeout seconds (exit 2), or when the server
closes the connection first (exit 3). Connection and parse failures exit 1.

The package is found on sys.path, or else in the repository's .deps/wyoming
(`make wyoming-setup`).
"""

import argparse
import asyncio
import sys

# No __pycache__ beside the tests (SwiftPM would see it as unhandled files).
sys.dont_write_bytecode = True
from wyoming_support import emit, missing_package, use_pinned_wyoming  # noqa: E402

use_pinned_wyoming()

try:
    from wyoming.audio import AudioChunk, AudioStart, AudioStop
    from wyoming.client import AsyncUnixClient
    from wyoming.info import Describe, Info
    from wyoming.wake import Detection
except ImportError as error:  # pragma: no cover - environment problem
    missing_package("wyoming_client", error)


def describe_event(event) -> dict:
    """The printed form of an event: type and data, the payload as a length."""
    line = {"type": event.type, "data": event.data}
    if AudioChunk.is_type(event.type):
        chunk = AudioChunk.from_event(event)
        line["payload_length"] = len(chunk.audio)
        line["samples"] = chunk.samples
    elif event.payload:
        line["payload_length"] = len(event.payload)
    if Detection.is_type(event.type):
        Detection.from_event(event)
    elif AudioStart.is_type(event.type):
        AudioStart.from_event(event)
    elif AudioStop.is_type(event.type):
        AudioStop.from_event(event)
    return line


def wake_phrases(info: Info) -> list:
    """Every wake model's phrase (else its name), in order."""
    return [model.phrase or model.name for program in info.wake for model in program.models]


async def follow(socket_path: str, captures: int, describe: bool) -> int:
    client = AsyncUnixClient(socket_path, connect_timeout=5)
    await client.connect()
    try:
        if describe:
            await client.write_event(Describe().event())
        have_info = not describe
        stops = 0
        while True:
            event = await client.read_event()
            if event is None:
                print("wyoming_client: the server closed the connection", file=sys.stderr)
                return 3
            if Info.is_type(event.type):
                emit({"type": "info", "wake_phrases": wake_phrases(Info.from_event(event))})
                have_info = True
            else:
                emit(describe_event(event))
                if AudioStop.is_type(event.type):
                    stops += 1
            if have_info and stops >= captures:
                return 0
    finally:
        await client.disconnect()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("socket_path", help="the ears listen socket, e.g. /run/ears/listen.sock")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait in all (default 30)")
    parser.add_argument("--captures", type=int, default=1, help="audio-stop events to wait for (default 1)")
    parser.add_argument("--no-describe", action="store_true", help="do not send Describe")
    args = parser.parse_args()
    try:
        return asyncio.run(asyncio.wait_for(follow(args.socket_path, args.captures, not args.no_describe),
                                            timeout=args.timeout))
    except asyncio.TimeoutError:
        print(f"wyoming_client: timed out after {args.timeout} s", file=sys.stderr)
        return 2
    except (OSError, ValueError, KeyError) as error:
        print(f"wyoming_client: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
