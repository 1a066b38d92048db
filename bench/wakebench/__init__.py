"""The wake benchmark, split by role: config (what is measured), corpus (what
audio), streams (the audio joined as a microphone gives it), runners (ears,
PocketSphinx kws, the peer engines), scoring, report. bench/wake.py is the entry."""
