#!/bin/sh
# The shipped library on an older x86-64: runs the nnapi CLI and a conformance subset under
# `qemu-x86_64 -cpu Nehalem` (SSE4.2, no AVX) and compares with the same runs on this machine.
#   qemu_smoke.sh BUILD_BIN_DIR SOURCE_DIR
# The reference device must give identical bytes (same code, no ISA-specific path); the fast
# device within a relative L2 error of 1e-4 (XNNPACK picks other kernels for that CPU).
set -u
bin=${1:?usage: qemu_smoke.sh BUILD_BIN_DIR SOURCE_DIR}
src=${2:?usage: qemu_smoke.sh BUILD_BIN_DIR SOURCE_DIR}
qemu="qemu-x86_64 -cpu Nehalem"
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
    echo "qemu_smoke: qemu-x86_64 not installed (apt-get install qemu-user)"
    exit 77  # ctest SKIP_RETURN_CODE
fi
model="$src/models/face_detection_short_range.tflite"
cts_dir=${NNAPI_CTS_DIR:-$src/../shared/cts}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnapi-qemu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0

# 1. The library loads and lists its devices on the old CPU.
if ! $qemu "$bin/nnapi" devices >"$tmp/devices.txt" 2>&1; then
    echo "qemu_smoke: 'nnapi devices' failed under qemu:"; cat "$tmp/devices.txt"; exit 1
fi
echo "qemu_smoke: nnapi devices OK under Nehalem"

# 2. A real model, both devices, compared with the native run.
if [ -f "$model" ]; then
    for dev in nnapi-cpu nnapi-cpu-reference; do
        "$bin/nnapi" run "$model" --device $dev --seed 7 --threads 1 --output-dir "$tmp/native-$dev" >/dev/null 2>&1 || { echo "native run failed ($dev)"; status=1; continue; }
        $qemu "$bin/nnapi" run "$model" --device $dev --seed 7 --threads 1 --output-dir "$tmp/qemu-$dev" >"$tmp/qemu-$dev.log" 2>&1 || { echo "qemu run failed ($dev):"; tail -5 "$tmp/qemu-$dev.log"; status=1; continue; }
        if [ $dev = nnapi-cpu-reference ]; then flags=--exact; else flags="--rtol 1e-4"; fi
        echo "qemu_smoke: $dev, native vs Nehalem:"
        python3 "$src/tests/isa/compare_npy.py" "$tmp/native-$dev" "$tmp/qemu-$dev" $flags || status=1
    done
elif [ "${NNAPI_REQUIRE_MODELS:-0}" = 1 ]; then
    echo "qemu_smoke: $model missing and NNAPI_REQUIRE_MODELS=1"; status=1
else
    echo "qemu_smoke: $model not fetched; model check skipped"
fi

# 3. A conformance subset (every mode-independent vector of a few op families) on both devices.
if [ -d "$cts_dir" ]; then
    for dev in nnapi-cpu nnapi-cpu-reference; do
        $qemu "$bin/nnapi-cts" --device $dev --jobs 2 --filter '^(conv2d|depthwise_conv2d|fully_connected|add|mul|softmax|avg_pool|max_pool|resize_bilinear)' "$cts_dir/V1_2" >"$tmp/cts-$dev.log" 2>&1
        summary=$(tail -n 1 "$tmp/cts-$dev.log")
        echo "qemu_smoke: CTS subset on $dev under Nehalem: $summary"
        case "$summary" in
            *" 0 failed"*) passed=${summary%% passed*}; [ "${passed:-0}" -gt 0 ] || status=1 ;;
            *) status=1; grep -i fail "$tmp/cts-$dev.log" | head -10 ;;
        esac
    done
fi
exit $status
