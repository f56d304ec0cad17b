#!/bin/sh
# ctest driver for the NNAPI conformance vectors.
#
# usage: run_cts.sh NNAPI_CTS_BINARY [MODE...]      (default modes: sync async)
#
# Runs nnapi-cts over $NNAPI_CTS_DIR (default: <source dir>/../shared/cts) once
# per mode against tests/cts/expected_pass_<mode>.txt and fails if any listed
# test no longer passes. The vectors are not part of the repository; a missing
# directory fails the test (set NNAPI_CTS_DIR when ../shared/cts is elsewhere).
# Extra nnapi-cts options can be given in $NNAPI_CTS_ARGS (e.g. "--device cpu").
# $NNAPI_CTS_MIN_MULTI_DEVICE: fail a mode in which fewer tests ran on more than one device.
set -u
bin=${1:?usage: run_cts.sh NNAPI_CTS_BINARY [MODE...]}
shift
modes=${*:-sync async}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cts_dir=${NNAPI_CTS_DIR:-$src/../shared/cts}
jobs=${NNAPI_CTS_JOBS:-2}

if [ ! -d "$cts_dir" ]; then
    # A missing directory must not read as a pass: nothing would have been checked.
    echo "run_cts.sh: conformance vectors not found at $cts_dir (set NNAPI_CTS_DIR)"
    exit 1
fi

status=0
log=$(mktemp "${TMPDIR:-/tmp}/nnapi-cts.XXXXXX")
trap 'rm -f "$log"' EXIT
for mode in $modes; do
    expected="$here/expected_pass_$mode.txt"
    if [ ! -f "$expected" ]; then
        echo "run_cts.sh: no expected list $expected"
        status=1
        continue
    fi
    echo "=== nnapi-cts --mode $mode ($cts_dir)"
    # shellcheck disable=SC2086
    "$bin" --mode "$mode" --jobs "$jobs" --quiet-runtime --expected "$expected" ${NNAPI_CTS_ARGS:-} "$cts_dir" >"$log" 2>&1
    rc=$?
    # Individual failures are expected while the runtime grows; show the
    # summary, the regressions and the first newly passing names only.
    grep -v '^FAIL \|^  ' "$log"
    new=$(grep -c '^  ' "$log")
    if [ "$new" -gt 0 ]; then
        echo "(first newly passing tests; add them with --update-expected)"
        grep '^  ' "$log" | head -20
    fi
    if [ "$rc" -ne 0 ]; then
        echo "run_cts.sh: mode $mode: nnapi-cts exit code $rc"
        status=1
    fi
    # With a partitioning set-up, the split must really happen (not everything on one device).
    if [ -n "${NNAPI_CTS_MIN_MULTI_DEVICE:-}" ]; then
        multi=$(sed -n 's/^multi-device: \([0-9]*\) .*/\1/p' "$log" | tail -1)
        if [ "${multi:-0}" -lt "$NNAPI_CTS_MIN_MULTI_DEVICE" ]; then
            echo "run_cts.sh: mode $mode: ${multi:-0} tests ran on more than one device, expected at least $NNAPI_CTS_MIN_MULTI_DEVICE"
            status=1
        fi
    fi
done
exit $status
