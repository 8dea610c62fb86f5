#!/usr/bin/env bash
# `make package-check`: prove that what `make package` put in dist/ installs and starts on its own.
#
# 1. The bundle tarball: unpacked and installed with its install.sh into a scratch prefix; the desktop
#    entry is validated (desktop-file-validate, where installed) and the MIME type registered.
# 2. The wheel: a fresh venv from requirements/runtime.lock (--require-hashes), then the wheel without
#    extra resolution; `pip check` proves the wheel's declared dependencies are all there.
# For each: run in a clean environment — `env -i` with only HOME, PATH=/usr/bin:/bin, LANG, TMPDIR (no
# venv, no PYTHONPATH, no network use) — `triadic --version`, `triadic self-test` (resources, tokenizer
# files, price map, litellm's lazy import, a priced call through litellm, Qt plugins, the local model when
# built in), `triadic run` of every bundled example offline, and the GUI on the triad example under
# Xvfb (a screenshot per artifact in build/package-check/; skipped, saying so, without Xvfb).
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PYTHON=${PYTHON:-python3}
VERSION=$(grep -m1 '^version' pyproject.toml | cut -d'"' -f2)
FLAVOUR=${FLAVOUR:-}  # "-local": the bundle of `make package-local`, whose self-test requires the local model
NAME="triadic-$VERSION-linux-$(uname -m)$FLAVOUR"
OUT=build/package-check
WORK=$(mktemp -d /tmp/triadic-check.XXXXXX)
XVFB_PID=""
cleanup() { [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
mkdir -p "$OUT" "$WORK/home" "$WORK/tmp"
clean_env() { env -i HOME="$WORK/home" PATH=/usr/bin:/bin LANG=C.UTF-8 TMPDIR="$WORK/tmp" "$@"; }
step() { echo "== $*"; }
PASSED=0
ok() { echo "ok   $*"; PASSED=$((PASSED + 1)); }

start_xvfb() {
    for tool in Xvfb xdotool xwd /usr/bin/convert; do command -v "$tool" >/dev/null || return 0; done
    for n in $(seq 151 199); do [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { DISPLAY_NUM=$n; break; }; done
    Xvfb ":$DISPLAY_NUM" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
    XVFB_PID=$!
    for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$DISPLAY_NUM" ] && return 0; sleep 0.1; done
    echo "Xvfb did not start" >&2; return 1
}

check_gui() {  # $1 label, $2 triadic command, $3 example: window shown (timed), then a screenshot
    local label=$1 triadic=$2 example=$3 shown
    if [ -z "$XVFB_PID" ]; then echo "skip gui: no Xvfb (apt-get install xvfb x11-apps xdotool imagemagick)"; return 0; fi
    shown=$(clean_env DISPLAY=":$DISPLAY_NUM" QT_QPA_PLATFORM=xcb TRIADIC_QUIT_AFTER_SHOW=1 \
            TRIADIC_T0="$(date +%s.%N)" timeout 120 "$triadic" gui "$example" | tail -1)
    ok "gui: window shown: $shown"
    clean_env DISPLAY=":$DISPLAY_NUM" QT_QPA_PLATFORM=xcb "$triadic" gui "$example" >"$WORK/gui.log" 2>&1 &
    local pid=$!
    DISPLAY=":$DISPLAY_NUM" timeout 60 xdotool search --sync --onlyvisible --name "Triadic" >/dev/null
    sleep 2
    DISPLAY=":$DISPLAY_NUM" xwd -root -silent | /usr/bin/convert xwd:- "$OUT/$label.png"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    ok "gui: screenshot $OUT/$label.png"
}

check_triadic() {  # $1 label, $2 triadic command, $3 folder of the bundled examples
    local label=$1 triadic=$2 examples=$3 db="$WORK/$1.db"
    step "$label: --version, self-test, every example, gui"
    clean_env "$triadic" --version | tee "$WORK/version.txt"
    if grep -q unknown "$WORK/version.txt"; then echo "FAIL version or commit not stamped"; return 1; fi
    ok "version and commit stamped"
    if [ "$label" = bundle ] && [ -n "$FLAVOUR" ]; then clean_env "$triadic" self-test --local; else clean_env "$triadic" self-test; fi
    ok "self-test ($label)"
    local count=0
    for example in "$examples"/*.triadic.json; do
        clean_env "$triadic" run "$example" --quiet --auto-approve --db "$db" >"$WORK/run.log" 2>&1 \
            || { cat "$WORK/run.log"; echo "FAIL run $(basename "$example")"; return 1; }
        ok "run $(basename "$example"): $(grep -m1 -i 'succeeded\|status' "$WORK/run.log" || echo done)"
        count=$((count + 1))
    done
    [ "$count" -gt 0 ] || { echo "FAIL no bundled examples in $examples"; return 1; }
    check_gui "$label" "$triadic" "$examples/triad.triadic.json"
}

start_xvfb

step "bundle: unpack dist/$NAME.tar.gz and install it"
tar -xzf "dist/$NAME.tar.gz" -C "$WORK"
tar -tzf "dist/$NAME.tar.gz" | grep -v '/$' | LC_ALL=C sort | diff -q - "dist/$NAME.files" >/dev/null \
    || { echo "FAIL the tarball's files differ from dist/$NAME.files"; exit 1; }
du -sh "$WORK/$NAME/triadic" | sed 's/^/bundle unpacked: /'
PREFIX="$WORK/prefix"
clean_env sh "$WORK/$NAME/install.sh" --prefix "$PREFIX"
for f in bin/triadic share/applications/triadic.desktop share/mime/packages/triadic.xml \
         share/icons/hicolor/scalable/apps/triadic.svg share/icons/hicolor/256x256/apps/triadic.png; do
    [ -e "$PREFIX/$f" ] || { echo "FAIL install.sh did not install $f"; exit 1; }
done
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$PREFIX/share/applications/triadic.desktop"; ok "desktop entry valid"; fi
EXEC=$(sed -n 's/^Exec="\([^"]*\)" gui %f$/\1/p' "$PREFIX/share/applications/triadic.desktop")
[ "$EXEC" = "$PREFIX/lib/triadic/triadic" ] && clean_env "$EXEC" --version >/dev/null \
    && ok "desktop entry launches the bundle: Exec=\"$EXEC\" gui %f" || { echo "FAIL desktop entry Exec"; exit 1; }
if command -v update-mime-database >/dev/null; then
    grep -q "application/x-triadic-workflow+json" "$PREFIX/share/mime/globs2" && ok "MIME type registered (*.triadic.json)"
fi
# The bundle leaves the desktop's own libraries to the host (packaging/README.md ▸ What the host must have):
# every library in it must resolve here with only the bundle's folders added (Qt's Wayland platform, the one
# part that linked libwayland-*, is not in the bundle).
LIBDIRS=$(find "$PREFIX/lib/triadic/_internal" -name '*.so*' -printf '%h\n' | sort -u | paste -sd:)
UNRESOLVED=$(find "$PREFIX/lib/triadic/_internal" -name '*.so*' -type f -exec env -i LD_LIBRARY_PATH="$LIBDIRS" ldd {} + \
    2>/dev/null | grep 'not found' | sort -u || true)
[ -z "$UNRESOLVED" ] || { echo "FAIL libraries the host lacks:"; echo "$UNRESOLVED"; exit 1; }
ok "every bundled library resolves against this host's system libraries"
check_triadic bundle "$PREFIX/bin/triadic" "$PREFIX/lib/triadic/_internal/resources/examples"
step "bundle: cold start to the window shown, vs \`make run\` (.venv) when there is one"
VENV_TRIADIC=""; [ -x .venv/bin/triadic ] && VENV_TRIADIC=.venv/bin/triadic
"$PYTHON" packaging/measure_startup.py "$PREFIX/bin/triadic" $VENV_TRIADIC | tee "$OUT/startup$FLAVOUR.jsonl"
clean_env sh "$WORK/$NAME/install.sh" --prefix "$PREFIX" --uninstall
[ ! -e "$PREFIX/bin/triadic" ] && [ ! -e "$PREFIX/lib/triadic" ] && ok "uninstall removed the app"

if [ -n "$FLAVOUR" ]; then echo "(bundle$FLAVOUR only; the wheel is checked without FLAVOUR)"; echo "package-check: $PASSED passed, 0 failed"; exit 0; fi
step "wheel: fresh venv from requirements/runtime.lock, then dist/triadic-$VERSION-py3-none-any.whl"
"$PYTHON" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
    -r requirements/runtime.lock 2>&1 | grep -v "^WARNING: Location" || true
"$WORK/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "dist/triadic-$VERSION-py3-none-any.whl"
"$WORK/venv/bin/python" -m pip check
SITE=$("$WORK/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
check_triadic wheel "$WORK/venv/bin/triadic" "$SITE/resources/examples"
echo "package-check: $PASSED passed, 0 failed"
