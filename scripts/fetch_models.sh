#!/usr/bin/env bash
# Fetches the MediaPipe .tflite models used by the tflite importer tests and benchmarks.
# They ship inside the npm packages of the MediaPipe JS solutions, so `npm pack` is the only
# network access needed (no model hub).  Idempotent: a model already in models/ is kept.
#
# Usage: scripts/fetch_models.sh [DEST_DIR]   (default: <repo>/models)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${1:-$ROOT/models}"
mkdir -p "$DEST"

# package -> models expected inside it (a package is only fetched if one of them is missing)
declare -A WANT=(
  ["@mediapipe/face_detection"]="face_detection_short_range.tflite face_detection_full_range.tflite"
  ["@mediapipe/hands"]="hand_landmark_lite.tflite hand_landmark_full.tflite"
  ["@mediapipe/pose"]="pose_landmark_lite.tflite pose_landmark_full.tflite pose_landmark_heavy.tflite"
  ["@mediapipe/selfie_segmentation"]="selfie_segmentation.tflite selfie_segmentation_landscape.tflite"
)

if ! command -v npm >/dev/null 2>&1; then
  echo "fetch_models: npm not found (apt-get install -y npm)" >&2
  exit 1
fi

status=0
for pkg in "${!WANT[@]}"; do
  missing=0
  for m in ${WANT[$pkg]}; do
    [[ -s "$DEST/$m" ]] || missing=1
  done
  if [[ $missing -eq 0 ]]; then
    echo "fetch_models: $pkg: all models present"
    continue
  fi
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  echo "fetch_models: $pkg: npm pack"
  if ! tarball="$(cd "$tmp" && npm pack --silent "$pkg" 2>/dev/null | tail -n1)" || [[ ! -s "$tmp/$tarball" ]]; then
    echo "fetch_models: $pkg: npm pack failed" >&2
    status=1
    rm -rf "$tmp"
    continue
  fi
  tar -xzf "$tmp/$tarball" -C "$tmp"
  # Every .tflite in the package is taken, not only the expected ones, so new variants show up.
  while IFS= read -r -d '' f; do
    name="$(basename "$f")"
    if [[ -s "$DEST/$name" ]]; then
      continue
    fi
    cp "$f" "$DEST/$name.part" && chmod 0644 "$DEST/$name.part" && mv "$DEST/$name.part" "$DEST/$name"
    echo "fetch_models:   $name ($(stat -c %s "$DEST/$name") bytes)"
  done < <(find "$tmp/package" -name '*.tflite' -print0)
  for m in ${WANT[$pkg]}; do
    if [[ ! -s "$DEST/$m" ]]; then
      echo "fetch_models: $pkg: expected $m not found in the package" >&2
      status=1
    fi
  done
  rm -rf "$tmp"
  trap - EXIT
done
exit $status
