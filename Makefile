# Two commands on a fresh machine: `make serve` and `make test`.
# Both build .venv/ from the pinned requirements.txt and node_modules/ from the pinned
# package-lock.json first; nothing is installed by hand.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
REQUIREMENTS := $(VENV)/.requirements
STAMP  := $(VENV)/.installed
# Material for MkDocs prints an end-of-life notice on every build; it is noted in README.md.
export NO_MKDOCS_2_WARNING := 1
KATEX_VERSION := 0.16.25
KATEX_DIR := docs/assets/vendor/katex

.PHONY: serve build lesson test test-fast test-torch lint golden contract bench vendor-katex clean

# An existing environment is brought up to date in place, not recreated. The build's Node.js
# tools (esbuild, which bundles the page script, and the worker shim search needs on file://)
# come from npm, exactly as package-lock.json pins them.
$(REQUIREMENTS): requirements.txt package.json package-lock.json
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	npm ci --no-audit --no-fund --loglevel=error
	touch $(REQUIREMENTS)

# The project folder on the environment's import path, so that `macros` (which mkdocs.yml's
# hooks import) is found from any folder: `.venv/bin/mkdocs build`, as MkDocs' documentation
# types it, then works as `python -m mkdocs build` does (that one imports from the folder it
# runs in). It is one line in a .pth file in site-packages, which Python's site module adds to
# sys.path at start: what an editable install leaves behind, without a build backend, project
# metadata or anything to download. Written with this folder's own .venv/bin/python, never an
# interpreter given as PY, so that a copy of the project cannot point another environment at itself.
$(STAMP): $(REQUIREMENTS)
	$(VENV)/bin/python -c 'import pathlib, sys, sysconfig; pathlib.Path(sysconfig.get_path("purelib"), "attention-by-hand.pth").write_text(sys.argv[1] + "\n")' "$(CURDIR)"
	touch $(STAMP)

# Live preview: `mkdocs serve --dirty`, which rebuilds the pages an edit changes; errors show on
# the page; an edit to the Python code or to mkdocs.yml starts the server again, which builds
# every page (macros/site/serve.py). An edit to a script module under docs/assets/js is
# bundled again by the rebuild it starts.
# exec: the server is make's own child, so `kill PID` (SIGTERM) to make or Ctrl-C stops it
# and frees the port.
SERVE_ADDR ?= 127.0.0.1:8000
serve: $(STAMP)
	STRICT=false exec $(PY) -m macros.site.serve -a $(SERVE_ADDR)

# The static site in site/, built strictly; a failed build leaves the previous site/ alone.
build: $(STAMP)
	rm -rf site.tmp
	STRICT=true $(PY) -m mkdocs build --site-dir site.tmp
	rm -rf site && mv site.tmp site

# A new lesson from the starter (macros/tools/scaffold/), listed last in the last chapter of
# lessons/track.yaml or in CHAPTER="...": make lesson SLUG=my-topic TITLE="My topic"
lesson: $(STAMP)
	$(PY) -m macros lesson $(if $(TITLE),--title "$(TITLE)") $(if $(CHAPTER),--chapter "$(CHAPTER)") -- "$(SLUG)"

# Tests keep Python's compiled modules (__pycache__/, ignored by git) even where the machine
# sets PYTHONDONTWRITEBYTECODE: without them every run compiles the project and pytest rewrites
# every test module again, about two seconds of test-fast. An empty value is unset for Python.
test test-fast test-torch: export PYTHONDONTWRITEBYTECODE :=

# The tests' temporary folders (copies of the project, built sites: tens of thousands of small
# files in a make test) go to a folder held in memory where the machine has one, as Linux
# does at /dev/shm. Copying the lessons folder took 36 ms on this machine's disk and 3.4 ms
# there; make test-fast went from 11.6-12.3 s to 9.5-9.6 s (two runs each, same load).
# pytest keeps its last three runs' folders, about 2 GB after three make tests, so a smaller
# one (a container's default /dev/shm is 64 MB) is passed over for the usual temporary folder.
TEST_TMPDIR := $(shell test -d /dev/shm && test -w /dev/shm && \
	test "$$(df -Pk /dev/shm | awk 'NR == 2 {print $$4}')" -gt 4000000 && echo /dev/shm)
ifneq ($(TEST_TMPDIR),)
test test-fast test-torch: export TMPDIR := $(TEST_TMPDIR)
endif

JOBS ?= 2

# Every check: ruff, then every test (site builds, mkdocs serve and Chromium included), on
# two processes (pytest-xdist, a test module to each in turn, the long ones first:
# tests/conftest.py). JOBS=1 runs them in one process.
test: $(STAMP) lint
	$(PY) -m pytest -q $(if $(filter-out 1,$(JOBS)),-n $(JOBS) --dist loadfile --no-loadscope-reorder)

# The inner loop: every test that builds nothing, serves nothing and drives no browser,
# with fewer property-test cases (the "fast" profile in tests/conftest.py), on two processes
# (pytest-xdist, a test module to each in turn). JOBS=1 runs it in one process: a second or
# two slower to wait for, but with 40% less CPU time, kinder to a machine busy with other work.
test-fast: $(STAMP)
	$(PY) -m pytest -q -m "not (build or serve or browser or slow)" --hypothesis-profile=fast \
		$(if $(filter-out 1,$(JOBS)),-n $(JOBS) --dist loadfile)

# Never part of `make test`, which needs no torch: every executed-notebook test with torch
# installed, so the notebooks' comparisons with PyTorch run instead of being skipped. CI runs it
# in a job of its own (.github/workflows/site.yml, `torch`). They run in their own environment,
# .venv-torch/, made from requirements-torch.txt (requirements.txt plus a pinned torch). pip
# takes the CPU build of that torch (2.13.0+cpu) where an index or wheel folder it is configured
# with offers one (PIP_EXTRA_INDEX_URL, PIP_FIND_LINKS; the CI job names PyTorch's CPU index),
# else PyPI's default wheel.
TORCH_VENV  := .venv-torch
TORCH_STAMP := $(TORCH_VENV)/.installed
$(TORCH_STAMP): requirements.txt requirements-torch.txt
	test -x $(TORCH_VENV)/bin/python || $(PYTHON) -m venv $(TORCH_VENV)
	$(TORCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(TORCH_VENV)/bin/python -m pip install --quiet -r requirements-torch.txt
	touch $(TORCH_STAMP)

test-torch: $(TORCH_STAMP)
	$(TORCH_VENV)/bin/python -m pytest -q tests/test_notebooks.py -m slow -k "not without_torch"

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m macros.tools.lint

# Rewrite the reviewed record of every lesson's published values; review with git diff.
golden: $(STAMP)
	$(PY) -m macros golden --out tests/golden

# Rewrite docs/assets/js/contract.js, the browser twin's copy of the trace's declared fields.
contract: $(STAMP)
	$(PY) -m macros.tools.twin_contract

bench: $(STAMP)
	$(PY) bench/build_time.py

# KaTeX is vendored (no CDN): this recreates docs/assets/vendor/katex from the npm registry.
vendor-katex:
	rm -rf $(KATEX_DIR) /tmp/katex-vendor && mkdir -p $(KATEX_DIR)/fonts /tmp/katex-vendor
	cd /tmp/katex-vendor && npm pack katex@$(KATEX_VERSION) --silent && tar xzf katex-$(KATEX_VERSION).tgz
	cp /tmp/katex-vendor/package/dist/katex.min.js /tmp/katex-vendor/package/LICENSE $(KATEX_DIR)/
	cp /tmp/katex-vendor/package/dist/fonts/*.woff2 $(KATEX_DIR)/fonts/
	sed -E 's/,url\(fonts\/[^)]*\.woff\) format\("woff"\),url\(fonts\/[^)]*\.ttf\) format\("truetype"\)//g' \
		/tmp/katex-vendor/package/dist/katex.min.css > $(KATEX_DIR)/katex.min.css
	echo "KaTeX $(KATEX_VERSION) from the npm registry; only the woff2 fonts are kept." > $(KATEX_DIR)/VERSION

clean:
	rm -rf site site.tmp bench/out .pytest_cache .ruff_cache
