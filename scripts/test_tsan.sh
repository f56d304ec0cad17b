#!/usr/bin/env bash
# Builds the API test binary with ThreadSanitizer into ${BUILD_DIR:-build-tsan} and runs the
# concurrency tests under it (ctest label `tsan`: nnapi_tests --gtest_filter=*Concurrency*,
# several application threads sharing one compilation). A data race fails the run (TSan's
# exit code 66). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-tsan}
# RelWithDebInfo: optimized like the release, with file:line in the race reports.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNNAPI_SANITIZE=thread \
  -DNNAPI_BUILD_BENCH=OFF "$@" >/dev/null
ninja -C "$build" nnapi_tests nnapi_internal_tests
cd "$build"
ctest --output-on-failure -L tsan
