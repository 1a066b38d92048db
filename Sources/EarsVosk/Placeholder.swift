// The Vosk engine lives here.
