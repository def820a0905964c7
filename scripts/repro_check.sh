#!/usr/bin/env bash
# make repro-check: regenerate every notebook, table and figure under several forced CPU-kernel settings, with
# empty caches, and compare each output with the committed one (identical / within tolerance / different);
# then run `make test` under the same setting. Stands in, on one machine, for other machines:
#   x86-64-v3        the Makefile's pins (AVX2+FMA paths), which made the committed outputs: must be identical
#   x86-64-v3-1cpu   the same pins on one CPU (taskset): another core count must change nothing either
#   native           no pins: this CPU's own paths (AVX-512 here): another x86 kernel, within tolerance
#   x86-64-v2        SSE4.2-only BLAS, numpy baseline, torch's scalar kernels, MKL compatible mode, numba
#                    generic: an emulated foreign machine, within tolerance
# The committed outputs are restored after each setting; it refuses to start if they have uncommitted changes.
# SETTINGS="x86-64-v2" make repro-check runs a subset. Reports: build/repro/<setting>/{compare.csv,*.log}.
set -uo pipefail
cd "$(dirname "$0")/.."
OUTPUTS=(results figures notebooks)
if [ -n "$(git status --porcelain -- "${OUTPUTS[@]}")" ]; then
  echo "repro-check: results/, figures/ or notebooks/ have uncommitted changes; commit or stash them first" >&2
  exit 2
fi
SETTINGS=${SETTINGS:-"x86-64-v3 x86-64-v3-1cpu native x86-64-v2"}
summary=()
status=0
for setting in $SETTINGS; do
  kernels=${setting%-1cpu}
  prefix=()
  [ "$setting" != "$kernels" ] && prefix=(taskset -c 0)
  dir=build/repro/$setting
  rm -rf "$dir" && mkdir -p "$dir"
  export WORDBIAS_CACHE=$PWD/$dir/cache NUMBA_CACHE_DIR=$PWD/$dir/numba
  echo "== repro-check: $setting (KERNELS=$kernels${prefix:+, one CPU})"
  touch notebooks/src/*.ipynb notebooks/lessons/src/*.ipynb
  start=$(date +%s)
  "${prefix[@]}" make --no-print-directory all KERNELS="$kernels" > "$dir/make.log" 2>&1; made=$?
  grep '^make: notebooks' "$dir/make.log"
  t_make=$(( $(date +%s) - start ))
  .venv/bin/python -m tools.repro compare --report "$dir/compare.csv" > "$dir/compare.log" 2>&1; compared=$?
  tail -n 1 "$dir/compare.log"
  start=$(date +%s)
  "${prefix[@]}" make --no-print-directory test KERNELS="$kernels" > "$dir/test.log" 2>&1; tested=$?
  t_test=$(( $(date +%s) - start ))
  grep -E '^[0-9]+ passed|passed|failed' "$dir/test.log" | tail -n 3
  summary+=("$(printf '%-16s make %s (%ss)  compare: %s  make test %s (%ss)' "$setting" \
    "$([ $made = 0 ] && echo ok || echo FAILED)" "$t_make" "$(tail -n 1 "$dir/compare.log")" \
    "$([ $tested = 0 ] && echo ok || echo FAILED)" "$t_test")")
  { [ $made = 0 ] && [ $compared = 0 ] && [ $tested = 0 ]; } || status=1
  if [ "$kernels" = x86-64-v3 ] && grep -q 'within tolerance\|different' "$dir/compare.csv"; then
    echo "repro-check: the pinned setting must reproduce every output identically" >&2
    grep -v ',identical,' "$dir/compare.csv" | head -n 20 >&2
    status=1
  fi
  tar -cf "$dir/outputs.tar" "${OUTPUTS[@]}"   # to compare again later: tar -xf it, then make check-results
  git checkout -q -- "${OUTPUTS[@]}" && git clean -fdq -- "${OUTPUTS[@]}"
done
echo "== repro-check summary"
printf '%s\n' "${summary[@]}" | tee build/repro/summary.txt
exit $status
