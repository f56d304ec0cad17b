#!/bin/sh
# A conformance worker that dies (here the test-faulty driver exits its process, as a sanitizer
# report would) must be reported with its last output even under --quiet-runtime, which
# otherwise discards what the runtime prints.
# Usage: worker_death.sh NNAPI_CTS   (NNAPI_DRIVERS names libnnapi_test_faulty.so; the vectors
# come from $NNAPI_CTS_DIR, default <source dir>/../shared/cts, as for run_cts.sh)
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
cts_dir=${NNAPI_CTS_DIR:-$src/../shared/cts}
[ -d "$cts_dir/V1_0" ] || { echo "worker_death.sh: conformance vectors not found at $cts_dir (set NNAPI_CTS_DIR)"; exit 1; }
out=$(NNAPI_TEST_DRIVER_FAULT=exit "$bin" --quiet-runtime --no-progress --device test-faulty \
      --filter '^add_quant8$' "$cts_dir/V1_0" 2>&1)
echo "$out"
status=0
echo "$out" | grep -q 'worker exited with status 1 mid-run' || { echo "FAIL: no worker-death reason"; status=1; }
echo "$out" | grep -q 'exiting the process on purpose' || { echo "FAIL: the worker's last output is missing"; status=1; }
# And without the fault the same vector passes (the driver and filter are right).
ok=$(NNAPI_TEST_DRIVER_FAULT=none "$bin" --quiet-runtime --no-progress --device test-faulty \
     --filter '^add_quant8$' "$cts_dir/V1_0" 2>&1 | tail -1)
[ "$ok" = "1 passed, 0 failed, 0 skipped" ] || { echo "FAIL: control run: $ok"; status=1; }
exit $status
