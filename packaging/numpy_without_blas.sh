#!/usr/bin/env bash
# The bundle's numpy, built from its source without BLAS or LAPACK, into a build venv (run by the Makefile
# after the venv's lock is installed): `packaging/numpy_without_blas.sh VENV LOCK`.
#
# Every numpy wheel on PyPI links OpenBLAS (numpy.libs: 25 MB, plus gfortran and quadmath 3 MB). Nothing in
# Triadic needs fast linear algebra: pyqtgraph's plots and the canvas's density image do element-wise
# arithmetic, histograms and a few small products. numpy's own fallback loops (matmul) and lapack_lite
# (numpy.linalg) serve them; `triadic self-test` computes a product and a solve through them. Without CPU
# dispatch (the x86-64-v2 baseline only: SSE4.2) and numpy's tests the build takes ~5 min of CPU (8.4 min
# wall at load 6 here; with the AVX2/AVX-512 loops it took 16.5 min at load 8) and numpy is 9.3 MB in the
# bundle instead of 14.5; the arrays here are too small for the wider loops to matter.
#
# The source is the lock's numpy (pip checks the sdist's hash against it); the build tools are the lock's
# too (meson-python, meson, Cython, ninja: no build isolation). The wheel is kept in build/numpy-without-blas/
# under a key of the requirement (pin, hashes, options) and the Python version, so only a changed pin
# rebuilds; pip's own wheel cache is not used (it answers with a numpy built with other options).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:?usage: numpy_without_blas.sh VENV LOCK}
LOCK=${2:?usage: numpy_without_blas.sh VENV LOCK}
# (in the requirement line: pip applies command-line --config-settings to no requirement read from a file)
OPTIONS=(setup-args=-Dblas=none setup-args=-Dlapack=none setup-args=-Dallow-noblas=true
         setup-args=-Dcpu-dispatch=none "setup-args=-Dtest-simd=[]" setup-args=-Ddisable-svml=true
         install-args=--tags=runtime,python-runtime)
CACHE=build/numpy-without-blas
mkdir -p "$CACHE"
# the numpy pin and its hashes, as the lock has them (the lines up to the first one not continued), with the options
awk '/^numpy==/{on=1} on{print; if ($0 !~ /\\$/) exit}' "$LOCK" >"$CACHE/pin.txt"
grep -q '^numpy==' "$CACHE/pin.txt" || { echo "numpy_without_blas: no numpy pin in $LOCK" >&2; exit 1; }
{ head -n 1 "$CACHE/pin.txt"; printf '    --config-settings=%s \\\n' "${OPTIONS[@]}"; tail -n +2 "$CACHE/pin.txt"; } \
    >"$CACHE/requirement.txt"
KEY=$({ cat "$CACHE/requirement.txt"; "$VENV/bin/python" -VV; } | sha256sum | cut -c1-16)
WHEELS=$CACHE/$KEY
if ! compgen -G "$WHEELS/numpy-*.whl" >/dev/null; then
    echo "numpy_without_blas: building numpy from source (~5 min of CPU), log in $CACHE/build.log"
    rm -rf "$WHEELS.partial"
    # the venv's cython and ninja must be found as programs
    PATH="$(cd "$VENV/bin" && pwd):$PATH" "$VENV/bin/python" -m pip wheel --verbose --no-cache-dir --no-deps \
        --no-build-isolation --no-binary numpy --require-hashes -r "$CACHE/requirement.txt" -w "$WHEELS.partial" >"$CACHE/build.log" 2>&1 ||
        { tail -40 "$CACHE/build.log"; exit 1; }
    mv "$WHEELS.partial" "$WHEELS"
fi
"$VENV/bin/python" -m pip install --quiet --no-deps --no-index --force-reinstall "$WHEELS"/numpy-*.whl
