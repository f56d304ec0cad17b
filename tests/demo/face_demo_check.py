#!/usr/bin/env python3
"""ctest face_demo: `nnapi demo face` on the demo photograph finds the one face where it is.

Usage: face_demo_check.py NNAPI_BINARY SOURCE_DIR WORK_DIR

Fetches astronaut.png with scripts/fetch_demo_image.sh (apt-get download; a failure to fetch
fails this test), runs the demo and checks its detections.json -- the numbers, not pixels of the
drawing. Also runs the demo on a flat grey picture, where no face must be found, so a decoder
that reports something everywhere cannot pass.
"""
import json
import os
import struct
import subprocess
import sys
import zlib

# Expected face in astronaut.png (512x512), determined once by looking at the photograph: a
# 4x zoom of x 160..300, y 60..200 with a 10-pixel grid drawn over it shows the hairline at
# y ~ 84, the chin at y ~ 180, the cheeks at x ~ 184 and x ~ 270, the eyes at about (205,101)
# and (245,104), the nose tip at (226,126) and the mouth at (220,145). Expected box: the centre
# of that face extent, and a side between its width (86) and height (96) -- BlazeFace boxes are
# square.
EXPECTED_CENTRE = (227.0, 132.0)
EXPECTED_SIDE = 91.0
CENTRE_TOL = 12.0        # pixels, for x and y of the box centre
SIDE_TOL = 0.20          # relative, for width and height
EAR_MARGIN = 0.10        # ears sit on the box edge: allowed outside by this fraction of the side

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
    print(("ok    " if cond else "FAIL  ") + msg)


def run_demo(nnapi, image, out_dir):
    r = subprocess.run([nnapi, "demo", "face", image, "--output", out_dir],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    print(r.stdout)
    if r.returncode != 0:
        sys.exit("FAIL: nnapi demo face %s exited with %d" % (image, r.returncode))
    with open(os.path.join(out_dir, "detections.json")) as f:
        return json.load(f), r.stdout


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def write_grey_png(path, w, h, value):
    raw = b"".join(b"\x00" + bytes([value]) * (3 * w) for _ in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    nnapi, src, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    fetch = subprocess.run([os.path.join(src, "scripts", "fetch_demo_image.sh")],
                           stdout=subprocess.PIPE, text=True)
    image = fetch.stdout.strip().splitlines()[-1] if fetch.stdout.strip() else ""
    if fetch.returncode != 0 or not os.path.isfile(image):
        sys.exit("FAIL: scripts/fetch_demo_image.sh could not fetch the demo image (needs apt-get)")

    model = os.path.join(src, "models", "face_detection_short_range.tflite")
    if not os.path.isfile(model):
        sys.exit("FAIL: %s is missing (scripts/fetch_models.sh fetches it)" % model)

    out_dir = os.path.join(work, "face")
    det, stdout = run_demo(nnapi, image, out_dir)
    check(det["width"] == 512 and det["height"] == 512, "image is 512x512 (got %sx%s)" % (det["width"], det["height"]))
    faces = det["faces"]
    check(len(faces) == 1, "exactly one face (got %d)" % len(faces))
    if faces:
        f = faces[0]
        x0, y0, x1, y1 = f["box"]
        cx, cy, w, h = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0
        check(f["score"] >= 0.8, "score %.3f >= 0.8" % f["score"])
        check(abs(cx - EXPECTED_CENTRE[0]) <= CENTRE_TOL and abs(cy - EXPECTED_CENTRE[1]) <= CENTRE_TOL,
              "box centre (%.1f,%.1f) within %.0f px of (%.0f,%.0f)" % (cx, cy, CENTRE_TOL, *EXPECTED_CENTRE))
        for name, v in (("width", w), ("height", h)):
            check(abs(v - EXPECTED_SIDE) <= SIDE_TOL * EXPECTED_SIDE,
                  "box %s %.1f within %d%% of %.0f" % (name, v, SIDE_TOL * 100, EXPECTED_SIDE))
        kp = f["keypoints"]
        check(len(kp) == 6, "6 keypoints (got %d)" % len(kp))
        for name, (kx, ky) in kp.items():
            m = EAR_MARGIN * w if name.endswith("ear") else 0.0
            check(x0 - m <= kx <= x1 + m and y0 - m <= ky <= y1 + m,
                  "%s (%.1f,%.1f) inside the box%s" % (name, kx, ky, " (+%.0f px for ears)" % m if m else ""))
        # The keypoint order: the subject's right eye is on the image's left; eyes above the
        # nose above the mouth.
        if all(k in kp for k in ("right_eye", "left_eye", "nose_tip", "mouth")):
            check(kp["right_eye"][0] < kp["left_eye"][0], "right eye left of left eye in the image")
            eyes_y = max(kp["right_eye"][1], kp["left_eye"][1])
            check(eyes_y < kp["nose_tip"][1] < kp["mouth"][1], "eyes above nose above mouth")
    png = os.path.join(out_dir, "annotated.png")
    check(png_size(png) == (512, 512), "annotated.png is a 512x512 PNG")
    check(png in stdout, "the demo prints the path of annotated.png")

    # No face in a flat grey picture (also exercises letterboxing: it is not square).
    grey = os.path.join(work, "grey.png")
    write_grey_png(grey, 320, 200, 128)
    det, _ = run_demo(nnapi, grey, os.path.join(work, "grey"))
    check(len(det["faces"]) == 0, "no face in a flat grey picture (got %d)" % len(det["faces"]))

    if failures:
        sys.exit("FAIL: %d check(s) failed" % len(failures))
    print("face_demo: all checks passed")


if __name__ == "__main__":
    main()
