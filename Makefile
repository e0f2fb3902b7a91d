# beyondfind — every command creates the virtual environment on first use.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SHARED ?= ../shared

.PHONY: setup demo test test-slow test-all browser bench eval clean

$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "needs $(PY) (set PY=python3 to use another interpreter)"; exit 1; }
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP) browser

# Debian's Chromium for the end-to-end tests (no browser download is possible on these machines)
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null; fi; fi

demo: $(STAMP)
	$(BIN)/beyondfind demo

test: $(STAMP) browser
	BEYONDFIND_SHARED=$(SHARED) $(BIN)/python -m pytest -q -m "not slow"

# the slow tests alone (CI runs them after `make test`): `beyondfind nlp train` end to end, ~3 min
test-slow: $(STAMP) browser
	BEYONDFIND_SHARED=$(SHARED) $(BIN)/python -m pytest -q -m slow

test-all: $(STAMP) browser
	BEYONDFIND_SHARED=$(SHARED) $(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py --shared $(SHARED)

eval: $(STAMP)
	$(BIN)/beyondfind eval books --judgments $(SHARED)/data/judgments/books --judgments $(SHARED)/data/judgments/places
	$(BIN)/beyondfind eval news --judgments $(SHARED)/data/judgments/news

clean:
	rm -rf $(VENV) build reports .pytest_cache
