#!/usr/bin/env bash
# Build Triadic's wheel and sdist into dist/ with the pinned tools from the project's venv.
# Usage: packaging/build-wheel.sh   (run `make test` or any make target first so .venv exists)
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m build --no-isolation --outdir dist .
ls -l dist
