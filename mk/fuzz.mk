# mk/fuzz.mk — libFuzzer targets, included by the Makefile.
#
#   make fuzz                        every target in FUZZ_TARGETS for FUZZ_SECONDS each (default 600)
#   make fuzz-config FUZZ_SECONDS=60 one target
#   make fuzz-smoke                  every target for FUZZ_SMOKE_SECONDS (make test runs this),
#                                    one line of figures each (or a crash report)
#
# A target NAME is built from three lists, and nothing else (so it compiles
# in seconds, not with the whole package):
#   FUZZ_CORE_NAME     EarsCore files it needs, compiled as a module named EarsCore (may be empty)
#   FUZZ_SOURCES_NAME  files of another module (e.g. EarsWyoming), compiled with the harness
#   FUZZ_HARNESS_NAME  the fuzz/*.swift file defining LLVMFuzzerTestOneInput
# and run with FUZZ_ARGS_NAME (libFuzzer flags) over the committed seeds in
# fuzz/corpus/NAME. New inputs go to $(FUZZ_DIR)/NAME/corpus, never into the
# repository; a crash is written to $(FUZZ_DIR)/NAME/crash-* and fails make.
# To add a target: append NAME to FUZZ_TARGETS and set its variables (in a
# block of its own at the end of this file).

FUZZ_SECONDS       ?= 600
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_DIR           ?= $(BUILD_DIR)/fuzz
# Extra seeds for every target run, e.g. FUZZ_SEEDS=/var/lib/ears/phrases for fuzz-wakemodel.
FUZZ_SEEDS         ?=
FUZZ_SWIFTC        ?= swiftc
FUZZ_FLAGS         := -sanitize=fuzzer,address -O -parse-as-library -package-name ears
# The toolchain's lld: gold warns about every AddressSanitizer assembly symbol.
FUZZ_LINK_FLAGS    := -use-ld=lld

FUZZ_TARGETS := config wyoming wakemodel

## fuzz-config: ConfigParser over arbitrary bytes (errors stay one short line; CRLF reads like LF).
FUZZ_CORE_config    := $(addprefix Sources/EarsCore/, \
    Config/ConfigParser.swift Config/EarsConfig.swift Config/ConfigLines.swift Config/PhraseLimits.swift \
    Config/LocatedConfig.swift Config/ServiceURI.swift Audio/AudioFormat.swift Capture/CaptureStateMachine.swift Transcriber/Transcriber.swift \
    Verify/VerifierWeights.swift Wake/ARPAbet.swift Wake/Hangul.swift Wake/LetterMatcher.swift Wake/LetterScorer.swift \
    Wake/LetterToSoundPronouncer.swift Wake/PhoneticCost.swift Wake/PhoneticMatcher.swift Wake/PhoneticScorer.swift \
    Wake/PhoneticSpeller.swift Wake/PhraseScorer.swift Wake/Pronouncer.swift Wake/Sound.swift Wake/SoundCosts.swift \
    Wake/SoundSequence.swift Wake/TextNormalizer.swift Wake/WakeDetector.swift Wake/WakeEvent.swift Wake/WakePhrase.swift)
FUZZ_SOURCES_config :=
FUZZ_HARNESS_config := fuzz/ConfigParserFuzz.swift
FUZZ_ARGS_config    := -max_len=8192 -dict=fuzz/config.dict

## fuzz-wyoming: WyomingEventReader fed whole, byte by byte and in random pieces, must agree.
FUZZ_CORE_wyoming    := $(addprefix Sources/EarsCore/, \
    Audio/AudioFormat.swift Audio/MicrophoneLifecycle.swift Meter/EarMeter.swift Meter/StatusReport.swift \
    Meter/RemoteMeter.swift Meter/PrometheusExposition.swift Support/JSONValue.swift Support/JSONText.swift)
FUZZ_SOURCES_wyoming := $(addprefix Sources/EarsWyoming/, WyomingEvent.swift WyomingEventReader.swift)
FUZZ_HARNESS_wyoming := fuzz/WyomingEventReaderFuzz.swift
FUZZ_ARGS_wyoming    := -max_len=8192 -dict=fuzz/wyoming.dict

## fuzz-wakemodel: WakeModel.decode (a model that decodes must encode back to the same bytes).
FUZZ_CORE_wakemodel    := $(addprefix Sources/EarsCore/, \
    Neural/NeuralKernels.swift Neural/WakeHead.swift Neural/WakeModel.swift Neural/WakeModelFile.swift \
    Support/SeededGenerator.swift)
FUZZ_SOURCES_wakemodel :=
FUZZ_HARNESS_wakemodel := fuzz/WakeModelFileFuzz.swift
FUZZ_ARGS_wakemodel    := -max_len=1048576

.PHONY: fuzz fuzz-smoke
# The fuzzers are kept between runs (make would delete a pattern chain's intermediate files).
.PRECIOUS: $(FUZZ_DIR)/%/libEarsCore.a $(FUZZ_DIR)/%/fuzzer
# Second expansion: targets appended to FUZZ_TARGETS further down this file still count.
.SECONDEXPANSION:

## fuzz: every fuzz target for FUZZ_SECONDS each; any crash fails.
# Then writes every target's last run into docs/testing.md (bench/fuzz_report.py).
fuzz: $$(addprefix fuzz-,$$(FUZZ_TARGETS))
	python3 bench/fuzz_report.py --dir $(FUZZ_DIR) --doc docs/testing.md --command "make fuzz FUZZ_SECONDS=$(FUZZ_SECONDS)" $(FUZZ_TARGETS)

## fuzz-smoke: every fuzz target for FUZZ_SMOKE_SECONDS (part of make test), one
## line of figures each; the first failure stops it.
fuzz-smoke: $$(addprefix fuzz-smoke-,$$(FUZZ_TARGETS))
	@echo "fuzz-smoke: $(words $(FUZZ_TARGETS)) targets, no crash; libFuzzer's whole output: $(FUZZ_DIR)/NAME/smoke.log"

# The EarsCore slice, as a module of that name, so the harness and other
# modules' files keep their `import EarsCore`.
$(FUZZ_DIR)/%/libEarsCore.a: $$(FUZZ_CORE_$$*) mk/fuzz.mk
	$(if $(filter $*,$(FUZZ_TARGETS)),,$(error no fuzz target '$*'; the targets are: $(FUZZ_TARGETS)))
	@# Older rules built each fuzzer as a file where its directory now goes.
	@[ ! -f $(@D) ] || rm -f $(@D)
	@mkdir -p $(@D)
	$(if $(FUZZ_CORE_$*),,@echo '// This target needs no EarsCore file.' > $(@D)/NoCore.swift)
	$(FUZZ_SWIFTC) $(FUZZ_FLAGS) -module-name EarsCore -emit-library -static -emit-module \
	  -emit-module-path $(@D)/EarsCore.swiftmodule $(or $(FUZZ_CORE_$*),$(@D)/NoCore.swift) -o $@

$(FUZZ_DIR)/%/fuzzer: $(FUZZ_DIR)/%/libEarsCore.a $$(FUZZ_SOURCES_$$*) $$(FUZZ_HARNESS_$$*)
	$(FUZZ_SWIFTC) $(FUZZ_FLAGS) $(FUZZ_LINK_FLAGS) -module-name Fuzz -I $(@D) \
	  $(FUZZ_SOURCES_$*) $(FUZZ_HARNESS_$*) $< -o $@

# What every run of target NAME ($*) is given after its -max_total_time.
FUZZ_RUN_ARGS = -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/$*/ \
  $(FUZZ_ARGS_$*) $(FUZZ_DIR)/$*/corpus fuzz/corpus/$* $(FUZZ_SEEDS)

# Runs one target; libFuzzer exits non-zero on a crash, a leak or a timeout.
# Its output is also kept in $(FUZZ_DIR)/NAME/last-run.txt (libFuzzer's
# statistics, never an input) for bench/fuzz_report.py; pipefail keeps a crash's status.
fuzz-%: SHELL := /bin/bash
fuzz-%: $(FUZZ_DIR)/%/fuzzer
	@mkdir -p $(FUZZ_DIR)/$*/corpus
	set -o pipefail; $< -max_total_time=$(FUZZ_SECONDS) $(FUZZ_RUN_ARGS) 2>&1 | tee $(FUZZ_DIR)/$*/last-run.txt

# The same for FUZZ_SMOKE_SECONDS, quietly: libFuzzer's output goes to
# $(FUZZ_DIR)/NAME/smoke.log (last-run.txt stays the last long run's), and
# mk/fuzz_summary.py prints one line of figures from it, or on a failure the
# report from the log and where the input went, and fails.
fuzz-smoke-%: $(FUZZ_DIR)/%/fuzzer
	@mkdir -p $(FUZZ_DIR)/$*/corpus
	@$< -max_total_time=$(FUZZ_SMOKE_SECONDS) $(FUZZ_RUN_ARGS) > $(FUZZ_DIR)/$*/smoke.log 2>&1; \
	  python3 mk/fuzz_summary.py --name $* --status $$? --log $(FUZZ_DIR)/$*/smoke.log

## fuzz-http: the status server's HTTPRequestDecoder, fed whole, split in three and byte by byte, must agree.
FUZZ_TARGETS     += http
FUZZ_CORE_http    :=
FUZZ_SOURCES_http := Sources/EarsStatus/HTTPRequest.swift Sources/EarsStatus/HTTPResponse.swift Sources/EarsStatus/HTTPSyntax.swift Sources/EarsStatus/HTTPRequestDecoder.swift
FUZZ_HARNESS_http := fuzz/HTTPRequestDecoderFuzz.swift
FUZZ_ARGS_http    := -max_len=12288

## fuzz-pcmstream: PCMStreamHeader (what `ears scan -` reads first), every prefix deciding like the whole.
FUZZ_TARGETS          += pcmstream
FUZZ_CORE_pcmstream    := Sources/EarsCore/Audio/AudioFormat.swift Sources/EarsCore/Audio/PCMStreamHeader.swift
FUZZ_SOURCES_pcmstream :=
FUZZ_HARNESS_pcmstream := fuzz/PCMStreamHeaderFuzz.swift
FUZZ_ARGS_pcmstream    := -max_len=4096

## fuzz-wakesession: the Wyoming wake service's conversation (WyomingWakeSession) over any bytes a client sends.
FUZZ_TARGETS            += wakesession
FUZZ_CORE_wakesession    := $(FUZZ_CORE_wyoming)
FUZZ_SOURCES_wakesession := $(addprefix Sources/EarsWyoming/, \
    WyomingEvent.swift WyomingEventReader.swift WyomingWakeSession.swift RemoteWakeListener.swift)
FUZZ_HARNESS_wakesession := fuzz/WyomingWakeSessionFuzz.swift
FUZZ_ARGS_wakesession    := -max_len=8192 -dict=fuzz/wyoming.dict
