# Every target creates or reuses .venv and installs what it needs.
#
# Two environments: .venv, the development install (editable, always pure Python: an edit runs at
# once), and .venv-fast, the installed build users get (`make fast`): a regular install of this
# checkout, its engine compiled with mypyc when a C compiler is present, else pure Python (horde
# --version says which). .venv-fast reads .venv's third-party packages through a path file, so it
# costs only the build; it is rebuilt when a source changes, never edited in place. A third,
# .venv-check, is the same install with its C compiled at -O0: the compiled build make
# test-compiled tests (quicker to build; never benchmarked).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FAST := .venv-fast
FAST_STAMP := $(FAST)/.installed
CHECK := .venv-check
CHECK_STAMP := $(CHECK)/.installed
SOURCES := $(shell find horde -name '*.py' -not -path '*/__pycache__/*') $(shell find decks experiments -type f) setup.py
# What an install here builds: compiled when the C compiler setup.py would use is found (as setup.py decides).
EXPECTED = $(shell $(PYTHON) -c "import os, shlex, shutil, sysconfig; \
	print('compiled' if shutil.which(shlex.split(os.environ.get('CC') or sysconfig.get_config_var('CC') or 'cc')[0]) else 'pure')")
# The engine tests run on the installed build too (make test-compiled), with the pinned digest.
# make test runs the quick ones (the digest says the compiled build plays the same games); make
# test-full adds the slow ones, in full.
ENGINE_TESTS := tests/test_digest.py tests/test_build.py tests/test_shuffling.py tests/test_rules_core.py tests/test_rules_decks.py \
	tests/test_keywords.py tests/test_cards.py tests/test_boss.py tests/test_opponents.py \
	tests/test_lookahead.py::test_a_fork_plays_on_exactly_as_the_game
ENGINE_TESTS_SLOW := tests/test_conformance.py tests/test_expert.py \
	tests/test_runner.py::test_make_bench_prints_every_figure_and_a_consistent_projection

.PHONY: demo path test test-full test-compiled fast fuzz soak stress bench recovery lint clean

$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dask]'
	touch $(STAMP)

# An install of this checkout into $(1), its C compiled at -O$(2) (build.py; setup.py's HORDE_BUILD_OPT).
define INSTALL
	rm -rf $(1) build  # build/: no compiled module of an earlier build slips into this one
	$(BIN)/python -m venv --without-pip $(1)
	$(BIN)/python -c "import site; print(site.getsitepackages()[0])" \
		> $$($(1)/bin/python -c "import site; print(site.getsitepackages()[0])")/horde-dependencies.pth
	HORDE_BUILD_OPT=$(2) $(BIN)/python -m pip --python $(1)/bin/python install --quiet --no-deps --no-build-isolation .
	$(1)/bin/horde --version
	touch $(1)/.installed
endef

$(FAST_STAMP): $(STAMP) $(SOURCES) pyproject.toml
	$(call INSTALL,$(FAST),3)

# make test-compiled's build: the same mypyc translation, its C compiled at -O0 (gcc's work on it
# the least, docs/speed.md); horde --version says so.
$(CHECK_STAMP): $(STAMP) $(SOURCES) pyproject.toml
	$(call INSTALL,$(CHECK),0)

fast: $(FAST_STAMP)

demo: $(FAST_STAMP)
	$(FAST)/bin/horde simulate --games 10000 --seed 1 --players 4
	@$(MAKE) --no-print-directory path

# The one step that puts `horde` on PATH in this shell (the compiled build of make fast).
path:
	@echo "To run the README's horde commands, put horde on your PATH in this shell:"
	@echo "    source $(FAST)/bin/activate"

# The suite on the development install; then, when a C compiler is present, the engine tests on
# the compiled build (built once per change of the sources).
# --durations=25: the log names the slowest tests (docs/speed.md, "The suite's time"). loadgroup: tests
# go to the workers one by one, but for the files marked as one xdist group (their tests share work).
# The suite writes bytecode whatever PYTHONDONTWRITEBYTECODE says (PYTEST below): its hundreds of
# horde subprocesses (the command-line and fuzz tests) would otherwise compile the package's sources
# each time, and each worker rewrite every test module's asserts (about 0.4 s a process).
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest
test: $(STAMP)
	HORDE_SLOW_SCALE=$${HORDE_SLOW_SCALE:-0.1} $(PYTEST) -n auto --dist loadgroup --durations=25
	$(MAKE) test-compiled

test-full: $(STAMP)
	HORDE_SLOW_SCALE=1 $(PYTEST) -n auto --dist loadgroup --durations=25
	HORDE_SLOW_SCALE=1 $(MAKE) test-compiled ENGINE_TESTS="$(ENGINE_TESTS) $(ENGINE_TESTS_SLOW)"

# -P: the tests import the installed horde, not this checkout's sources. Without a C compiler the
# installed build is the pure Python the suite above has tested, and this is skipped.
test-compiled: $(CHECK_STAMP)
	@if [ "$(EXPECTED)" = pure ]; then echo "no C compiler: no compiled build to test"; exit 0; fi; \
	set -x; env -u PYTHONDONTWRITEBYTECODE HORDE_EXPECT_BUILD=compiled HORDE_SLOW_SCALE=$${HORDE_SLOW_SCALE:-0.1} $(CHECK)/bin/python -P -m pytest \
		-p no:cacheprovider -o addopts=-q -n auto --dist loadgroup --durations=10 $(ENGINE_TESTS)

# The fuzz suite in full (tests/test_fuzz.py; make test runs 168 cases, make test-full 336): damaged and hostile
# decklists, card files, experiment files, card indexes, results folders and command lines, each
# ending with exit 0 or 2, no traceback, none still running after 120 s (a hang; the suite sets no
# time limit), nothing written outside the results folder.
FUZZ_LOG := .fuzz-failures/log.tsv
fuzz: $(STAMP)
	mkdir -p .fuzz-failures && rm -f $(FUZZ_LOG)
	HORDE_FUZZ_LOG=$(CURDIR)/$(FUZZ_LOG) HORDE_FUZZ_CASES=$${HORDE_FUZZ_CASES:-2400} HORDE_FUZZ_SECONDS=$${HORDE_FUZZ_SECONDS:-120} \
		$(BIN)/python -m pytest -p no:cacheprovider -n auto tests/test_fuzz.py; \
		status=$$?; $(BIN)/python tests/test_fuzz.py $(FUZZ_LOG); exit $$status

# The extreme soak in full (tests/test_soak.py; CI plays a quarter of it): every preset and policy
# at extreme legal settings, the invariants checked after every step of every game.
SOAK_LOG := .soak-log.tsv
soak: $(STAMP)
	rm -f $(SOAK_LOG)
	HORDE_SOAK_LOG=$(CURDIR)/$(SOAK_LOG) HORDE_SLOW_SCALE=1 \
		$(BIN)/python -m pytest -p no:cacheprovider -n auto --dist load tests/test_soak.py; \
		status=$$?; $(BIN)/python tests/test_soak.py $(SOAK_LOG); exit $$status

# Stops of horde run on two workers, hundreds of them, while two processes keep the cores busy
# (tests/stress_stops.py; the suite runs a handful, tests/test_stops.py): SIGTERM at random
# moments and a disk that fills up (a real tmpfs where a mount namespace can be had, else ENOSPC
# injected at the writer), each ending with its one line and continued to the same files; it
# prints how each stop ended and how long each took to exit.
STRESS_LOG := .stress-log.tsv
stress: $(STAMP)
	$(BIN)/python tests/stress_stops.py --stops $${HORDE_STRESS_STOPS:-300} --load 2 --log $(STRESS_LOG)

bench: $(FAST_STAMP)
	$(FAST)/bin/python -P -m horde.lab.bench

# The recovery checks of calibrate, tune and doctor in full (docs/analysis.md, "Recovery"): 200
# seasons of 100 games at each secret skill, calibrated and tuned against the truth; a 30-game
# calibration timed twice; five doctor runs measured again. Hours on 2 cores the first time; the
# games cache of the data folder keeps every simulated game for the next run.
recovery: $(FAST_STAMP)
	$(FAST)/bin/python -P -m horde.lab.recovery --pool 1.4=1000,2=1000 --out recovery.json
	$(FAST)/bin/python -P -m horde.lab.recovery --timing
	$(FAST)/bin/python -P -m horde.lab.recovery --doctor

lint: $(STAMP)
	$(BIN)/ruff check horde tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) $(FAST) $(CHECK) build *.egg-info .pytest_cache .hypothesis
