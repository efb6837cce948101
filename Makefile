# The two set-up commands of the README. Each creates .venv and installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test chat lint clean screenshots

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m demo_app

chat: $(STAMP)
	$(BIN)/mock-account chat

test: $(STAMP)
	$(BIN)/python -m pytest -q

# The README's screenshots (docs/images/), taken by the browser walk of the demo's first
# five minutes, so they show the demo as it is.
screenshots: $(STAMP)
	DEMO_SCREENSHOTS=docs/images $(BIN)/python -m pytest -q tests/demo_app/test_demo_five_minutes.py

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) data .pytest_cache
