#!/usr/bin/env bash
# Compares `nnapi run` against TensorFlow Lite on the same random inputs.
#
#   scripts/compare_with_tflite.sh [--reference] [--tolerance T] MODEL.tflite...
#
# TensorFlow Lite comes from the npm package @tensorflow/tfjs-tflite (its WebAssembly build runs
# under node); it is fetched once with `npm pack` into models/.tfjs-tflite. The nnapi binary is
# $NNAPI_BIN, else build/bin/nnapi. Exit status is non-zero if any model differs by more than the
# tolerance (relative L2 error per output, default 1e-3) or fails to run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NNAPI_BIN="${NNAPI_BIN:-$ROOT/build/bin/nnapi}"
TFJS_DIR="$ROOT/models/.tfjs-tflite"
tol=1e-3
extra=()
models=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --reference) extra+=(--reference); shift ;;
    --device) extra+=(--device "$2"); shift 2 ;;
    --tolerance) tol="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) models+=("$1"); shift ;;
  esac
done
[[ ${#models[@]} -gt 0 ]] || { echo "usage: $0 [--reference] [--tolerance T] MODEL.tflite..." >&2; exit 2; }
[[ -x "$NNAPI_BIN" ]] || { echo "compare_with_tflite: $NNAPI_BIN not built (set NNAPI_BIN)" >&2; exit 2; }
command -v node >/dev/null || { echo "compare_with_tflite: node not found" >&2; exit 2; }

if [[ ! -s "$TFJS_DIR/package/wasm/tflite_web_api_cc.wasm" ]]; then
  mkdir -p "$TFJS_DIR"
  tarball="$(cd "$TFJS_DIR" && npm pack --silent @tensorflow/tfjs-tflite | tail -n1)"
  tar -xzf "$TFJS_DIR/$tarball" -C "$TFJS_DIR"
  rm -f "$TFJS_DIR/$tarball"
fi

status=0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for m in "${models[@]}"; do
  name="$(basename "$m" .tflite)"
  echo "== $name"
  if ! "$NNAPI_BIN" run "$m" "${extra[@]}" --output-dir "$work/$name" > "$work/$name.log" 2>&1; then
    cat "$work/$name.log" >&2
    status=1
    continue
  fi
  node "$ROOT/scripts/tflite_reference.js" "$TFJS_DIR/package/wasm" "$m" "$work/$name" "$tol" || status=1
done
exit $status
