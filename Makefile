# Every target creates or reuses .venv and installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-full fuzz soak bench lint spike clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dask]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/horde simulate --games 10000 --seed 1 --players 4

test: $(STAMP)
	HORDE_SLOW_SCALE=$${HORDE_SLOW_SCALE:-0.25} $(BIN)/python -m pytest -n auto --dist loadfile

test-full: $(STAMP)
	HORDE_SLOW_SCALE=1 $(BIN)/python -m pytest -n auto --dist loadfile

# The fuzz suite in full (tests/test_fuzz.py; CI runs about 340 cases): damaged and hostile
# decklists, card files, experiment files, card indexes, results folders and command lines, each
# ending with exit 0 or 2, no traceback, no timeout, nothing written outside the results folder.
FUZZ_LOG := .fuzz-failures/log.tsv
fuzz: $(STAMP)
	mkdir -p .fuzz-failures && rm -f $(FUZZ_LOG)
	HORDE_FUZZ_LOG=$(CURDIR)/$(FUZZ_LOG) HORDE_FUZZ_CASES=$${HORDE_FUZZ_CASES:-2400} \
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

bench: $(STAMP)
	$(BIN)/python -m horde.bench

lint: $(STAMP)
	$(BIN)/ruff check horde tests spikes
	$(BIN)/mypy

# The native-core spike (docs/speed.md): build the C++ prototype, check it against CPython's
# random.Random and the Python engine, and time it. Not needed by test, demo or the package.
$(VENV)/.spike: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,dask,spike]'
	touch $(VENV)/.spike

spike: $(VENV)/.spike
	$(BIN)/python spikes/native/build.py
	$(BIN)/python -m pytest -p no:cacheprovider -m native tests/test_native_spike.py
	$(BIN)/python spikes/native/bench.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis spikes/native/*.so
