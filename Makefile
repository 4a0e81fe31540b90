# Everything runs from a virtual environment that these targets create and keep in sync with the locked
# versions in requirements/ (made from pyproject.toml by `make lock`): `make run` installs only what the bot
# needs (requirements/bot.txt), the other targets the developer tools too (requirements/dev.txt).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
BOT    := $(VENV)/.installed-bot
STAMP  := $(VENV)/.installed-dev
LOCK   := $(PY) -m uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --quiet \
          --custom-compile-command "make lock"

.PHONY: run test browser play bench lint clean messages lock mutate

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(BOT): requirements/bot.txt pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements/bot.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(BOT)

$(STAMP): requirements/dev.txt pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements/dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(BOT) $(STAMP)

run: $(BOT)            ## run the Discord bot (token from .env or the environment)
	$(PY) -m bot

test: $(STAMP) browser ## run the whole test suite (engines and their contract, renderers, storage, commands, crashes)
	$(PY) tools/run_tests.py

# The match page's browser test drives Debian's headless Chromium and its driver (no browser downloads): installed
# with apt-get where that is possible (as root on Debian, as CI runs); elsewhere that test fails saying what to install.
browser:
	@test -x /usr/bin/chromium -a -x /usr/bin/chromedriver || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] \
	  && apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null; } \
	  || echo "make: Debian's chromium and chromium-driver are missing; the browser test will say how to install them"

play: $(BOT)           ## play in the terminal: make play GAME=tintas
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

lock: $(STAMP)         ## re-lock requirements/*.txt after a change of pyproject.toml's dependencies
	$(LOCK) -o requirements/bot.txt
	$(LOCK) --extra dev -o requirements/dev.txt

messages: $(STAMP)     ## extract every player-facing text (code, command tree, game summaries) and update bot/locale/*.po
	$(PY) tools/messages.py
