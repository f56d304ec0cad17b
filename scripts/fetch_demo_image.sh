#!/usr/bin/env bash
# Fetches the demo photograph: astronaut.png (Eileen Collins, NASA; scikit-image's docstring for
# skimage.data.astronaut says "No known copyright restrictions, released into the public
# domain") from Debian's python3-skimage package. The package is downloaded with
# `apt-get download` and unpacked with `dpkg-deb -x` into a temporary directory -- it is not
# installed -- and only the picture (plus the package's copyright file) is kept.
# Idempotent. Prints the image's path on stdout; messages go to stderr; exit 1 if it cannot be
# fetched.
#
# Usage: scripts/fetch_demo_image.sh [CACHE_DIR]   (default: <repo>/.cache/images)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${1:-$ROOT/.cache/images}"
PKG=python3-skimage
INNER=usr/lib/python3/dist-packages/skimage/data/astronaut.png
out="$DEST/astronaut.png"

# A PNG starts with \x89PNG.
is_png() { [[ -s "$1" ]] && [[ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" == '211PNG' ]]; }

if is_png "$out"; then
  echo "$out"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
  echo "fetch_demo_image: apt-get/dpkg-deb not found: cannot fetch $PKG (a Debian system is needed)" >&2
  exit 1
fi
mkdir -p "$DEST"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"  # apt-get download runs as _apt where it can
echo "fetch_demo_image: apt-get download $PKG" >&2
if ! (cd "$tmp" && apt-get download -qq "$PKG" >&2); then
  # Containers often ship without package lists: refresh them once (as root or with sudo).
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo -n"
  echo "fetch_demo_image: retrying after apt-get update" >&2
  if ! $SUDO apt-get update -qq >&2 || ! (cd "$tmp" && apt-get download -qq "$PKG" >&2); then
    echo "fetch_demo_image: apt-get download $PKG failed" >&2
    exit 1
  fi
fi
deb="$(ls "$tmp"/*.deb)"
dpkg-deb -x "$deb" "$tmp/x"
if ! is_png "$tmp/x/$INNER"; then
  echo "fetch_demo_image: $(basename "$deb") has no $INNER" >&2
  exit 1
fi
cp "$tmp/x/usr/share/doc/$PKG/copyright" "$DEST/astronaut.copyright" 2>/dev/null || true
cp "$tmp/x/$INNER" "$out.part" && mv "$out.part" "$out"
echo "fetch_demo_image: $out (from $(basename "$deb"))" >&2
echo "$out"
