# Two commands for a newcomer: `make serve` and `make test`. Everything else is a helper.
SHELL := /bin/bash
VENV ?= .venv
PYTHON ?= python3
CHROMIUM ?= /usr/bin/chromium-headless-shell
PORT ?= 8000
# CI only: PyTorch's CPU wheel index, from which `make venv` installs the lock's torch first (a hosted
# runner would otherwise take PyPI's CUDA build). Empty here: the lock as it is (.github/workflows/ci.yml).
TORCH_INDEX_URL ?=
# Material 9.7+ prints a banner on every build and serve (its end of life, MkDocs 2.0): noise in the
# edit loop, and the migration it announces is planned (CONTRIBUTING.md, `make zensical`).
export NO_MKDOCS_2_WARNING := 1

# Every variable a target takes reaches its program exactly as typed, whatever it holds (quotes, $,
# $(...), backticks, line breaks, a leading dash): make takes its raw value ($(value ...): no $ in it
# is expanded), exports it, and a recipe reads it only from the environment, as "$$NAME" in double
# quotes, so that neither make nor the shell reads it as code. Never write $(NAME) in a recipe.
GIVEN := VENV PYTHON CHROMIUM TORCH_INDEX_URL NAME TITLE FROM BENCH_ARGS ZENSICAL_ARGS PORT
$(foreach v,$(GIVEN),$(if $(filter undefined,$(origin $(v))),,$(eval override $(v) := $$(value $(v)))$(eval export $(v))))
# VENV also names the file make checks (its stamp), so it is one word of plain path characters.
_PATH_CHARS := a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S T U V W X Y Z \
  0 1 2 3 4 5 6 7 8 9 . _ - / + ~ @ ,
_strip = $(if $2,$(call _strip,$(subst $(firstword $2),,$1),$(wordlist 2,$(words $2),$2)),$1)
ifneq ($(words $(VENV))$(call _strip,$(VENV),$(_PATH_CHARS)),1)
$(error VENV must be one path of letters, digits and . _ - / + ~ @ , (no spaces, quotes or $$); got '$(VENV)')
endif
STAMP := $(VENV)/.installed
# What recipes run, as shell words that read VENV from the environment.
BIN := "$$VENV/bin"
PY := $(BIN)/python

.PHONY: help venv chromium serve test test-fast test-targets update example offline zensical build lint format lock clean vendor bench

help:
	@echo "make serve    build the environment and serve the site on http://127.0.0.1:8000 (live reload); another port: make serve PORT=8001"
	@echo "make test     build the environment, install Chromium if missing, run the tests"
	@echo "make test-fast  the layers a page or a spec can fail (package, snippets, content), without the slow tests"
	@echo "make test-targets  the tests that run the README's other make targets (CI runs them after make test)"
	@echo "make update   regenerate recorded snippet outputs and generated tables"
	@echo "make example NAME=<slug> [TITLE=...] [FROM=<example>]  scaffold a worked example (see CONTRIBUTING.md)"
	@echo "make offline  build a copy of the site that works from disk (site-offline/)"
	@echo "make zensical build the site with Zensical (site-zensical/) and list what differs from MkDocs"
	@echo "make vendor   refresh the vendored KaTeX and iframe-worker (npm) in docs/assets/vendor/"
	@echo 'make bench    time the build, serve, tests, page loads, playground and growth; one table (about an hour); options in BENCH_ARGS: make bench BENCH_ARGS="--quick" (one run of each), not make bench --quick (an option of make itself)'

venv: $(STAMP)

# Re-install only when the pins or the project metadata change.
$(STAMP): requirements.lock pyproject.toml
	@test -x $(PY) || "$$PYTHON" -m venv "$$VENV"
	@if [ -n "$$TORCH_INDEX_URL" ]; then set -x; $(PY) -m pip install --quiet --disable-pip-version-check --no-deps \
	  --index-url "$$TORCH_INDEX_URL" "$$(grep -m1 '^torch==' requirements.lock)"; fi
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@# The library is installed (editable); the publishing tools (publish/) and the MkDocs hooks
	@# (publish/mkdocs/hooks/) are not part of it, and import from the repository's root: a .pth file
	@# puts that root on the venv's path, so `mkdocs` and `python -m publish` find them anywhere.
	$(PY) -c 'import os, pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()["purelib"], "selfattn-site-tools.pth").write_text(os.getcwd() + "\n")'
	@touch "$$VENV/.installed"

chromium:
	@if [ ! -x "$$CHROMIUM" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null; \
	  else echo "Chromium's headless shell is missing: run 'sudo apt-get install -y chromium-headless-shell' (Debian's package)"; exit 1; fi; \
	fi

# SITE_URL makes the local server put the site at / (the published site_url has a sub-path);
# NUMBERS_AUDIT_ON_PAGE shows a page's wrong numbers at its top, as well as in the log (publish/markdown/numbers_audit.py).
serve: venv
	@if ! [[ "$$PORT" =~ ^[1-9][0-9]{0,4}$$ ]] || (( PORT > 65535 )); then \
	  printf "PORT must be a port number from 1 to 65535, such as PORT=8001; got '%s'\n" "$$PORT"; exit 2; fi
	NUMBERS_AUDIT_ON_PAGE=true SITE_URL="http://127.0.0.1:$$PORT/" $(BIN)/mkdocs serve --dev-addr "127.0.0.1:$$PORT" --livereload

# Python may write its compiled bytecode (__pycache__/, gitignored) during the tests even where
# PYTHONDONTWRITEBYTECODE is set, as on CI's image: otherwise every worker and every build, update
# and snippet run that the tests start compiles the project's modules again, and pytest rewrites
# the test modules' assertions again in each worker.
test test-fast test-targets: export PYTHONDONTWRITEBYTECODE :=

# On every core (pytest-xdist); tests/conftest.py builds the site once for all workers, in the background.
# Every test but those that run the README's other make targets in a copy of the repository
# (tests/tools/test_make_targets.py, marked "targets"): `make test-targets` runs those, and CI both.
test: venv chromium
	$(PY) -m pytest -n auto --dist loadgroup -m "not targets"

# The suite's layers that a page or a spec can fail (tests/package, tests/snippets, tests/content)
# without those marked slow (mostly those that copy and build the project: the walk-through of
# docs/add-an-example.md, the strict build's bad links; also the wheel's contents; and every test of
# the built site, which tests/conftest.py marks slow: it waits for a build of the whole site), for
# quick iterations while writing a page or a spec (`mkdocs build --strict` checks that it builds). Left out: the browser layer (tests/browser) and the
# tests of the tools themselves (tests/tools: publish/, the notebooks' kernels, the Makefile, bench/),
# which no page or spec edit can fail; `make test` and CI run them all.
test-fast: venv
	$(PY) -m pytest -n auto --dist loadgroup -m "not slow" tests/package tests/snippets tests/content

# The README's make targets, each run for real (a few minutes, one after another).
test-targets: venv chromium
	$(PY) -m pytest -n auto --dist loadgroup -m targets

update: venv
	$(PY) -m publish update

# A new worked example: selfattn_ref/examples/<NAME>.toml and everything generated from it. NAME, TITLE
# and FROM are given to the command as they are (--title=..., and -- before the name: a value that
# starts with a dash is still a value), and it says what is wrong with them.
example: venv
	@if [ -z "$$NAME" ]; then echo "usage: make example NAME=<slug> [TITLE='A title'] [FROM=<example>]"; exit 2; fi
	@# make drops the spaces after the = of NAME=value on its command line: its own argv (Linux's /proc) says.
	@[ ! -r "/proc/$$PPID/cmdline" ] || while IFS= read -r -d '' arg; do 	  if [[ "$$arg" =~ ^(NAME|TITLE|FROM)=[[:space:]] ]]; then v="$${BASH_REMATCH[1]}"; 	    echo "$$v begins with a space, which make drops from a value given on its command line: give $$v without it (a value is taken as typed)"; exit 2; fi; 	done < "/proc/$$PPID/cmdline"
	@args=(); [ -z "$$TITLE" ] || args+=(--title="$$TITLE"); [ -z "$$FROM" ] || args+=(--from="$$FROM"); \
	  set -x; $(PY) -m publish new-example "$${args[@]}" -- "$$NAME"

build: venv
	$(BIN)/mkdocs build --strict

offline: venv
	OFFLINE=true $(BIN)/mkdocs build --strict --site-dir site-offline
	@echo "Open site-offline/index.html in a browser: pages, search, math and the playground work from disk."

# Material's successor, Zensical (pinned in requirements.lock), builds site-zensical/ from mkdocs.yml;
# publish/zensical_report.py builds the MkDocs site too and prints the gap (CONTRIBUTING.md).
# ZENSICAL_ARGS="--mkdocs-site site" compares with an MkDocs build already made instead (split into
# words at spaces, as BENCH_ARGS is).
zensical: venv
	set -f; $(PY) -m publish.zensical_report --site-dir site-zensical $$ZENSICAL_ARGS

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

lock: venv
	@{ head -3 requirements.lock; $(PY) -m pip freeze --exclude-editable | sed 's/^torch==\([0-9.]*\)+cpu/torch==\1/'; } > requirements.lock.new
	@mv requirements.lock.new requirements.lock

# Refresh the vendored KaTeX and iframe-worker from npm (versions pinned in the script); commit the result.
vendor:
	scripts/vendor_katex.sh

# Medians of several runs on this machine, each against its budget (bench/run.py: BENCH_ARGS="--quick"
# for one run of each, "--markdown PATH" to write the table for a note). BENCH_ARGS is split into
# words at spaces, and nothing else: no quote, $ or * in it means anything to the shell. Its Lighthouse
# figure needs node and npm (not part of the set-up) and installs Lighthouse into .cache/bench/ itself.
bench: venv chromium
	set -f; $(PY) bench/run.py $$BENCH_ARGS

clean:
	rm -rf site site-offline site-zensical .pytest_cache .hypothesis
