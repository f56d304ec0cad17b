#!/usr/bin/env bash
# The default demo: builds the project, fetches the MediaPipe models (npm pack) and runs face
# detection on face_detection_short_range.tflite through our NNAPI, writing its outputs as
# .npy files into out/face_detection/ and printing a short benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
scripts/fetch_models.sh
model=models/face_detection_short_range.tflite
build/bin/nnapi devices
build/bin/nnapi run "$model" --output-dir out/face_detection
build/bin/nnapi bench "$model" --runs 50 --warmup 5
