"""The soak: ears listening for an hour of speech on a file-backed ALSA mic (make soak)."""
