#!/usr/bin/env bash
# Builds and runs the whole test suite (unit tests, API contract, C example, conformance
# vectors from ../shared/cts or $NNAPI_CTS_DIR, reader fuzz smoke). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
scripts/build.sh "$@"
cd "$build"
ctest --output-on-failure --timeout 1200
