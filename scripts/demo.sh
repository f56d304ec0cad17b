#!/usr/bin/env bash
# The default demo: builds the project, fetches the MediaPipe models (npm pack) and a
# public-domain photograph (astronaut.png from Debian's python3-skimage, apt-get download),
# prints a short benchmark of face_detection_short_range.tflite through our NNAPI, then runs the
# picture-in / picture-out demos on the photograph: person segmentation
# (out/selfie_segmentation/overlay.png), pose landmarks (out/pose_landmarks/skeleton.png) and,
# last so that the output ends with them, face detection: the detections are printed and drawn
# into out/face_detection/annotated.png.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
scripts/fetch_models.sh
image="$(scripts/fetch_demo_image.sh)"
model=models/face_detection_short_range.tflite
build/bin/nnapi devices
build/bin/nnapi bench "$model" --runs 50 --warmup 5
echo
build/bin/nnapi demo selfie "$image" --output out/selfie_segmentation
echo
build/bin/nnapi demo pose "$image" --output out/pose_landmarks
echo
build/bin/nnapi demo face "$image" --output out/face_detection
