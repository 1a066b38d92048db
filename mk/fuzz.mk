# mk/fuzz.mk — libFuzzer targets, included by the Makefile.
#
#   make fuzz                        every target in FUZZ_TARGETS for FUZZ_SECONDS each (default 600)
#   make fuzz-config FUZZ_SECONDS=60 one target
#   make fuzz-smoke                  every target for FUZZ_SMOKE_SECONDS (make test runs this),
#                                    one line of figures each (or a crash report)
#
# A target NAME is built from two lists, and nothing else (so it compiles
# in a minute, not with the whole package):
#   FUZZ_MODULES_NAME  the package's modules it needs (and every module they
#                      import): each is compiled whole (every .swift under
#                      Sources/MODULE) as a static library of its own name, with
#                      the fuzzer's flags, once for all targets
#   FUZZ_HARNESS_NAME  the fuzz/*.swift file defining LLVMFuzzerTestOneInput,
#                      importing those modules as any module of the package does
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
FUZZ_MODULES_config := EarsCore EarsPhonetics EarsConfig
FUZZ_HARNESS_config := fuzz/ConfigParserFuzz.swift
FUZZ_ARGS_config    := -max_len=8192 -dict=fuzz/config.dict

## fuzz-wyoming: WyomingEventReader fed whole, byte by byte and in random pieces, must agree.
FUZZ_MODULES_wyoming := EarsCore EarsPhonetics EarsConfig EarsSystem EarsSocket EarsWyoming
FUZZ_HARNESS_wyoming := fuzz/WyomingEventReaderFuzz.swift
FUZZ_ARGS_wyoming    := -max_len=8192 -dict=fuzz/wyoming.dict

## fuzz-wakemodel: WakeModel.decode (a model that decodes must encode back to the same bytes).
FUZZ_MODULES_wakemodel := EarsCore EarsNeural
FUZZ_HARNESS_wakemodel := fuzz/WakeModelFileFuzz.swift
FUZZ_ARGS_wakemodel    := -max_len=1048576

.PHONY: fuzz fuzz-smoke
# The fuzzers are kept between runs (make would delete a pattern chain's intermediate files).
.PRECIOUS: $(FUZZ_DIR)/%/fuzzer
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

# Each module, whole, as a static library and a module of its own name in
# $(FUZZ_DIR)/modules, built once for every target that needs it, after the
# modules it imports (FUZZ_IMPORTS_MODULE), so a harness imports them as the
# package's modules do.
FUZZ_IMPORTS_EarsCore      :=
FUZZ_IMPORTS_EarsPhonetics := EarsCore
FUZZ_IMPORTS_EarsConfig    := EarsCore EarsPhonetics
FUZZ_IMPORTS_EarsNeural    := EarsCore
FUZZ_IMPORTS_EarsSystem    :=
FUZZ_IMPORTS_EarsSocket    := EarsSystem
FUZZ_IMPORTS_EarsStatus    := EarsSocket
FUZZ_IMPORTS_EarsWyoming   := EarsCore EarsConfig EarsSocket

# One explicit rule per module (a pattern rule cannot chain through itself:
# make refuses implicit-rule recursion from one module's library to another's).
FUZZ_MODULES_ALL := EarsCore EarsPhonetics EarsConfig EarsNeural EarsSystem EarsSocket EarsStatus EarsWyoming
define FUZZ_MODULE_RULE
$(FUZZ_DIR)/modules/lib$(1).a: $(shell find Sources/$(1) -name '*.swift') $(foreach m,$(FUZZ_IMPORTS_$(1)),$(FUZZ_DIR)/modules/lib$(m).a) mk/fuzz.mk
	@mkdir -p $$(@D)
	@echo "fuzz: building $(1) with the fuzzer's flags"
	@$$(FUZZ_SWIFTC) $$(FUZZ_FLAGS) -module-name $(1) -emit-library -static -emit-module \
	  -emit-module-path $$(@D)/$(1).swiftmodule -I $$(@D) $(sort $(shell find Sources/$(1) -name '*.swift')) -o $$@
endef
$(foreach m,$(FUZZ_MODULES_ALL),$(eval $(call FUZZ_MODULE_RULE,$(m))))

$(FUZZ_DIR)/%/fuzzer: $$(foreach m,$$(FUZZ_MODULES_$$*),$(FUZZ_DIR)/modules/lib$$(m).a) $$(FUZZ_HARNESS_$$*)
	$(if $(filter $*,$(FUZZ_TARGETS)),,$(error no fuzz target '$*'; the targets are: $(FUZZ_TARGETS)))
	@# Older rules built each fuzzer as a file where its directory now goes.
	@[ ! -f $(@D) ] || rm -f $(@D)
	@mkdir -p $(@D)
	@echo "fuzz: linking fuzz-$*"
	@$(FUZZ_SWIFTC) $(FUZZ_FLAGS) $(FUZZ_LINK_FLAGS) -module-name Fuzz -I $(FUZZ_DIR)/modules \
	  $(FUZZ_HARNESS_$*) $(foreach m,$(FUZZ_MODULES_$*),$(FUZZ_DIR)/modules/lib$(m).a) -o $@

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
FUZZ_MODULES_http := EarsSystem EarsSocket EarsStatus
FUZZ_HARNESS_http := fuzz/HTTPRequestDecoderFuzz.swift
FUZZ_ARGS_http    := -max_len=12288

## fuzz-pcmstream: PCMStreamHeader (what `ears scan -` reads first), every prefix deciding like the whole.
FUZZ_TARGETS          += pcmstream
FUZZ_MODULES_pcmstream := EarsCore
FUZZ_HARNESS_pcmstream := fuzz/PCMStreamHeaderFuzz.swift
FUZZ_ARGS_pcmstream    := -max_len=4096

## fuzz-wakesession: the Wyoming wake service's conversation (WyomingWakeSession) over any bytes a client sends.
FUZZ_TARGETS            += wakesession
FUZZ_MODULES_wakesession := $(FUZZ_MODULES_wyoming)
FUZZ_HARNESS_wakesession := fuzz/WyomingWakeSessionFuzz.swift
FUZZ_ARGS_wakesession    := -max_len=8192 -dict=fuzz/wyoming.dict
