#!/usr/bin/env python3
"""Plays Home Assistant to a real wyoming-satellite 1.0.0 whose wake service
is the one under test (ears or wyoming-openwakeword), for ears' tests.

Runs in the satellite's own virtual environment (.deps/wyoming-satellite,
`make wyoming-peers-setup`), whose `wyoming` (1.4.1) is the one the satellite
pins. It:

1. listens as the satellite's event service (`--event-uri`), where the
   satellite forwards `detection` (with the wake word's name);
2. starts `python -m wyoming_satellite` with `--wake-uri WAKE_URI`, a
   `--mic-command` that waits for a go-file and then `cat`s AUDIO (raw
   S16_LE 16 kHz mono), and `--no-zeroconf`;
3. connects to the satellite's `--uri` as Home Assistant does: `describe`
   (expects an `info` with a satellite), then `run-satellite`;
4. creates the go-file, so the phrase reaches the satellite's microphone
   only after the server is attached (before that a detection would be
   streamed to nobody);
5. waits for the satellite's `run-pipeline` (start stage `asr`: the wake word
   was detected locally) and the audio it streams after it, then answers
   with a `transcript` as Home Assistant does at the end of speech, so the
   satellite goes back to waiting for the wake word (a new `detect`).

It prints one JSON line per event from each side, `{"from": "satellite" |
"event-service", "type": ..., "data": ...}` (audio chunks only counted, never
printed), and a final `{"result": "detected" | "timeout", ...}`. Exit 0 when
the satellite sent `run-pipeline` and the event service got a `detection`;
2 on timeout; 1 on setup failure. Everything it makes lives in a private
temporary directory removed on exit.
"""

import argparse
import asyncio
import json
import os
import shlex
import shutil
import socket
import sys
import tempfile

from wyoming.asr import Transcript
from wyoming.audio import AudioChunk
from wyoming.client import AsyncTcpClient
from wyoming.event import async_read_event
from wyoming.info import Describe, Info
from wyoming.pipeline import RunPipeline
from wyoming.satellite import RunSatellite
from wyoming.wake import Detection

# Audio chunks the satellite must stream after run-pipeline (proof that it
# switched from the wake service to the server).
STREAMED_CHUNKS_WANTED = 3

# The microphone: nothing until the go-file ($0) exists, then the file ($1).
WAIT_THEN_PLAY = 'while [ ! -e "$0" ]; do sleep 0.1; done; exec cat "$1"'


def emit(line: dict) -> None:
    """One JSON line, flushed at once so the test sees it."""
    print(json.dumps(line, sort_keys=True), flush=True)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Run:
    """The state both sides report into."""

    def __init__(self) -> None:
        self.detection = asyncio.Event()
        self.pipeline = asyncio.Event()
        self.detection_names: list = []
        self.streamed_chunks = 0


async def event_service(run: Run, reader, writer) -> None:
    """The satellite's --event-uri: it forwards what it sees and does."""
    while True:
        event = await async_read_event(reader)
        if event is None:
            break
        emit({"from": "event-service", "type": event.type, "data": event.data})
        if Detection.is_type(event.type):
            run.detection_names.append(Detection.from_event(event).name)
            run.detection.set()
    writer.close()


async def connect(uri_port: int, seconds: float) -> AsyncTcpClient:
    """Connects to the satellite, retrying while it starts."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        client = AsyncTcpClient("127.0.0.1", uri_port)
        try:
            await client.connect()
            return client
        except OSError:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.2)


async def home_assistant(run: Run, client: AsyncTcpClient, go_file: str) -> None:
    """Home Assistant's side: describe, run-satellite, then read the stream."""
    await client.write_event(Describe().event())
    while True:
        event = await client.read_event()
        if event is None:
            raise RuntimeError("the satellite closed the connection before info")
        if Info.is_type(event.type):
            info = Info.from_event(event)
            emit({"from": "satellite", "type": event.type,
                  "satellite": info.satellite.name if info.satellite else None})
            break
    await client.write_event(RunSatellite().event())
    # Only now may the phrase reach the microphone.
    open(go_file, "w").close()
    while True:
        event = await client.read_event()
        if event is None:
            raise RuntimeError("the satellite closed the connection")
        if AudioChunk.is_type(event.type):
            if run.pipeline.is_set():
                run.streamed_chunks += 1
                if run.streamed_chunks == STREAMED_CHUNKS_WANTED:
                    emit({"from": "satellite", "type": "audio-chunk", "count": run.streamed_chunks})
                    # End of speech as Home Assistant reports it.
                    await client.write_event(Transcript(text="").event())
                    return
            continue
        emit({"from": "satellite", "type": event.type, "data": event.data})
        if RunPipeline.is_type(event.type):
            run.pipeline.set()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wake-uri", required=True, help="tcp://HOST:PORT of the wake service under test")
    parser.add_argument("--audio", required=True, help="raw S16_LE 16 kHz mono file for the microphone")
    parser.add_argument("--wake-word-name", action="append", default=[], help="names for the satellite's detect")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before giving up")
    parser.add_argument("--log", help="file for the satellite's own (debug) log")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="ears-satellite-")
    go_file = os.path.join(scratch, "go")
    run = Run()
    satellite = None
    try:
        server = await asyncio.start_server(lambda r, w: event_service(run, r, w), "127.0.0.1", 0)
        event_port = server.sockets[0].getsockname()[1]
        satellite_port = free_port()
        mic = " ".join(shlex.quote(part) for part in
                       ["sh", "-c", WAIT_THEN_PLAY, go_file, args.audio])
        command = [sys.executable, "-m", "wyoming_satellite",
                   "--uri", f"tcp://127.0.0.1:{satellite_port}", "--name", "ears test satellite",
                   "--mic-command", mic, "--wake-uri", args.wake_uri,
                   "--event-uri", f"tcp://127.0.0.1:{event_port}", "--no-zeroconf", "--debug"]
        for name in args.wake_word_name:
            command += ["--wake-word-name", name]
        log = open(args.log, "wb") if args.log else open(os.devnull, "wb")
        satellite = await asyncio.create_subprocess_exec(*command, stdout=log, stderr=log)
        client = await connect(satellite_port, 20)
        try:
            await asyncio.wait_for(asyncio.gather(home_assistant(run, client, go_file), run.detection.wait()),
                                   args.timeout)
        except asyncio.TimeoutError:
            emit({"result": "timeout", "pipeline": run.pipeline.is_set(), "detections": run.detection_names})
            return 2
        # The satellite answers the transcript with a new detect to the wake
        # service; give it a moment so its log shows the loop closing.
        await asyncio.sleep(0.5)
        emit({"result": "detected", "detections": run.detection_names, "streamed_chunks": run.streamed_chunks})
        return 0
    finally:
        if satellite is not None and satellite.returncode is None:
            satellite.terminate()
            try:
                await asyncio.wait_for(satellite.wait(), 5)
            except asyncio.TimeoutError:
                satellite.kill()
                await satellite.wait()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as error:  # setup failures: one line, exit 1
        print(f"satellite_ha: {error}", file=sys.stderr)
        sys.exit(1)
