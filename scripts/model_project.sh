#!/usr/bin/env bash
# The model project of the teaching unit (docs/project.md), done with the project's own commands on a corpus that no
# notebook uses: the State of the Union addresses, 1945-2006 (data/corpora/state_union.zip, 65 addresses, 347,025
# tokens). It writes the tables and the two figures that docs/teacher/model_report.md cites into
# docs/teacher/model_report/ (its input, the project's word lists, is lists.yaml there); the trained runs and the
# commands' full outputs stay in a scratch folder.
#
#   scripts/model_project.sh        WORK=DIR for the scratch folder (default build/model_project);
#                                   WORDBIAS=the command (default .venv/bin/wordbias)
#
# Small settings, so that it runs in minutes on two cores: 50 dimensions, 5 epochs, 6 runs on the whole corpus and
# its bootstrap samples, a ladder of 5 swap rates x 3 seeds (its rate-0 runs are the ensemble's three seeds,
# read from the cache). Every random step is seeded (the commands' default seed 0), so a rerun writes the same tables.
set -euo pipefail
cd "$(dirname "$0")/.."
WB=${WORDBIAS:-.venv/bin/wordbias}
WORK=${WORK:-build/model_project}
OUT=docs/teacher/model_report
LISTS=$OUT/lists.yaml
CACHE=$WORK/cache
TRAIN=(--dim 50 --epochs 5 --min-count 5 --workers 2 --cache-dir "$CACHE")
STATS=(--n-resamples 2000 --n-permutations 10000)
SEED_RUN=$WORK/runs/runs/seed-1
step() { echo "model project: $*" >&2; }
# a command whose exit status 3 means "written, but some tests were not run" (the reasons in its tidy.csv)
partial() { "$@" || [ $? -eq 3 ]; }

start=$(date +%s)
rm -rf "$WORK/runs" "$WORK/ladder" "$WORK/out"
mkdir -p "$WORK/out" "$CACHE"

step "1/6 the word lists"
"$WB" lists "$LISTS" >"$WORK/out/lists.txt"

step "2/6 training runs: 3 seeds, and 3 bootstrap samples of the addresses"
"$WB" train state_union --seeds 3 --bootstrap 3 "${TRAIN[@]}" --out "$WORK/runs" -q

step "3/6 the lists' WEATs on every run, combined over the runs"
"$WB" weat "$WORK/runs" --lists "$LISTS" "${STATS[@]}" --cache-dir "$CACHE" --workers 2 --out "$WORK/out/weat" -q

step "4/6 the papers' battery on one run (most of its words are not in these addresses: exit status 3)"
partial "$WB" report "$SEED_RUN" --no-ube --n-resamples 1000 --n-permutations 10000 --cache-dir "$CACHE" \
  --out "$WORK/out/report" -q

step "5/6 debiasing the first run: hard debias and LEACE, their checks, and the lists' WEATs after each"
"$WB" debias "$SEED_RUN" --method hard --method leace --n-resamples 200 --cache-dir "$CACHE" \
  --out "$WORK/out/debias" -q 2>"$WORK/out/debias.log"
"$WB" compare original="$SEED_RUN" hard="$WORK/out/debias/seed-1+hard.bin" \
  leace="$WORK/out/debias/seed-1+leace.bin" --lists "$LISTS" "${STATS[@]}" --cache-dir "$CACHE" \
  --out "$WORK/out/debiased_weat" -q

step "6/6 a planted bias: swap rates 0 to 1, three seeds each, and which measure follows it"
"$WB" train state_union --seeds 3 --swap-rate 0,0.25,0.5,0.75,1 "${TRAIN[@]}" --out "$WORK/ladder" -q
"$WB" validity "$WORK/ladder" --measures weat,sc_weat,direct_bias,ripa,semaxis --n-resamples 200 \
  --table-resamples 1000 --out "$WORK/out/validity" -q

cp "$WORK/out/weat/ensemble.csv" "$OUT/weat_ensemble.csv"
cp "$WORK/out/weat/tidy.csv" "$OUT/weat_runs.csv"
cp "$WORK/out/weat/runs.png" "$OUT/weat_runs.png"
cp "$WORK/out/report/tidy.csv" "$OUT/battery_one_run.csv"
cp "$WORK/out/debias/checks.csv" "$OUT/debias_checks.csv"
cp "$WORK/out/debiased_weat/tidy.csv" "$OUT/debiased_weat.csv"
cp "$WORK/out/validity/validity.csv" "$OUT/validity.csv"
cp "$WORK/out/validity/ladder.png" "$OUT/ladder.png"
step "done in $(( $(date +%s) - start )) s; tables and figures in $OUT"
