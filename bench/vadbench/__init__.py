"""bench/vad.py's parts: the speech gates it measures (gates.py)."""
