# mk/wyoming.mk — the Python `wyoming` package for the listen-socket tests,
# included by the Makefile.
#
# ears speaks the Wyoming protocol itself (Sources/EarsWyoming); nothing here
# is needed to build or run it. The integration tests check that the real
# Python implementation, the one Home Assistant and Rhasspy use, understands
# ears: Tests/EarsIntegrationTests/Support/wyoming_client.py imports it from
# .deps/wyoming. It is unpacked with pip's --target into that project-local
# prefix, so the system Python is never touched. The pinned version is the
# one EarsWyoming was checked against (WyomingEvent.protocolVersion); the
# package is pure Python and needs nothing else at run time.

PYTHON           ?= python3
WYOMING_PREFIX   ?= .deps/wyoming
WYOMING_VERSION  ?= 1.10.2
WYOMING_STAMP    := $(WYOMING_PREFIX)/wyoming-$(WYOMING_VERSION).dist-info/METADATA

.PHONY: wyoming-setup

## wyoming-setup: install the pinned Python wyoming package into .deps/wyoming (only when missing).
# The dist-info directory names the version, so a different pin reinstalls.
# The prefix holds nothing else, so it is emptied first: pip --target would
# otherwise keep the old version's dist-info beside the new one. --no-deps
# skips the optional extras (zeroconf, Flask), which the tests never import.
wyoming-setup:
	@if [ -f "$(WYOMING_STAMP)" ] && [ -f "$(WYOMING_PREFIX)/wyoming/event.py" ]; then \
	  echo "wyoming-setup: wyoming $(WYOMING_VERSION) is present in $(WYOMING_PREFIX)"; \
	else \
	  echo "wyoming-setup: installing wyoming==$(WYOMING_VERSION) into $(WYOMING_PREFIX)"; \
	  rm -rf "$(WYOMING_PREFIX)" && mkdir -p "$(WYOMING_PREFIX)" && \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --no-compile \
	    --target "$(WYOMING_PREFIX)" wyoming==$(WYOMING_VERSION) && \
	  test -f "$(WYOMING_STAMP)" && test -f "$(WYOMING_PREFIX)/wyoming/event.py" || \
	  { echo "wyoming-setup: the install did not produce $(WYOMING_STAMP)" >&2; exit 1; }; \
	fi

# ---------------------------------------------------------------------------
# The real peers: wyoming-satellite and wyoming-openwakeword from PyPI, for
# the tests that put ears where Home Assistant puts a wake service
# (Tests/EarsIntegrationTests/WyomingSatelliteTests.swift,
# WyomingDifferentialTests.swift). Each gets its own virtual environment
# because they pin different `wyoming` versions (satellite 1.0.0 wants
# wyoming==1.4.1, zeroconf and pyring-buffer; openwakeword 1.8.2 wants
# wyoming==1.2.0 and tflite-runtime-nightly). tflite-runtime's wheels are
# built against numpy 1.x: with numpy 2 every Interpreter fails with
# "returned a result with an exception set", so numpy is pinned below 2.
# The versions below are the ones the tests were run against on Python 3.11.
SATELLITE_VENV          ?= .deps/wyoming-satellite
SATELLITE_VERSION       ?= 1.0.0
OPENWAKEWORD_VENV       ?= .deps/wyoming-openwakeword
WYOMING_OWW_VERSION     ?= 1.8.2
OWW_TFLITE_SPEC         ?= tflite-runtime-nightly==2.20.0.dev20250409
OWW_NUMPY_SPEC          ?= numpy==1.26.4
SATELLITE_STAMP         := $(SATELLITE_VENV)/wyoming-satellite-$(SATELLITE_VERSION).stamp
OPENWAKEWORD_STAMP      := $(OPENWAKEWORD_VENV)/wyoming-openwakeword-$(WYOMING_OWW_VERSION).stamp

.PHONY: wyoming-peers-setup

## wyoming-peers-setup: install wyoming-satellite and wyoming-openwakeword into their own venvs under .deps (only when missing).
# A stamp named after the version is written only after the package imports,
# so a half-finished install or a different pin starts again from an empty venv.
wyoming-peers-setup:
	@if [ -f "$(SATELLITE_STAMP)" ]; then \
	  echo "wyoming-peers-setup: wyoming-satellite $(SATELLITE_VERSION) is present in $(SATELLITE_VENV)"; \
	else \
	  echo "wyoming-peers-setup: installing wyoming-satellite==$(SATELLITE_VERSION) into $(SATELLITE_VENV)"; \
	  rm -rf "$(SATELLITE_VENV)" && $(PYTHON) -m venv "$(SATELLITE_VENV)" && \
	  "$(SATELLITE_VENV)/bin/pip" install --quiet --disable-pip-version-check wyoming-satellite==$(SATELLITE_VERSION) && \
	  "$(SATELLITE_VENV)/bin/python" -c "import wyoming_satellite.satellite" && touch "$(SATELLITE_STAMP)" || \
	  { echo "wyoming-peers-setup: wyoming-satellite did not install into $(SATELLITE_VENV)" >&2; exit 1; }; \
	fi
	@if [ -f "$(OPENWAKEWORD_STAMP)" ]; then \
	  echo "wyoming-peers-setup: wyoming-openwakeword $(WYOMING_OWW_VERSION) is present in $(OPENWAKEWORD_VENV)"; \
	else \
	  echo "wyoming-peers-setup: installing wyoming-openwakeword==$(WYOMING_OWW_VERSION), $(OWW_TFLITE_SPEC) and $(OWW_NUMPY_SPEC) into $(OPENWAKEWORD_VENV)"; \
	  rm -rf "$(OPENWAKEWORD_VENV)" && $(PYTHON) -m venv "$(OPENWAKEWORD_VENV)" && \
	  "$(OPENWAKEWORD_VENV)/bin/pip" install --quiet --disable-pip-version-check \
	    wyoming-openwakeword==$(WYOMING_OWW_VERSION) "$(OWW_TFLITE_SPEC)" "$(OWW_NUMPY_SPEC)" && \
	  "$(OPENWAKEWORD_VENV)/bin/python" -c "import tflite_runtime.interpreter, wyoming_openwakeword.handler" && \
	  touch "$(OPENWAKEWORD_STAMP)" || \
	  { echo "wyoming-peers-setup: wyoming-openwakeword did not install into $(OPENWAKEWORD_VENV)" >&2; exit 1; }; \
	fi
