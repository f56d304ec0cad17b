#!/usr/bin/env bash
# Checks every importer mapping case against TensorFlow Lite: builds single-operator models with
# tflite_op_models and compares `nnapi run` with the TFLite reference on each
# (see compare_with_tflite.sh).
#
#   scripts/tflite_op_check.sh [--reference] [--tolerance T]
#
# Binaries come from $NNAPI_BUILD_DIR/bin (default build/bin).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${NNAPI_BUILD_DIR:-$ROOT/build}/bin"
[[ -x "$BIN/tflite_op_models" && -x "$BIN/nnapi" ]] || { echo "tflite_op_check: build tflite_op_models and nnapi in ${BIN%/bin}" >&2; exit 2; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
"$BIN/tflite_op_models" "$dir" >/dev/null
log="$dir/log"
status=0
NNAPI_BIN="$BIN/nnapi" "$ROOT/scripts/compare_with_tflite.sh" "$@" "$dir"/*.tflite >"$log" 2>&1 || status=1
grep -v "XNNPACK delegate" "$log" | grep -E "^==|FAIL|ERROR|nnapi:|tflite_reference:" | grep -B1 -E "FAIL|ERROR|nnapi:|tflite_reference:" || true
cases=$(grep -c "^==" "$log")
bad=$(awk '/^==/{n=$2} /FAIL|ERROR|nnapi:|tflite_reference:/{if (!(n in b)) {b[n]=1; c++}} END{print c+0}' "$log")
echo "tflite_op_check: $((cases - bad)) passed, $bad failed"
exit $status
