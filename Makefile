# Everything runs from a virtual environment that these targets create and keep in sync with pyproject.toml.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test play bench lint clean messages mutate

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

run: $(STAMP)          ## run the Discord bot (token from .env or the environment)
	$(PY) -m bot

test: $(STAMP)         ## run the whole test suite (engines and their contract, renderers, storage, commands, crashes)
	$(PY) -m pytest

play: $(STAMP)         ## play in the terminal: make play GAME=tintas
	$(PY) -m bot play $(or $(GAME),tintas)

bench: $(STAMP)        ## print speed figures for every registered game
	$(PY) bench/bench_games.py

mutate: $(STAMP)       ## remove each critical guard (tools/guards.toml) in a copy of the tree: its tests must fail
	$(PY) tools/mutate_guards.py $(MUTATE_ARGS)

lint: $(STAMP)         ## ruff, the type checker over every package, and the layer contracts
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis

messages: $(STAMP)     ## extract every player-facing text (code, command tree, game summaries) and update bot/locale/*.po
	$(PY) tools/messages.py
