#!/bin/sh
# Install Triadic from this unpacked tarball: the app folder, a `triadic` command, the desktop entry,
# the icon (PNG sizes + SVG) and the *.triadic.json file type.
#
#   ./install.sh                 for this user: ~/.local/lib/triadic, ~/.local/bin/triadic, ~/.local/share/...
#   ./install.sh --prefix DIR    elsewhere (e.g. sudo ./install.sh --prefix /usr/local for every user)
#   ./install.sh --uninstall     remove what an install with the same prefix put there
#
# Registers with the desktop where its tools are present (update-mime-database, update-desktop-database,
# gtk-update-icon-cache, xdg-mime); without them the files are in place and the desktop reads them at login.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX="${HOME}/.local"
ACTION=install
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX="$2"; shift 2 ;;
        --prefix=*) PREFIX="${1#--prefix=}"; shift ;;
        --uninstall) ACTION=uninstall; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
MIME_TYPE="application/x-triadic-workflow+json"
APP_DIR="$PREFIX/lib/triadic"
SHARE="$PREFIX/share"
ICONS="$SHARE/icons/hicolor"
SIZES="16 24 32 48 64 128 256 512"

have() { command -v "$1" >/dev/null 2>&1; }

refresh_desktop() {
    if have update-mime-database; then update-mime-database "$SHARE/mime" >/dev/null 2>&1 || true; fi
    if have update-desktop-database; then update-desktop-database -q "$SHARE/applications" 2>/dev/null || true; fi
    if have gtk-update-icon-cache && [ -f "$ICONS/index.theme" ]; then gtk-update-icon-cache -q -t -f "$ICONS" 2>/dev/null || true; fi
}

if [ "$ACTION" = uninstall ]; then
    rm -rf "$APP_DIR"
    rm -f "$PREFIX/bin/triadic" "$SHARE/applications/triadic.desktop" "$SHARE/mime/packages/triadic.xml" \
          "$ICONS/scalable/apps/triadic.svg"
    for size in $SIZES; do rm -f "$ICONS/${size}x${size}/apps/triadic.png"; done
    refresh_desktop
    echo "Triadic removed from $PREFIX (your workflows, settings and trace database are kept)."
    exit 0
fi

mkdir -p "$PREFIX/bin" "$PREFIX/lib" "$SHARE/applications" "$SHARE/mime/packages" "$ICONS/scalable/apps"
rm -rf "$APP_DIR.new"
cp -R "$HERE/triadic" "$APP_DIR.new"
rm -rf "$APP_DIR"
mv "$APP_DIR.new" "$APP_DIR"
ln -sf "$APP_DIR/triadic" "$PREFIX/bin/triadic"
sed "s|^Exec=triadic |Exec=\"$APP_DIR/triadic\" |" "$HERE/share/applications/triadic.desktop" \
    > "$SHARE/applications/triadic.desktop"
chmod 644 "$SHARE/applications/triadic.desktop"
cp "$HERE/share/mime/packages/triadic.xml" "$SHARE/mime/packages/triadic.xml"
cp "$HERE/share/icons/hicolor/scalable/apps/triadic.svg" "$ICONS/scalable/apps/triadic.svg"
for size in $SIZES; do
    mkdir -p "$ICONS/${size}x${size}/apps"
    cp "$HERE/share/icons/hicolor/${size}x${size}/apps/triadic.png" "$ICONS/${size}x${size}/apps/triadic.png"
done
refresh_desktop
if [ "$PREFIX" = "${HOME}/.local" ] && have xdg-mime; then
    xdg-mime default triadic.desktop "$MIME_TYPE" 2>/dev/null || true
fi
echo "Triadic installed in $APP_DIR"
echo "  command:  $PREFIX/bin/triadic   (try: triadic gui, triadic --version)"
echo "  desktop:  Triadic in the applications menu; *.triadic.json files open with it"
case ":${PATH:-}:" in
    *":$PREFIX/bin:"*) ;;
    *) echo "  note: $PREFIX/bin is not on your PATH; add it, or run $APP_DIR/triadic" ;;
esac
