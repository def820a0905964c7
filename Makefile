# wordbias: `make` builds the environment and regenerates every notebook, table and figure;
# `make test` runs the unit tests and nbval on the executed notebooks; `make lab` opens JupyterLab.

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

NOTEBOOKS := notebooks/caliskan2017.ipynb notebooks/caliskan2017_glove-6b-50d.ipynb notebooks/swinger2019.ipynb notebooks/racial_bias_report.ipynb \
             notebooks/kurita2019.ipynb notebooks/kurita2019_tiny-bert-mlm.ipynb
# a tiny BERT masked LM with a planted bias (wordbias.tiny_mlm), standing in for bert-base-uncased offline
TINY_MLM := build/tiny-bert-mlm

.PHONY: all env notebooks test unit nbval lab bench clean

all: notebooks

env: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) (set PYTHON=... to another Python 3.11)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet torch==2.13.0
	$(PIP) install --quiet -r requirements.txt
	$(PIP) install --quiet --no-deps -e .
	$(PY) -m ipykernel install --sys-prefix --name wordbias --display-name "wordbias (.venv)" >/dev/null
	touch $(STAMP)

notebooks: $(NOTEBOOKS)

# the default run: exact replication on the authors' GloVe 840B vectors (bundled subset)
notebooks/caliskan2017.ipynb: notebooks/src/caliskan2017.ipynb $(STAMP) $(wildcard lib/wordbias/*.py) $(wildcard data/stimuli/*) $(wildcard data/caliskan2017/*)
	cd notebooks && ../$(PAPERMILL) src/caliskan2017.ipynb caliskan2017.ipynb -p embedding glove-840b-caliskan
	$(PY) -m wordbias.nbclean $@

# the same notebook on the bundled GloVe 6B 50d
notebooks/caliskan2017_glove-6b-50d.ipynb: notebooks/src/caliskan2017.ipynb $(STAMP) $(wildcard lib/wordbias/*.py) $(wildcard data/stimuli/*) $(wildcard data/caliskan2017/*)
	cd notebooks && ../$(PAPERMILL) src/caliskan2017.ipynb caliskan2017_glove-6b-50d.ipynb -p embedding glove-6b-50d
	$(PY) -m wordbias.nbclean $@

# Swinger et al. (2019): UBE on the bundled GloVe 6B 50d (first names, its hard-debiased version, last names)
notebooks/swinger2019.ipynb: notebooks/src/swinger2019.ipynb $(STAMP) $(wildcard lib/wordbias/*.py) $(wildcard data/stimuli/*) $(wildcard data/swinger2019/*) $(wildcard data/debiaswe/*)
	cd notebooks && ../$(PAPERMILL) src/swinger2019.ipynb swinger2019.ipynb -p embedding glove-6b-50d
	$(PY) -m wordbias.nbclean $@

notebooks/racial_bias_report.ipynb: notebooks/src/racial_bias_report.ipynb $(STAMP) $(wildcard lib/wordbias/*.py) $(wildcard data/stimuli/*) $(wildcard data/debiaswe/*)
	cd notebooks && ../$(PAPERMILL) src/racial_bias_report.ipynb racial_bias_report.ipynb
	$(PY) -m wordbias.nbclean $@

# Kurita et al. (2019): bert-base-uncased where it is on the machine, else the bundled MiniLM encoder (no MLM sections)
KURITA_DEPS := notebooks/src/kurita2019.ipynb $(STAMP) $(wildcard lib/wordbias/*.py) $(wildcard data/stimuli/*) $(wildcard data/kurita2019/*) $(wildcard data/gap/*) $(wildcard data/vectors/*)
notebooks/kurita2019.ipynb: $(KURITA_DEPS)
	cd notebooks && ../$(PAPERMILL) src/kurita2019.ipynb kurita2019.ipynb
	$(PY) -m wordbias.nbclean $@

# the same notebook, unchanged, with the tiny planted masked LM's folder as the MLM parameter
notebooks/kurita2019_tiny-bert-mlm.ipynb: $(KURITA_DEPS) $(TINY_MLM)/config.json
	cd notebooks && ../$(PAPERMILL) src/kurita2019.ipynb kurita2019_tiny-bert-mlm.ipynb -p mlm_model ../$(TINY_MLM)
	$(PY) -m wordbias.nbclean $@

$(TINY_MLM)/config.json: lib/wordbias/tiny_mlm.py $(STAMP)
	$(PY) -m wordbias.tiny_mlm $(TINY_MLM)

test: $(STAMP) $(TINY_MLM)/config.json
	$(VENV)/bin/pytest -q tests
	$(VENV)/bin/pytest -q --nbval --nbval-current-env -p no:cacheprovider $(NOTEBOOKS)

unit: $(STAMP)
	$(VENV)/bin/pytest -q tests

nbval: $(STAMP) $(TINY_MLM)/config.json
	$(VENV)/bin/pytest -q --nbval --nbval-current-env -p no:cacheprovider $(NOTEBOOKS)

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

bench: $(STAMP) $(WEFE_STAMP)
	$(PY) benchmarks/bench_exact_caliskan.py
	$(PY) benchmarks/bench_weat.py
	$(PY) benchmarks/check_wefe.py
	$(PY) benchmarks/bench_ube.py
	$(PY) benchmarks/bench_embeddings.py

clean:
	rm -rf $(VENV) .pytest_cache
