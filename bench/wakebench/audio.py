"""16 kHz mono S16 WAV in and out, as float arrays (full scale = 1.0)."""
from __future__ import annotations

import wave

import numpy as np

RATE = 16000


def read_wav(path: str) -> np.ndarray:
    with wave.open(path, "rb") as w:
        if (w.getnchannels(), w.getsampwidth(), w.getframerate()) != (1, 2, RATE):
            raise ValueError(f"{path}: not 16 kHz mono S16")
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0


def write_wav(path: str, samples: np.ndarray) -> None:
    data = np.clip(np.round(samples * 32768.0), -32768, 32767).astype("<i2")
    with wave.open(path + ".tmp", "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data.tobytes())
    import os
    os.replace(path + ".tmp", path)


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) if len(x) else 0.0
