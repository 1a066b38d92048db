#!/usr/bin/env bash
# make bench: every number in docs/performance.md comes from this script.
# usage: bench/run.sh EARS_BINARY   (results in bench/out/*.md)
set -euo pipefail
ears=$(readlink -f "$1")
cd "$(dirname "$0")"
out=out
mkdir -p "$out"
echo "machine: $(nproc) cores, $(uname -r), $(date -u +%F)" | tee "$out/machine.txt"

# 1. Engine cost: silence, steady noise, continuous speech; load time; peak RSS.
python3 engines.py "$ears" "$out/engines-work" --seconds 120 | tee "$out/engines.md"

# 2. Leaning PocketSphinx toward the phrase: boost off vs on, on a small corpus.
#    The boost only exists in the transcript spotter (the design before the
#    keyphrase spotter became the default), so that is what is measured.
corpus="$out/corpus-bias"
[ -f "$corpus/manifest.json" ] || python3 corpus.py "$corpus" --negative-minutes 3 \
  --voices flite-rms,flite-slt,festival-kal,espeak-us --snrs 10
{
  for boost in 0 1000; do
    python3 evaluate.py "$ears" "$corpus" --label "phrase_boost $boost" -- --spotter transcript --verifier off --phrase-boost "$boost"
    echo
  done
} | tee "$out/bias.md"

# 3. The keyphrase search as a candidate source, on the same voices (clean only).
{
  echo "| pocketsphinx_continuous -kws, threshold | positives found (clean) |"
  echo "|---|---|"
  for threshold in 1e-5 1e-10 1e-20 1e-30 1e-40; do
    hits=0; total=0
    for f in "$corpus"/pos-*-clean.wav; do
      total=$((total + 1))
      if pocketsphinx_continuous -infile "$f" -keyphrase "hey cordelia" -kws_threshold "$threshold" -logfn /dev/null 2>/dev/null | grep -q .; then
        hits=$((hits + 1))
      fi
    done
    echo "| $threshold | $hits/$total |"
  done
} | tee "$out/kws.md"

# 4. Korean on Vosk (espeak-ng voices): grammar vs free decoding.
python3 korean.py "$ears" "$out/korean-work" | tee "$out/korean.md"

# 5. The wake detector against its peers (pocketsphinx -kws, Porcupine, openWakeWord,
#    microWakeWord; `make bench-setup` installs them into .deps/bench/venv, whose
#    python has numpy): writes docs/benchmark.md and docs/benchmark-det.png.
py=../.deps/bench/venv/bin/python
[ -x "$py" ] || { echo "run.sh: $py is missing: run make bench-setup" >&2; exit 1; }
"$py" wake.py "$ears" --doc ../docs/benchmark.md | tee "$out/wake-run.txt"
