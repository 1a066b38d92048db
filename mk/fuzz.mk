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
