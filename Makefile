# paperlens — the README lists these targets.
#   make serve   build figures and serve the site with live reload on http://127.0.0.1:8000
#   make site    strict static build into site/
#   make test    lint, types, unit tests, Sybil over every page and docstring, built-site checks
# Each target creates .venv (and node_modules) on first use from the pinned lock files.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# WITH_TORCH=1 also installs the optional PyTorch reference (torch==2.13.0; PyPI's build is CUDA's:
# PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu gives the CPU one, as CI sets it).
WITH_TORCH ?= 0
comma  := ,
EXTRAS := test,docs$(if $(filter 1,$(WITH_TORCH)),$(comma)torch,)

# The environment of a reproducible build; Python callers take the same from
# sitekit.paths.BUILD_ENV (tests/tools/test_build_env.py checks the two agree).
export NO_MKDOCS_2_WARNING := 1
export DISABLE_MKDOCS_2_WARNING := true
export SOURCE_DATE_EPOCH ?= 1767225600
export PYTHONHASHSEED := 0

.PHONY: all test site serve lint env lock clean audit gallery claims

all: test

# Two editable installs: the library (pyproject.toml) and the build machinery, sitekit
# (tools/pyproject.toml), so that everything imports both without touching sys.path.
$(BIN)/.installed-$(WITH_TORCH): pyproject.toml tools/pyproject.toml requirements.lock
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "paperlens needs Python 3.11 or newer; $(PYTHON) is $$($(PYTHON) --version 2>&1): run make with PYTHON=python3.11 (or newer)" >&2; exit 1; }
	$(BIN)/python -m pip --version >/dev/null 2>&1 || { rm -rf $(VENV) && $(PYTHON) -m venv $(VENV); }
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet -c requirements.lock -e ".[$(EXTRAS)]" -e ./tools
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

env: $(BIN)/.installed-$(WITH_TORCH) node_modules/.installed

lint: env
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Two processes (pytest-xdist), each given whole test files in the order collected (not the
# largest first: the files that need the built site come last, tests/conftest.py), so the
# other tests run while the site builds, and the browser's checks of the built site beside the
# tests that build and serve it, which use one core. Ends with the ten slowest tests, so
# whoever adds one sees what it costs.
test: env lint
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder --durations=10

SITE_DIR ?= site
# The engine: ProperDocs, the maintained fork of MkDocs 1.6 (README, "The engine"); it reads
# mkdocs.yml, named explicitly (its own default name is properdocs.yml).
ENGINE := properdocs

# CONFIG: another configuration (the tests build and serve scratch copies of the pages).
CONFIG ?= mkdocs.yml
# The build fails closed: after it, every page must carry the paperlens plugin's proof that it
# checked the page (tools/sitekit/proof.py), or `make site` fails; a site built by an engine
# that skipped the plugin, or with one of its checks off, is never taken for a checked one.
site: env
	$(BIN)/$(ENGINE) build --strict -f $(CONFIG) -d $(SITE_DIR)
	$(BIN)/python -m sitekit.proof $(SITE_DIR) $(CONFIG)

SERVE_ADDR ?= 127.0.0.1:8000
# --dirty: a rebuild renders only the pages an edit touches (tools/sitekit/preview.py says how
# pages whose inputs changed outside their source are rebuilt too).
serve: env
	$(BIN)/$(ENGINE) serve --strict --dirty -f $(CONFIG) -a $(SERVE_ADDR)

# Re-resolve the pinned Python dependencies (see README, "Updating dependencies").
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet -e ".[test,docs]"
	.lock-venv/bin/pip freeze --exclude-editable | grep -vi '^paperlens' > requirements.lock
	rm -rf .lock-venv

clean:
	rm -rf site .cache

# Lighthouse on the home page and one Foundations, Walkthrough and notebook page, desktop and
# mobile, against the performance budget (benchmarks/audit.py says which goals and why).
audit: env
	$(BIN)/python benchmarks/audit.py

# A screenshot of every page at 390 px and 1280 px in both palettes, in gallery/ (gitignored).
gallery: site
	$(BIN)/python tools/gallery.py --site $(or $(SITE_DIR),site)

# A developer's check before finishing a change to an experiment or a page (not run by CI,
# which must leave OPENBLAS_CORETYPE alone): every claim, every page's examples and a cold
# strict build under each OpenBLAS kernel this CPU can execute, and with one thread.
claims: env
	$(BIN)/python tools/claims.py
