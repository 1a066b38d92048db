"""Peer wake-word engines run over one continuous 16 kHz mono S16 stream.

Each module here wraps one engine (Porcupine 1.9.5, openWakeWord 0.5.1's v0.1
models, microWakeWord 2.5.0) behind the same command line (see common.main):
read the WAV as a microphone would deliver it, in the engine's own frame size,
keep the engine's state across the whole file, and print the detections as JSON.
They run in the bench virtualenv (.deps/bench/venv, made by `make bench-setup`).
"""
