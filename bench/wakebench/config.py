"""What the benchmark measures: phrases, voices, conditions, systems' keywords, targets."""
from __future__ import annotations

from dataclasses import dataclass

PHRASES = ["hey jarvis", "alexa", "hey mycroft", "okay nabu", "hey cordelia"]
COMMON_PHRASES = ["hey jarvis", "alexa"]  # every system has them

VOICES = ["flite-kal16", "flite-awb", "flite-rms", "flite-slt", "festival-kal", "festival-ked", "festival-slt-hts",
          "espeak-us", "espeak-us-f", "espeak-gb-m"]
# Another engineer fits ears's constants on these; every other voice is held out.
TUNING_VOICES = {"flite-kal16", "flite-awb", "espeak-us"}
QUICK_VOICES = ["flite-awb", "flite-slt", "festival-ked", "espeak-us-f"]
BABBLE_VOICES = ["flite-rms", "flite-slt", "festival-kal", "espeak-gb-f", "espeak-us-f", "flite-awb"]


def voice_split(voice: str) -> str:
    return "tuning" if voice in TUNING_VOICES else "held-out"


def voice_family(voice: str) -> str:
    return "espeak" if voice.startswith("espeak") else "flite+festival"


def voice_engine(voice: str) -> str:
    """"flite-kal16" -> "flite", "festival-ked" -> "festival", "espeak-us" -> "espeak"."""
    return voice.split("-", 1)[0]


@dataclass(frozen=True)
class VoiceSplit:
    """Which voices a configuration was fitted on and which it never heard: recall is
    grouped "held-out" (never heard), "tuning" (fitted or trained on) and "espeak"
    (always apart) by the split of the configuration it is measured for."""
    key: str  # "tuning" (ears's constants fitted on TUNING_VOICES) or "engine" (a whole engine held out)
    held_out_engines: tuple[str, ...] = ()  # for "engine": the engines the model never trained on

    def group(self, voice: str) -> str:
        if voice_family(voice) == "espeak":
            return "espeak"
        if self.key == "engine":
            return "held-out" if voice_engine(voice) in self.held_out_engines else "tuning"
        return voice_split(voice)

    @property
    def held_out_label(self) -> str:
        return (f"{' and '.join(self.held_out_engines) or 'no'} voices" if self.key == "engine"
                else "flite and festival voices other than " + ", ".join(tuning_flite_festival()))

    @property
    def fitted_label(self) -> str:
        return ("the other flite and festival voices (trained on)" if self.key == "engine"
                else ", ".join(tuning_flite_festival()) + " (ears's tuning voices)")

    def to_json(self) -> dict[str, str | list[str]]:
        return dict(key=self.key, held_out_engines=list(self.held_out_engines))

    @staticmethod
    def from_json(d: dict[str, str | list[str]]) -> "VoiceSplit":
        engines = d.get("held_out_engines") or []
        return VoiceSplit(str(d["key"]), tuple(engines) if isinstance(engines, list) else (engines,))


def tuning_flite_festival() -> list[str]:
    """The tuning voices recall's "tuning" group holds (espeak-ng is always apart)."""
    return sorted(v for v in TUNING_VOICES if voice_family(v) != "espeak")


# ears's constants and the peers: fitted (or not at all) on no held-out voice.
TUNING_SPLIT = VoiceSplit("tuning")
# The voice groups recall is reported for, besides "all voices".
VOICE_GROUPS = ["held-out", "tuning", "espeak"]


@dataclass(frozen=True)
class Condition:
    name: str
    label: str
    noise: str  # "none", "pink" or "babble"
    snr_db: float | None = None


CONDITIONS = [
    Condition("clean", "clean", "none"),
    Condition("floor40", "40 dB floor", "pink", 40),
    Condition("pink20", "pink 20 dB", "pink", 20),
    Condition("pink10", "pink 10 dB", "pink", 10),
    Condition("pink5", "pink 5 dB", "pink", 5),
    Condition("babble10", "babble 10 dB", "babble", 10),
]
CONDITION_BY_NAME = {c.name: c for c in CONDITIONS}
NEGATIVE_CONDITIONS = [Condition("clean", "clean", "none"), Condition("pink10", "pink 10 dB", "pink", 10)]
# The threshold sweeps (DET plot) run on these positive streams and on both negative streams.
SWEEP_CONDITIONS = ["clean", "pink10"]

# Each engine's keyword for each phrase it has (a phrase missing here is "n/a" for it).
PORCUPINE_KEYWORDS = {"hey jarvis": "jarvis", "alexa": "alexa"}
OWW_KEYWORDS = {"hey jarvis": "hey_jarvis", "alexa": "alexa", "hey mycroft": "hey_mycroft"}
MICRO_KEYWORDS = {"hey jarvis": "hey_jarvis", "alexa": "alexa", "hey mycroft": "hey_mycroft", "okay nabu": "okay_nabu"}

# ears decides with its verifier's calibrated score, so that is what the sweep moves.
EARS_SWEEP_FLAG = "--verifier-threshold"
EARS_SWEEP = ["0.2", "0.8"]
# The design before issue 10 (transcript + text match, no noise front end), run
# beside the default so "before" and "after" come from one run.
EARS_TRANSCRIPT_ARGS = ["--spotter", "transcript", "--verifier", "off", "--noise-suppression", "off"]
EARS_TRANSCRIPT_SWEEP_FLAG = "--threshold"
KWS_DEFAULT = "1e-20"
KWS_SWEEP = ["1e-10", "1e-30"]
PORCUPINE_SWEEP = ["0.3", "0.7"]  # sensitivities; default 0.5
OWW_SWEEP = ["0.3", "0.7"]  # default 0.5
MICRO_SWEEP = ["0.5", "0.8"]  # default: each model's own cutoff (0.85 to 0.97)

REFRACTORY_S = 2.0


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    op: str  # ">=" or "<="
    goal: float
    unit: str  # "pct", "rate", "s", "ratio", "mb"


TARGETS = [
    Target("recall_clean", "recall, clean (held-out voices)", ">=", 0.97, "pct"),
    Target("recall_pink10", "recall, pink 10 dB (held-out voices)", ">=", 0.75, "pct"),
    Target("recall_pink5", "recall, pink 5 dB (held-out voices)", ">=", 0.50, "pct"),
    Target("fa_clean", "false wakes per hour, clean speech", "<=", 0.5, "rate"),
    Target("fa_pink10", "false wakes per hour, speech in pink 10 dB", "<=", 0.5, "rate"),
    Target("soundalikes", "written sound-alike sentences that wake", "<=", 0.05, "pct"),
    Target("recall_espeak_clean", "recall, espeak voices, clean", ">=", 0.50, "pct"),
    Target("cpu", "CPU s per audio s", "<=", 0.06, "ratio"),
    Target("latency_p95", "wake latency p95 after the phrase (s)", "<=", 0.5, "s"),
    Target("rss", "peak RSS (MB)", "<=", 200, "mb"),
]

# The ears configuration that listens with a model per phrase (bench/wakebench/training.py).
TRAINED_LABEL = "ears trained"

# Issue 11's targets for ears with a trained model per phrase (held-out voices: the
# engine its models never trained on, festival).
TRAINED_TARGETS = [
    Target("recall_clean", "recall, clean (held-out voices)", ">=", 0.97, "pct"),
    Target("recall_pink10", "recall, pink 10 dB (held-out voices)", ">=", 0.88, "pct"),
    Target("recall_pink5", "recall, pink 5 dB (held-out voices)", ">=", 0.75, "pct"),
    Target("fa_clean", "false wakes per hour, clean speech", "<=", 0.5, "rate"),
    Target("fa_pink10", "false wakes per hour, speech in pink 10 dB", "<=", 0.5, "rate"),
    Target("soundalikes", "written sound-alike sentences that wake", "<=", 0.02, "pct"),
    Target("cpu", "CPU s per audio s", "<=", 0.03, "ratio"),
    Target("training_s", "training time per phrase (longest; wall)", "<=", 600, "s"),
]
