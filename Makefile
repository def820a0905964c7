# wordbias: `make` builds the environment and regenerates every notebook, table and figure;
# `make test` runs the unit tests, compares the regenerated outputs with the committed ones (within stated
# tolerances) and runs nbval on the executed notebooks; `make repro-check` regenerates everything under several
# forced CPU-kernel settings; `make lab` opens JupyterLab.

.DEFAULT_GOAL := all
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
STAMP  := $(VENV)/.installed
# papermill parameters are passed with -p; kernels run inside the venv
PAPERMILL := $(VENV)/bin/papermill --kernel wordbias --no-progress-bar --log-level WARNING
export MPLBACKEND := Agg
export PYTHONHASHSEED := 0
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false
# make keeps its caches (converted embeddings, GAP features, trained models) with the checkout; outside make
# wordbias uses the platform's per-user cache folder (wordbias.core.paths.cache_dir)
export WORDBIAS_CACHE ?= $(CURDIR)/.cache

# ---------------------------------------------------------------------------------------------------------
# Pinned compute kernels (README, "Reproducibility"). numpy, OpenBLAS (numpy's and SciPy's), PyTorch's ATen,
# oneDNN and MKL each pick a code path for the CPU at run time, and the paths round differently. KERNELS picks
# one set for all of them:
#   x86-64-v3  the AVX2+FMA paths (Haswell level) for numpy, OpenBLAS, ATen and oneDNN (the default where the
#              CPU has both); MKL (PyTorch's matrix products) takes its SSE2 "COMPATIBLE" branch: MKL honours
#              MKL_CBWR=AVX2 on Intel CPUs only and ignores it on AMD ones (its AUTO branch, whose sums also
#              depend on the thread count), so AVX2 gave different Kurita outputs on an Intel Xeon than on the AMD
#              EPYC that made the committed ones; COMPATIBLE is the one branch MKL runs alike on both vendors and
#              at any thread count (tests/models/test_kernel_pins.py);
#   x86-64-v2  the SSE4.2 paths: runs on any x86-64 that numpy supports; stands in for a foreign machine;
#   native     no pins: each library takes its own path for this CPU (the default elsewhere: ARM, old x86).
# Threads: BLAS is single-threaded (a threaded dot product splits its sum by core count); code whose result
# would depend on the thread count (K-means, the GAP MLP) pins its own threads; torch's results do not
# depend on its thread count (tested).
KERNELS ?= $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo 2>/dev/null && echo x86-64-v3 || echo native)
ifeq ($(KERNELS),x86-64-v3)
export OPENBLAS_CORETYPE := Haswell
export NPY_DISABLE_CPU_FEATURES := X86_V4 AVX512_ICL AVX512_SPR
export ATEN_CPU_CAPABILITY := avx2
export ONEDNN_MAX_CPU_ISA := AVX2
export MKL_CBWR := COMPATIBLE
else ifeq ($(KERNELS),x86-64-v2)
export OPENBLAS_CORETYPE := Nehalem
export NPY_DISABLE_CPU_FEATURES := X86_V3 X86_V4 AVX512_ICL AVX512_SPR
export ATEN_CPU_CAPABILITY := default
export ONEDNN_MAX_CPU_ISA := SSE41
export MKL_CBWR := COMPATIBLE
export NUMBA_CPU_NAME := generic
else ifneq ($(KERNELS),native)
$(error KERNELS must be x86-64-v3, x86-64-v2 or native, not '$(KERNELS)')
endif
export WORDBIAS_KERNELS := $(KERNELS)
export OPENBLAS_NUM_THREADS := 1

# the pinned variables as shell exports, for Jupyter or scripts run outside make: eval "$(make -s kernel-env)"
.PHONY: kernel-env
kernel-env:
	@env | grep -E '^(WORDBIAS_KERNELS|OPENBLAS_CORETYPE|NPY_DISABLE_CPU_FEATURES|ATEN_CPU_CAPABILITY|ONEDNN_MAX_CPU_ISA|MKL_CBWR|NUMBA_CPU_NAME|OPENBLAS_NUM_THREADS)=' \
	  | sort | sed "s/=\(.*\)/='\1'/; s/^/export /"

# two notebooks at a time (results do not depend on it); JOBS=1 for one at a time
JOBS ?= 2
MAKEFLAGS += --jobs=$(JOBS) --output-sync=target
# While make runs several jobs, each keeps to one core: wordbias's parallel work (training runs, the MLP's seed
# stacks, the UBE null, the Monte Carlo; wordbias.core.parallel.default_workers) and torch's threads. A notebook
# that took a second core slowed the other slot's notebook as much as it sped itself up (a fresh-clone `make`:
# Kurita 215 s alone, 340 s beside the training runs' two processes). No output depends on it (the one-CPU
# setting of `make repro-check` gives the same files)
ifneq ($(JOBS),1)
export WORDBIAS_WORKERS := 1
export OMP_NUM_THREADS := 1
endif
# a tiny BERT masked LM with a planted bias (wordbias.models.tiny_mlm), standing in for bert-base-uncased offline
TINY_MLM := build/tiny-bert-mlm

# Every executed notebook: its papermill source (SRC_), parameters (PARAMS_) and data folders (DATA_). One pattern
# rule runs them all; a notebook's prerequisites are its source, the library modules it imports (found by
# scripts/notebook_deps.py, transitively), its data and the environment.
# (the longest first: make -j starts them in this order, so the two slots finish together)
NOTEBOOKS := kurita2019 bec_pro crows_pairs stereoset training_runs planted_bias swinger2019 may2019 debias \
             caliskan2017 caliskan2017_glove-6b-50d racial_bias_report kurita2019_tiny-bert-mlm
# the default run: exact replication on the authors' GloVe 840B vectors (bundled subset); then GloVe 6B 50d
SRC_caliskan2017 := caliskan2017
PARAMS_caliskan2017 := -p embedding glove-840b-caliskan
SRC_caliskan2017_glove-6b-50d := caliskan2017
PARAMS_caliskan2017_glove-6b-50d := -p embedding glove-6b-50d
DATA_caliskan2017 := data/stimuli data/caliskan2017 data/vectors
# Swinger et al. (2019): UBE on the bundled GloVe 6B 50d (first names, its hard-debiased version, last names)
SRC_swinger2019 := swinger2019
PARAMS_swinger2019 := -p embedding glove-6b-50d
DATA_swinger2019 := data/stimuli data/swinger2019 data/debiaswe
SRC_racial_bias_report := racial_bias_report
DATA_racial_bias_report := data/stimuli data/debiaswe
# Kurita et al. (2019): bert-base-uncased where it is on the machine, else the bundled MiniLM encoder (no MLM
# sections); then the same notebook, unchanged, with the tiny planted masked LM's folder as the MLM parameter
SRC_kurita2019 := kurita2019
SRC_kurita2019_tiny-bert-mlm := kurita2019
PARAMS_kurita2019_tiny-bert-mlm := -p mlm_model ../$(TINY_MLM)
DATA_kurita2019 := data/stimuli data/kurita2019 data/gap data/vectors
# training runs (Antoniak & Mimno 2018; Du et al. 2021): an ensemble of 3 seed runs and 3 bootstrap runs of word2vec
# on the shipped Brown corpus (trained once, about a minute on 2 cores, then read from the cache), WEATs on every run
SRC_training_runs := training_runs
PARAMS_training_runs := -p seeds 3 -p bootstrap 3
DATA_training_runs := data/corpora data/stimuli
# measuring the measures: a planted-bias ladder (Brown with Bolukbasi's gender pairs swapped at 5 rates, 3 CBOW seeds
# each: 15 runs of about 5 s of one core, cached), every static measure's validity, reliability and power; and the
# vector-identity check on spaCy's pruned en_core_web_md vectors (requirements-lm.txt)
SRC_planted_bias := planted_bias
DATA_planted_bias := data/corpora data/swap data/stimuli data/debiaswe
# May et al. (2019): SEAT on the bundled MiniLM encoder and the CBoW baseline on GloVe 6B 50d (Table 3's tests)
SRC_may2019 := may2019
DATA_may2019 := data/seat data/vectors
# Gonen & Goldberg (2019) with INLP and LEACE: four debiasing methods on GloVe 6B 50d, every method x every check
# (about 40 s on 2 cores)
SRC_debias := debias
PARAMS_debias := -p embedding glove-6b-50d
DATA_debias := data/debias2019 data/debiaswe data/stimuli data/utility

# The language models' notebooks, on the two causal LMs of requirements-lm.txt (LM_MODELS converts each model's GGUF
# once into the cache before them: about 12 s for SmolLM2 and 35 s for Gemma 3 270M on a fresh clone):
# Nangia et al. (2020): CrowS-Pairs (a stratified sample of 300 pairs)
SRC_crows_pairs := crows_pairs
DATA_crows_pairs := data/crows_pairs
# Nadeem et al. (2021): StereoSet (a stratified sample of 200 intrasentence examples; the intersentence task, whose
# scoring is not the paper's, is one parameter away: -p n_intersentence 100 scores 100 of them, about 70 s more)
SRC_stereoset := stereoset
DATA_stereoset := data/stereoset
# Bartl et al. (2020): Kurita et al.'s score on BEC-Pro's English and German he/she sentences (all 60 professions)
SRC_bec_pro := bec_pro
DATA_bec_pro := data/bec_pro data/winogender
LM_NOTEBOOKS := notebooks/crows_pairs.ipynb notebooks/stereoset.ipynb notebooks/bec_pro.ipynb
# the Kurita notebook's section on real models shows the BEC-Pro notebook's committed table, read at its end: a
# changed table makes the next `make` run it again. It does not wait for the BEC-Pro notebook: as the longest job it
# starts first (waiting cost a fresh-clone `make` about 100 s)
BEC_PRO_TABLE := results/bartl2020/smollm2-135m+gemma-3-270m/correlations.csv
notebooks/kurita2019.ipynb notebooks/kurita2019_tiny-bert-mlm.ipynb: $(BEC_PRO_TABLE)
# MKL's conditional numerical reproducibility (MKL_CBWR=COMPATIBLE, above) makes a causal LM's matrix products 4x
# slower (4.0 against 15-18 sentences/s for SmolLM2 on one core, measured); these notebooks' numbers are counts of
# comparisons, which a last-bit difference changes only at a near tie (scores within float32 rounding are ties),
# and correlations over professions (tools/repro_tolerances.yaml states what may move)
$(LM_NOTEBOOKS): export MKL_CBWR := AUTO
LM_MODELS := build/causal-lm.stamp
$(LM_NOTEBOOKS): | $(LM_MODELS)
$(LM_MODELS): lib/wordbias/models/causal.py $(STAMP)
	@mkdir -p build
	@start=$$(date +%s%N); $(PY) -m wordbias.models.causal smollm2-135m gemma-3-270m >/dev/null && touch $@ && \
	  ms=$$(( ($$(date +%s%N) - start) / 1000000 )) && \
	  printf 'make: %-42s %4d.%d s  (KERNELS=%s)\n' "converted the causal LMs" $$((ms / 1000)) $$((ms % 1000 / 100)) $(KERNELS)

NOTEBOOK_FILES := $(NOTEBOOKS:%=notebooks/%.ipynb)

# The compiled kernels (numba: wordbias.stats.kernels, wordbias.measures.enumeration.ube_kernels) compiled once, for this
# KERNELS setting, before the notebooks: on a fresh clone each notebook would otherwise compile the ones it uses
# itself (about 4 s a notebook; all of them once: 10-12 s), with the library's bytecode and matplotlib's font list.
# `make env` builds it with the environment; every notebook and lesson waits for it (a notebook started while it
# ran would put make's longest-first order out: the lessons went first)
WARM := build/warm-$(KERNELS).stamp
$(WARM): lib/wordbias/stats/kernels.py lib/wordbias/measures/enumeration/ube_kernels.py $(STAMP)
	@mkdir -p build
	@start=$$(date +%s%N); $(PY) -m compileall -q lib/wordbias && \
	  $(PY) -c "import matplotlib.font_manager; from wordbias.stats import kernels; from wordbias.measures.enumeration import ube_kernels; kernels.compile_all(); ube_kernels.compile_all()" && \
	  touch $@ && ms=$$(( ($$(date +%s%N) - start) / 1000000 )) && \
	  printf 'make: %-42s %4d.%d s  (KERNELS=%s)\n' "compiled kernels" $$((ms / 1000)) $$((ms % 1000 / 100)) $(KERNELS)

# The lesson path (notebooks/lessons/lessons.yaml): each instructor source notebooks/lessons/src/NN_*.ipynb (exercise
# solutions in) runs into notebooks/lessons/NN_*.ipynb, which nbval checks; the student versions (solutions replaced
# by placeholders, outputs cleared) are written to notebooks/lessons/student/ by wordbias.teaching.assign.
LESSON_SRC   := $(sort $(wildcard notebooks/lessons/src/*.ipynb))
LESSON_FILES := $(LESSON_SRC:notebooks/lessons/src/%=notebooks/lessons/%)
STUDENT_FILES := $(LESSON_SRC:notebooks/lessons/src/%=notebooks/lessons/student/%)
# library files each notebook source imports (read from the sources by a stdlib script, no environment needed), all
# in one call: LIB_<source stem> and LIB_lesson_<lesson file name> (one call per notebook cost every make command 4 s)
comma := ,
NOTEBOOK_DEPS := $(shell python3 scripts/notebook_deps.py --make $(sort $(foreach n,$(NOTEBOOKS),notebooks/src/$(SRC_$(n)).ipynb)) $(LESSON_SRC))
$(foreach e,$(NOTEBOOK_DEPS),$(eval LIB_$(firstword $(subst =, ,$(e))) := $(subst $(comma), ,$(word 2,$(subst =, ,$(e))))))

.PHONY: all env notebooks lessons docs test lint test-notebooks unit nbval check-results repro-check lab bench clean

# $(call run_notebook,SOURCE,PAPERMILL-ARGS): execute SOURCE into the target with papermill, strip run-dependent
# metadata, and print one line with the notebook's wall time
# A kernel that goes idle without answering would hang make (seen once, in lesson 3's widget cell: the cell never
# returned and no CPU was used): every cell gets PAPERMILL_TIMEOUT seconds (lessons LESSON_TIMEOUT), and a notebook
# that fails or times out is run once more, on a fresh kernel, before make gives up
PAPERMILL_TIMEOUT ?= 1200
LESSON_TIMEOUT ?= 300
# a lesson takes 5-17 s; its first run is stopped after LESSON_LIMIT seconds in all and run again: lesson 3 once took
# 307 s under `make` with no cell timing out and no error (a stall, not work: alone it takes 7 s, and two reruns of
# every lesson did not show it again), which would have added five minutes to CI
LESSON_LIMIT ?= 120
# (coreutils' timeout; where there is none, as on a stock macOS, the first run is not limited)
LESSON_CAP := $(shell command -v timeout >/dev/null 2>&1 && echo timeout -k 10 $(LESSON_LIMIT))
define run_notebook
@start=$$(date +%s%N); cd notebooks && { ../$(PAPERMILL) --execution-timeout $(PAPERMILL_TIMEOUT) $(1) $(notdir $@) $(2) || \
  { echo "make: $@ failed or timed out; running it once more" >&2; \
    ../$(PAPERMILL) --execution-timeout $(PAPERMILL_TIMEOUT) $(1) $(notdir $@) $(2); }; } && cd .. && \
  $(PY) -m tools.notebooks $@ && $(PY) -m tools.executed stamp $@ $^ && ms=$$(( ($$(date +%s%N) - start) / 1000000 )) && \
  printf 'make: %-42s %4d.%d s  (KERNELS=%s)\n' $@ $$((ms / 1000)) $$((ms % 1000 / 100)) $(KERNELS)
endef

all: notebooks lessons

env: $(STAMP) $(WARM)

$(STAMP): requirements.txt requirements-lm.txt pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) (set PYTHON=... to another Python 3.11)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet torch==2.13.0
	$(PIP) install --quiet -r requirements.txt
	$(PIP) install --quiet --no-deps -r requirements-lm.txt
	$(PIP) install --quiet --no-deps -e .
	$(PY) -m ipykernel install --sys-prefix --name wordbias --display-name "wordbias (.venv)" >/dev/null
	touch $(STAMP)

notebooks: $(NOTEBOOK_FILES)

.SECONDEXPANSION:
notebooks/%.ipynb: notebooks/src/$$(SRC_$$*).ipynb $$(LIB_$$(SRC_$$*)) $$(shell find $$(DATA_$$(SRC_$$*)) -type f | sed "s/ /\\\\ /g") \
                   $(STAMP) scripts/notebook_deps.py
	$(call run_notebook,src/$(SRC_$*).ipynb,$(PARAMS_$*))

lessons: lib/wordbias/teaching/choices.sealed.json $(LESSON_FILES) $(STUDENT_FILES) docs/answer_key.md

# the multiple-choice answers the checks read: the teacher's choices.yaml, sealed (wordbias.teaching.sealed)
lib/wordbias/teaching/choices.sealed.json: notebooks/lessons/src/choices.yaml lib/wordbias/teaching/sealed.py $(STAMP)
	$(PY) -m wordbias.teaching.sealed $< $@

$(NOTEBOOK_FILES) $(LESSON_FILES): | $(WARM)

# a lesson runs in notebooks/lessons/ (papermill, as the paper notebooks), after what it reads (AFTER_lesson_*):
# lesson 2 the Caliskan notebook's Table 1, lesson 4 the Swinger notebook's results, lesson 5 the tiny masked LM,
# lesson 6 the Brown ensemble the training-runs notebook trains (the lesson would train the same runs beside it);
# the others wait for nothing, so they fill a free slot while the long notebooks run
AFTER_lesson_02_significance_and_size := notebooks/caliskan2017.ipynb
AFTER_lesson_04_beyond_one_test := notebooks/swinger2019.ipynb
AFTER_lesson_05_contextual_models := $(TINY_MLM)/config.json
AFTER_lesson_06_training_runs := notebooks/training_runs.ipynb
# lesson 8 scores sentences with SmolLM2 (converted by LM_MODELS) and reads the CrowS-Pairs notebook's results
AFTER_lesson_08_language_models := notebooks/crows_pairs.ipynb
# lesson 9 reads the planted-bias notebook's tables and the ladder's runs it leaves in the cache
AFTER_lesson_09_measuring_the_measures := notebooks/planted_bias.ipynb
LM_LESSONS := notebooks/lessons/08_language_models.ipynb
$(LM_LESSONS): export MKL_CBWR := AUTO
notebooks/lessons/%.ipynb: notebooks/lessons/src/%.ipynb $$(LIB_lesson_$$*.ipynb) notebooks/lessons/lessons.yaml \
                           lib/wordbias/teaching/choices.sealed.json $(STAMP) | $$(AFTER_lesson_$$*)
	@start=$$(date +%s%N); cd notebooks/lessons && { $(LESSON_CAP) ../../$(PAPERMILL) --execution-timeout $(LESSON_TIMEOUT) src/$*.ipynb $*.ipynb || \
	  { echo "make: $@ failed or timed out; running it once more" >&2; \
	    ../../$(PAPERMILL) --execution-timeout $(LESSON_TIMEOUT) src/$*.ipynb $*.ipynb; }; } && cd ../.. && \
	  $(PY) -m wordbias.teaching.assign --relink-from notebooks/lessons/src $@ >/dev/null && $(PY) -m tools.notebooks $@ && \
	  $(PY) -m tools.executed stamp $@ $^ && ms=$$(( ($$(date +%s%N) - start) / 1000000 )) && \
	  printf 'make: %-42s %4d.%d s  (KERNELS=%s)\n' $@ $$((ms / 1000)) $$((ms % 1000 / 100)) $(KERNELS)

$(STUDENT_FILES) &: $(LESSON_SRC) lib/wordbias/teaching/assign.py $(STAMP)
	$(PY) -m wordbias.teaching.assign notebooks/lessons/src notebooks/lessons/student

# the teachers' answer key: every exercise's expected value, read from the check records of the executed lessons
docs/answer_key.md: $(LESSON_FILES) lib/wordbias/teaching/answer_key.py lib/wordbias/teaching/checks.py
	$(PY) -m wordbias.teaching.answer_key notebooks/lessons docs/answer_key.md

# the documentation sites: the teachers' (build/docs: the executed lessons, solutions in, the answer key and the
# teachers' pages) and the students' (build/docs-student, `-t student`: the student versions of the lessons, no
# solutions, no teachers' page and no link to one), both built at once. Sphinx with MyST-NB and numpydoc
# (docs/conf.py) renders the guide, the paper notebooks and the lessons from their stored outputs (nothing is
# executed), the API reference from the docstrings and the command's --help; warnings are errors. Then a
# real-browser check of every page of both (headless Chromium, offline: math typeset, every image loaded, every
# local link leads to a file; on the students' site no solution text and no link to a teachers' page) that also
# writes docs/screenshots/. Always full builds: Sphinx repeats a page's warnings only when it reads the page again
SPHINX := $(VENV)/bin/sphinx-build -W --keep-going -q -j auto
docs: $(STAMP)
	rm -rf build/docs build/docs-student build/docs-doctrees
	@$(SPHINX) docs build/docs & teacher=$$!; $(SPHINX) -t student docs build/docs-student; student=$$?; \
	  wait $$teacher && test $$student -eq 0
	$(PY) scripts/check_site.py build/docs --screenshots docs/screenshots
	$(PY) scripts/check_site.py build/docs-student --student

# the tiny MLM run reuses the GAP features and MLP the MiniLM run caches, so it waits for it
notebooks/kurita2019_tiny-bert-mlm.ipynb: $(TINY_MLM)/config.json | notebooks/kurita2019.ipynb

$(TINY_MLM)/config.json: lib/wordbias/models/tiny_mlm.py $(STAMP)
	$(PY) -m wordbias.models.tiny_mlm $(TINY_MLM)

# `make test`: ruff; the unit tests and doctests; beside them (two jobs: each mostly uses one core) the outputs in
# the working tree against the committed ones (identical, or within the tolerances of tools/repro_tolerances.yaml),
# then nbval on every notebook that make has not just executed from the current sources (tools/executed.py: make
# records each notebook it executes with the SHA-256 of the notebook, of every input it was rebuilt from, of the
# installed packages and the kernel setting; a notebook so recorded and unchanged has been executed from these
# sources and compared with its committed copy by the results check just above, cell by cell, which is what nbval
# would repeat). After `make`, nbval therefore runs no notebook a second time; in a tree make has not run it runs
# them all (as `make nbval` and WORDBIAS_NBVAL=all do). UNIT_BESIDE_NBVAL, slow unit-test modules, run in the nbval
# job, so that the two jobs take about as long: the halves' times, as `make test` prints them, decide each module's
# side. pytest-xdist spreading one run over both cores was slower (442 s): each worker collects and imports
# everything again. --output-sync keeps each part's output together; JOBS=1 runs them one after the other.
# `make unit` and `make nbval` run each half whole
UNIT_BESIDE_NBVAL := tests/battery/test_battery_contextual.py tests/core/test_figures.py tests/models/test_kernel_pins.py \
                     tests/models/test_blas_inference.py tests/core/test_forked_call.py tests/models/test_mlp.py \
                     tests/fuzz/test_fuzz_cli.py tests/site/test_docs.py tests/models/test_train_signals.py \
                     tests/models/test_causal.py tests/embeddings/test_concurrent_load.py tests/models/test_train.py \
                     tests/measures/test_ensemble_coverage.py tests/errors/test_edges_written_cells.py \
                     tests/battery/test_battery_ensemble.py tests/test_cli.py \
                     tests/measures/association/test_bootstrap_coverage.py tests/battery/test_debias_battery.py \
                     tests/papers/test_kurita2019.py tests/errors/test_outputs_catalogue.py \
                     tests/teaching/test_teaching_lessons.py tests/battery/test_battery_lm.py \
                     tests/errors/test_edges_output_writer.py tests/measures/association/test_balance.py
UNIT  := $(VENV)/bin/pytest -q tests lib/wordbias
NBVAL_NOTEBOOKS := $(filter-out $(LM_NOTEBOOKS),$(NOTEBOOK_FILES)) $(filter-out $(LM_LESSONS),$(LESSON_FILES))
NBVAL := $(VENV)/bin/pytest -q --nbval --nbval-current-env -p no:cacheprovider
# the language models' notebooks re-run as make ran them (MKL in its fast mode: above), so that they read the
# sentences' log-probabilities back from the cache, whose key holds the kernel settings
NBVAL_LM := MKL_CBWR=AUTO $(VENV)/bin/pytest -q --nbval --nbval-current-env -p no:cacheprovider
test: lint unit-rest test-notebooks

.PHONY: unit-rest
unit-rest: $(STAMP) $(TINY_MLM)/config.json | $(WARM)
	$(UNIT) $(UNIT_BESIDE_NBVAL:%=--ignore=%)

# ruff (pyproject.toml, [tool.ruff]): the same check as the pre-commit hook (.pre-commit-config.yaml)
lint: $(STAMP)
	$(VENV)/bin/ruff check .

test-notebooks: $(STAMP) $(TINY_MLM)/config.json check-results | $(WARM)
	@pending="$$($(PY) -m tools.executed pending $(NBVAL_NOTEBOOKS))"; \
	  echo "nbval: $$(echo $$pending | wc -w) of $(words $(NBVAL_NOTEBOOKS)) notebooks to run (the others make executed from the current sources)"; \
	  echo $(NBVAL) $$pending $(UNIT_BESIDE_NBVAL); $(NBVAL) $$pending $(UNIT_BESIDE_NBVAL)
	@pending="$$($(PY) -m tools.executed pending $(LM_NOTEBOOKS) $(LM_LESSONS))"; \
	  if [ -n "$$pending" ]; then echo $(NBVAL_LM) $$pending; $(NBVAL_LM) $$pending; \
	  else echo "nbval: the language models' notebooks make executed from the current sources"; fi

REF ?= HEAD
check-results: $(STAMP)
	$(PY) -m tools.repro compare --ref $(REF)

# regenerate everything, with empty caches, under each kernel setting (README, "Reproducibility")
repro-check: $(STAMP) $(TINY_MLM)/config.json
	bash scripts/repro_check.sh

unit: $(STAMP) $(TINY_MLM)/config.json
	$(UNIT)

nbval: $(STAMP) $(TINY_MLM)/config.json
	$(NBVAL) $(NBVAL_NOTEBOOKS)
	$(NBVAL_LM) $(LM_NOTEBOOKS) $(LM_LESSONS)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks/

# benchmarks (never needed by `make` or `make test`): WEFE, a peer, pins numpy<=1.26, so it gets its own
# virtual environment, .venv-wefe, and runs as a separate interpreter on data passed as .npy/.json files
WEFE_VENV  := .venv-wefe
WEFE_STAMP := $(WEFE_VENV)/.installed

.PHONY: wefe-venv
wefe-venv: $(WEFE_STAMP)

$(WEFE_STAMP): benchmarks/requirements-wefe.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) (set PYTHON=... to another Python 3.11)"; exit 1; }
	test -x $(WEFE_VENV)/bin/python || $(PYTHON) -m venv $(WEFE_VENV)
	$(WEFE_VENV)/bin/pip install --quiet --upgrade pip
	$(WEFE_VENV)/bin/pip install --quiet -r benchmarks/requirements-wefe.txt
	touch $(WEFE_STAMP)

# our ECT, RND, RNSB and MAC against WEFE 1.0.1's on Caliskan's word sets (GloVe 6B 50d), timed in one run:
# benchmarks/results/check_wefe_metrics/{reconciliation,timings}.csv (docs/guide/conventions.md)
.PHONY: check-wefe-metrics
check-wefe-metrics: $(STAMP) $(WEFE_STAMP)
	$(PY) benchmarks/check_wefe_metrics.py

bench: $(STAMP) $(WEFE_STAMP)
	$(PY) benchmarks/bench_exact_caliskan.py
	$(PY) benchmarks/bench_weat.py
	$(PY) benchmarks/check_wefe.py
	$(PY) benchmarks/bench_ube.py
	$(PY) benchmarks/bench_embeddings.py
	$(PY) benchmarks/swinger_case_filter.py
	$(PY) benchmarks/bench_lm.py

clean:
	rm -rf $(VENV) .pytest_cache
