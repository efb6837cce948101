# The two set-up commands of the README. Each creates .venv and installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_STAMP := $(VENV)/.installed-demo

.PHONY: demo test chat lint clean screenshots

# Each target installs only what it needs: the demo its extra (server and Streamlit), the
# tests everything (all extras and the dev tools). A stamp per install, redone when
# pyproject.toml changes.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(DEMO_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[demo]'
	touch $(DEMO_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/python -m demo_app

chat: $(DEMO_STAMP)
	$(BIN)/mock-account chat

# On every core (pytest-xdist; the order of the long tests is in tests/conftest.py), then
# the browser walks alone: they time the demo's first paint, which must not share the CPU.
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadgroup -m "not browser" --durations=25
	$(BIN)/python -m pytest -q -m browser

# The README's screenshots (docs/images/), taken by the browser walk of the demo's first
# five minutes, so they show the demo as it is.
screenshots: $(STAMP)
	DEMO_SCREENSHOTS=docs/images $(BIN)/python -m pytest -q tests/demo_app/test_demo_five_minutes.py

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) data .pytest_cache
