"""One Wyoming wake session as a satellite runs it, timed, on the PyPI `wyoming` client.

detect (names), audio-start, the clip as 1024-sample audio-chunks, audio-stop;
then reads until the server closes, says not-detected, or is quiet for
QUIET_SECONDS. Paced, chunk k (covering samples [k*1024, (k+1)*1024)) is
sent when its last sample would have been captured, as a microphone does;
unpaced, chunks go as fast as the server takes them (TCP back-pressure).
The package comes from the repository's .deps/wyoming (`make wyoming-setup`).
"""
from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

_DEPS = Path(__file__).resolve().parent.parent.parent / ".deps" / "wyoming"
if _DEPS.is_dir() and str(_DEPS) not in sys.path:
    sys.path.insert(0, str(_DEPS))

from wyoming.audio import AudioChunk, AudioStart, AudioStop  # noqa: E402
from wyoming.client import AsyncClient  # noqa: E402
from wyoming.wake import Detect, Detection, NotDetected  # noqa: E402

RATE, WIDTH, CHANNELS = 16000, 2, 1
SAMPLES_PER_CHUNK = 1024  # wyoming-satellite's default microphone chunk
QUIET_SECONDS = 1.0  # after audio-stop: no event for this long ends the session
SESSION_TIMEOUT_SECONDS = 120.0
BUSY_RETRIES = 100
BUSY_RETRY_SECONDS = 0.1


@dataclass
class SessionResult:
    """What one session heard, with times on time.monotonic()."""

    detections: list[str] = field(default_factory=list)
    detection_times: list[float] = field(default_factory=list)
    phrase_sent_at: float | None = None  # when the chunk holding the phrase's last sample was written
    audio_seconds: float = 0.0
    busy: bool = False  # the server refused the connection: all its streams were taken
    busy_retries: int = 0

    @property
    def latency_seconds(self) -> float | None:
        """First detection after the end of the phrase was sent (calls only)."""
        if self.phrase_sent_at is None or not self.detection_times:
            return None
        return self.detection_times[0] - self.phrase_sent_at


class _Reader:
    """Reads every event of the session in one task (never cancelled
    mid-event), noting when the last one came."""

    def __init__(self, client: AsyncClient, result: SessionResult) -> None:
        self.client = client
        self.result = result
        self.last_at = time.monotonic()
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        """Until the server closes or says not-detected."""
        while True:
            try:
                event = await self.client.read_event()
            except ConnectionError:
                return
            self.last_at = time.monotonic()
            if event is None or NotDetected.is_type(event.type):
                return
            if event.type == "error" and (event.data or {}).get("code") == "busy":
                self.result.busy = True
                return
            if Detection.is_type(event.type):
                self.result.detection_times.append(self.last_at)
                self.result.detections.append(Detection.from_event(event).name or "")

    async def until_done_or_quiet(self) -> None:
        """Returns when the reader ends, or QUIET_SECONDS after the last event
        (or now) pass without one: openwakeword keeps a connection that
        detected open after audio-stop."""
        self.last_at = max(self.last_at, time.monotonic())
        while not self.task.done():
            if time.monotonic() - self.last_at > QUIET_SECONDS:
                self.task.cancel()
                return
            await asyncio.sleep(0.05)
        self.task.result()


async def _session(uri: str, pcm: bytes, names: list[str], paced: bool, phrase_end_seconds: float | None) -> SessionResult:
    result = SessionResult(audio_seconds=len(pcm) / (RATE * WIDTH * CHANNELS))
    step = SAMPLES_PER_CHUNK * WIDTH * CHANNELS
    phrase_end_byte = None if phrase_end_seconds is None else int(phrase_end_seconds * RATE) * WIDTH
    client = AsyncClient.from_uri(uri)
    await client.connect()
    try:
        reader = _Reader(client, result)
        await client.write_event(Detect(names=names).event())
        await client.write_event(AudioStart(rate=RATE, width=WIDTH, channels=CHANNELS, timestamp=0).event())
        started = time.monotonic()
        for offset in range(0, len(pcm), step):
            if result.busy:
                return result
            end = min(offset + step, len(pcm))
            if paced:
                delay = started + end / (RATE * WIDTH) - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            milliseconds = offset * 1000 // (RATE * WIDTH)
            await client.write_event(AudioChunk(rate=RATE, width=WIDTH, channels=CHANNELS, audio=pcm[offset:end],
                                                timestamp=milliseconds).event())
            if phrase_end_byte is not None and result.phrase_sent_at is None and end >= phrase_end_byte:
                result.phrase_sent_at = time.monotonic()
        await client.write_event(AudioStop(timestamp=len(pcm) * 1000 // (RATE * WIDTH)).event())
        await reader.until_done_or_quiet()
    finally:
        try:
            await client.disconnect()
        except ConnectionError:
            pass  # the server closed first: nothing left to say
    return result


async def _session_or_busy(uri: str, pcm: bytes, names: list[str], paced: bool,
                           phrase_end_seconds: float | None) -> SessionResult:
    """A session, or a result marked busy when the server refused it (the
    refusal may reach us as a closed connection while we write)."""
    try:
        return await _session(uri, pcm, names, paced, phrase_end_seconds)
    except ConnectionError:
        return SessionResult(busy=True)


def stream(uri: str, pcm: bytes, names: list[str], paced: bool, phrase_end_seconds: float | None = None) -> SessionResult:
    """Runs one session to completion (in its own event loop: callable from any
    thread). A refused connection is retried after BUSY_RETRY_SECONDS, as a
    satellite reconnects: ears counts a stream until it has seen its close, so
    a client that starts the next session at once can find every stream taken."""
    for retry in range(BUSY_RETRIES):
        result = asyncio.run(asyncio.wait_for(_session_or_busy(uri, pcm, names, paced, phrase_end_seconds),
                                              SESSION_TIMEOUT_SECONDS * 2))
        if not result.busy:
            result.busy_retries = retry
            return result
        time.sleep(BUSY_RETRY_SECONDS)
    raise RuntimeError(f"{uri} refused {BUSY_RETRIES} connections in a row as busy")
