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
