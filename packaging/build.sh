#!/usr/bin/env bash
# `make package`: every artifact into dist/ from the hash-locked build venv (.venv-package, made from
# requirements/package.lock by the Makefile):
#   dist/triadic-<version>-py3-none-any.whl, dist/triadic-<version>.tar.gz        wheel and sdist
#   dist/triadic-<version>-linux-<arch>.tar.gz                                      the desktop bundle:
#       triadic/ (PyInstaller one-folder app), install.sh, share/ (desktop entry, icons, MIME type)
#   dist/triadic-<version>-linux-<arch>.files     the bundle's sorted file list (reproducibility check)
#   dist/SHA256SUMS
# Every file gets the last commit's time (SOURCE_DATE_EPOCH) and the tarball is written in name order
# with neutral owners, so the same tree and lock give the same file list (compared with the previous
# build's list when there is one). The version and git commit are stamped into app/build_info.json for
# the build (packaging/stamp_build.py) and removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv-package/bin/python}
ARCH=$(uname -m)
VERSION=$("$PY" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
NAME="triadic-$VERSION-linux-$ARCH${FLAVOUR:-}"  # FLAVOUR=-local: `make package-local`
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
export LITELLM_LOCAL_MODEL_COST_MAP=True PYTHONHASHSEED=0 PYTHONPATH="$PWD"
STAGE=build/stage/$NAME
t0=$(date +%s)
phase() { echo "== $1 ($(( $(date +%s) - t0 )) s, load $(cut -d' ' -f1-3 /proc/loadavg))"; }

trap '"$PY" packaging/stamp_build.py --remove' EXIT
"$PY" packaging/stamp_build.py
mkdir -p dist build  # a fresh clone has neither (both are ignored by git)
[ -f "dist/$NAME.files" ] && mv "dist/$NAME.files" "build/previous.files" || rm -f build/previous.files
rm -rf "dist/$NAME.tar.gz" dist/triadic-*.whl "dist/triadic-$VERSION.tar.gz" dist/SHA256SUMS build/lib build/stage

phase "wheel and sdist"
"$PY" -m build --no-isolation --outdir dist . >build/wheel.log 2>&1 || { cat build/wheel.log; exit 1; }
# setuptools leaves triadic.egg-info in the checkout; importlib.metadata would read its (build-time)
# requirements before the venv's own, e.g. in tests/test_declared_dependencies.py
rm -rf triadic.egg-info

phase "bundle (PyInstaller)"
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN --distpath build/pyinstaller/dist \
    --workpath build/pyinstaller/work packaging/triadic.spec

phase "strip (all but auditwheel's vendored libraries)"
# Stripping a library auditwheel's patchelf rewrote (vendored in <pkg>.libs/, as numpy's wheel vendors OpenBLAS)
# breaks it ("ELF load command address/offset not page-aligned"); the extensions that link them strip fine.
# No bundled package vendors one today (the bundle's numpy is built without BLAS: numpy_without_blas.sh).
find build/pyinstaller/dist/triadic -type f \( -name '*.so' -o -name '*.so.*' \) ! -path '*.libs/*' -print0 |
    while IFS= read -r -d '' lib; do strip --strip-unneeded "$lib" 2>/dev/null || true; done

# Their static symbol tables go without moving what the loader maps (packaging/strip_vendored.py)
find build/pyinstaller/dist/triadic -type f -path '*.libs/*' -name '*.so*' -print0 | LC_ALL=C sort -z |
    xargs -0 -r "$PY" packaging/strip_vendored.py

# litellm reads this list (1.3 MB) only to tell a Hugging Face embedding model's task, and answers
# "text-generation-inference" for a model that is not in it too: only the names its next test
# ("roneneldan/TinyStories" in the name) would answer otherwise change the answer, so they stay (none
# in litellm 1.106.2: the file is left empty, and the answer is the same for every model).
HF_TGI=build/pyinstaller/dist/triadic/_internal/litellm/llms/huggingface/huggingface_llms_metadata/hf_text_generation_models.txt
grep 'roneneldan/TinyStories' "$HF_TGI" >"$HF_TGI.kept" || true
mv "$HF_TGI.kept" "$HF_TGI"

# PyInstaller links Qt's libraries at the top level too; the link of one the spec dropped (QtNetwork's) dangles
find build/pyinstaller/dist/triadic -xtype l -delete

phase "ICU data without the display-name tables (packaging/trim_icu.py)"
"$PY" packaging/trim_icu.py build/pyinstaller/dist/triadic

phase "tarball"
mkdir -p "$STAGE/share/applications" "$STAGE/share/mime/packages" "$STAGE/share/icons/hicolor/scalable/apps"
cp -R build/pyinstaller/dist/triadic "$STAGE/triadic"
cp packaging/install.sh "$STAGE/install.sh"
cp packaging/triadic.desktop "$STAGE/share/applications/triadic.desktop"
cp packaging/triadic-mime.xml "$STAGE/share/mime/packages/triadic.xml"
cp resources/icons/triadic.svg "$STAGE/share/icons/hicolor/scalable/apps/triadic.svg"
for png in resources/icons/triadic-*.png; do
    size=$(basename "$png" .png); size=${size#triadic-}
    mkdir -p "$STAGE/share/icons/hicolor/${size}x${size}/apps"
    cp "$png" "$STAGE/share/icons/hicolor/${size}x${size}/apps/triadic.png"
done
(cd build/stage && find "$NAME" -print0 | LC_ALL=C sort -z | tar --null --no-recursion -T - \
    --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -cf - | gzip -n -6 >"../../dist/$NAME.tar.gz")
(cd build/stage && find "$NAME" ! -type d | LC_ALL=C sort) >"dist/$NAME.files"
(cd dist && sha256sum ./*.whl ./*.tar.gz >SHA256SUMS)

phase "done"
du -sh "$STAGE/triadic" | sed 's/^/bundle unpacked: /'
ls -l dist
if [ -f build/previous.files ]; then
    if cmp -s build/previous.files "dist/$NAME.files"; then
        echo "file list: the same as the previous build ($(wc -l <"dist/$NAME.files") files)"
    else
        echo "file list: DIFFERS from the previous build:"; { diff build/previous.files "dist/$NAME.files" || true; } | head -20
    fi
fi
