# mk/soak.mk — the soak, included by the Makefile. Not part of make test.
#
#   make soak                      an hour of speech on a file-backed ALSA mic (an hour of wall time)
#   make soak SOAK_ARGS='--audio-minutes 10 --warmup-minutes 2'
#
# bench/soak.py needs only python3, flite, espeak-ng and sox (all from make setup).
# It writes its figures into docs/operations.md with the command that measured them.

SOAK_ARGS ?=

.PHONY: soak

## soak: ears listening for an hour: every call heard, RSS slope < 1 kB/min, descriptors flat.
soak: release
	python3 bench/soak.py $(BUILD_DIR)/release/ears --doc docs/operations.md $(SOAK_ARGS)

.PHONY: bench-beside-training

## bench-beside-training: the listening path alone, then beside a background training
## (auto_train of a second phrase): calls heard, wake latency p50/p95, dropped chunks,
## CPU; 2 × 6 min of real time. Writes docs/operations.md. BESIDE_ARGS='--audio-minutes 10'.
bench-beside-training: release
	python3 bench/beside_training.py $(BUILD_DIR)/release/ears --doc docs/operations.md $(BESIDE_ARGS)
