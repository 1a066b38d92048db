# mk/fuzz.mk — libFuzzer targets, included by the Makefile. Not part of make test.
#
#   make fuzz-wakemodel                  fuzz the trained-model file reader for FUZZ_SECONDS
#   make fuzz-wakemodel FUZZ_SECONDS=600
#
# The target is compiled together with EarsCore's sources (swiftc
# -sanitize=fuzzer,address); its corpus starts from real model files when
# any are given in FUZZ_SEEDS (a directory of .wakemodel files).

FUZZ_SECONDS ?= 60
FUZZ_DIR     ?= $(BUILD_DIR)/fuzz
FUZZ_SEEDS   ?=

.PHONY: fuzz-wakemodel

$(FUZZ_DIR)/wakemodel: fuzz/WakeModelFileFuzz.swift $(shell find Sources/EarsCore -name '*.swift')
	@mkdir -p $(FUZZ_DIR)
	swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name EarsCoreFuzz -package-name ears \
	  $(shell find Sources/EarsCore -name '*.swift') fuzz/WakeModelFileFuzz.swift -o $@

## fuzz-wakemodel: libFuzzer over WakeModel.decode for FUZZ_SECONDS (default 60).
fuzz-wakemodel: $(FUZZ_DIR)/wakemodel
	@mkdir -p $(FUZZ_DIR)/wakemodel-corpus
	$(if $(FUZZ_SEEDS),cp $(FUZZ_SEEDS)/*.wakemodel $(FUZZ_DIR)/wakemodel-corpus/ 2>/dev/null || true,)
	$(FUZZ_DIR)/wakemodel -max_total_time=$(FUZZ_SECONDS) -max_len=1048576 $(FUZZ_DIR)/wakemodel-corpus

# --- fuzz-http: the status server's request decoder -------------------------
# Self-contained (its own variables), so it survives a restructuring of the
# rules above. Compiled from the two pure files the decoder needs, nothing
# else; the seed corpus in fuzz/corpus/http/ holds a few real requests and is
# copied into a scratch corpus so the run never writes into the repo.
#
#   make fuzz-http                   fuzz for FUZZ_HTTP_SECONDS (default 60)
#   make fuzz-http FUZZ_HTTP_SECONDS=600

FUZZ_HTTP_SECONDS ?= $(or $(FUZZ_SECONDS),60)
FUZZ_HTTP_DIR     ?= $(or $(BUILD_DIR),.build)/fuzz
FUZZ_HTTP_SOURCES := Sources/EarsStatus/HTTPMessage.swift Sources/EarsStatus/HTTPRequestDecoder.swift

.PHONY: fuzz-http

$(FUZZ_HTTP_DIR)/http: fuzz/HTTPRequestDecoderFuzz.swift $(FUZZ_HTTP_SOURCES)
	@mkdir -p $(FUZZ_HTTP_DIR)
	swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name EarsStatusFuzz -package-name ears \
	  $(FUZZ_HTTP_SOURCES) fuzz/HTTPRequestDecoderFuzz.swift -o $@

## fuzz-http: libFuzzer over HTTPRequestDecoder (whole, split in three, byte by byte) for FUZZ_HTTP_SECONDS.
fuzz-http: $(FUZZ_HTTP_DIR)/http
	@mkdir -p $(FUZZ_HTTP_DIR)/http-corpus
	cp fuzz/corpus/http/* $(FUZZ_HTTP_DIR)/http-corpus/
	$(FUZZ_HTTP_DIR)/http -max_total_time=$(FUZZ_HTTP_SECONDS) -max_len=12288 $(FUZZ_HTTP_DIR)/http-corpus
