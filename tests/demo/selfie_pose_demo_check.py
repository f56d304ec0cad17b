#!/usr/bin/env python3
"""ctests selfie_demo and pose_demo: `nnapi demo selfie|pose` on the demo photograph.

Usage: selfie_pose_demo_check.py selfie|pose NNAPI_BINARY SOURCE_DIR WORK_DIR

The expectations come from another model and from geometry, not from numbers recorded from this
implementation: `nnapi demo face` runs first and its face box and keypoints say where the head
is. Checks the written JSON and the mask (decoded from mask.png), never pixels of a drawing:
  selfie: the mask covers the face box, not the background beside the head; the printed
    coverage is the mask's; a flat grey picture has no person;
  pose:   the nose lies in the face box and near BlazeFace's nose tip, the eyes and ears are on
    the correct sides and above the nose, the shoulders below the face, wider than it and on
    the correct sides; the skeleton PNG has the photo's size; no pose in a flat grey picture.
Both also run on the photo padded with a grey band on the left (a landscape picture, so the
letterbox/stretch mapping back to the photo is exercised): the results must move with the photo.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import demo_png  # noqa: E402

failures = []
PAD = 256  # grey band added on the left for the landscape run


def check(cond, msg):
    if not cond:
        failures.append(msg)
    print(("ok    " if cond else "FAIL  ") + msg)


def run(nnapi, demo, image, out_dir, json_name):
    r = subprocess.run([nnapi, "demo", demo, image, "--output", out_dir],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    print(r.stdout)
    if r.returncode != 0:
        sys.exit("FAIL: nnapi demo %s %s exited with %d" % (demo, image, r.returncode))
    with open(os.path.join(out_dir, json_name)) as f:
        return json.load(f), r.stdout


def face_of(nnapi, image, work):
    det, _ = run(nnapi, "face", image, os.path.join(work, "face"), "detections.json")
    if len(det["faces"]) != 1:
        sys.exit("FAIL: the face demo found %d faces in %s; the checks need exactly one" % (len(det["faces"]), image))
    return det["faces"][0]


def box_coverage(w, mask, x0, y0, x1, y1):
    x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), int(x1), int(y1)
    n = tot = 0
    for y in range(y0, y1):
        row = y * w * 3
        for x in range(x0, x1):
            n += mask[row + 3 * x] >= 128
            tot += 1
    return n / tot if tot else 0.0


def check_selfie(nnapi, image, work, face, dx, label):
    seg, stdout = run(nnapi, "selfie", image, os.path.join(work, "selfie" + label), "segmentation.json")
    w, h, mask = demo_png.read_png(seg["mask"])
    check((w, h) == (seg["width"], seg["height"]), "%s mask.png has the photo's size %dx%d" % (label, w, h))
    check(demo_png.png_size(os.path.join(os.path.dirname(seg["mask"]), "overlay.png")) == (w, h),
          "%s overlay.png has the photo's size" % label)
    x0, y0, x1, y1 = face["box"]
    side = x1 - x0
    cov_face = box_coverage(w, mask, x0, y0, x1, y1)
    check(cov_face >= 0.9, "%s mask covers %.0f%% (>= 90%%) of the face box" % (label, 100 * cov_face))
    # Beside the head, from the top of the picture down to the middle of the face (the
    # shoulders start below it), half a face width away from the face box on either side:
    # background (the flag, the sky, the rocket).
    left = box_coverage(w, mask, dx, 0, x0 - 0.5 * side, (y0 + y1) / 2)
    right = box_coverage(w, mask, x1 + 0.5 * side, 0, w, (y0 + y1) / 2)
    check(left <= 0.05 and right <= 0.05,
          "%s little person beside the head: %.1f%% left, %.1f%% right (<= 5%%)" % (label, 100 * left, 100 * right))
    if dx:
        band = box_coverage(w, mask, 0, 0, dx, h)
        check(band <= 0.02, "%s the grey band is background (%.1f%% person)" % (label, 100 * band))
    total = box_coverage(w, mask, 0, 0, w, h)
    check(abs(total - seg["coverage"]) <= 0.005,
          "%s printed coverage %.4f is the mask's (%.4f)" % (label, seg["coverage"], total))
    check(seg["box"] is not None and seg["box"][0] <= x0 and seg["box"][1] <= y0 and seg["box"][2] >= x1 - 1 and
          seg["box"][3] >= y1 - 1, "%s the person box %s contains the face box" % (label, seg["box"]))
    check(seg["mask"] in stdout, "%s the demo prints the mask path" % label)
    return seg


def check_pose(nnapi, image, work, face, label):
    pose, stdout = run(nnapi, "pose", image, os.path.join(work, "pose" + label), "landmarks.json")
    check(pose["found"] and pose["pose_presence"] >= 0.5, "%s pose found (presence %.3f)" % (label, pose["pose_presence"]))
    lms = pose["landmarks"]
    check(len(lms) == 33, "%s 33 landmarks (got %d)" % (label, len(lms)))
    if len(lms) != 33:
        return None
    names = [l["name"] for l in lms]
    check(names[0] == "nose" and names[11] == "left_shoulder" and names[32] == "right_foot_index",
          "%s landmark names in MediaPipe's order" % label)
    L = {l["name"]: l for l in lms}
    x0, y0, x1, y1 = face["box"]
    side = x1 - x0
    fcx = (x0 + x1) / 2
    kp = face["keypoints"]
    nose = L["nose"]
    check(x0 <= nose["x"] <= x1 and y0 <= nose["y"] <= y1,
          "%s nose (%.1f,%.1f) inside the face box" % (label, nose["x"], nose["y"]))
    d = ((nose["x"] - kp["nose_tip"][0]) ** 2 + (nose["y"] - kp["nose_tip"][1]) ** 2) ** 0.5
    check(d <= 0.2 * side, "%s nose within %.0f px of BlazeFace's nose tip (%.1f px)" % (label, 0.2 * side, d))
    for eye, fk in (("left_eye", "left_eye"), ("right_eye", "right_eye")):
        e = L[eye]
        d = ((e["x"] - kp[fk][0]) ** 2 + (e["y"] - kp[fk][1]) ** 2) ** 0.5
        check(d <= 0.2 * side, "%s %s within %.0f px of BlazeFace's (%.1f px)" % (label, eye, 0.2 * side, d))
    # The subject's left is the image's right.
    check(L["right_eye"]["x"] < nose["x"] < L["left_eye"]["x"], "%s eyes on the correct sides of the nose" % label)
    check(max(L["left_eye"]["y"], L["right_eye"]["y"]) < nose["y"] < min(L["mouth_left"]["y"], L["mouth_right"]["y"]),
          "%s eyes above the nose above the mouth" % label)
    check(L["right_ear"]["x"] < L["right_eye"]["x"] and L["left_ear"]["x"] > L["left_eye"]["x"],
          "%s ears outside the eyes" % label)
    ls, rs = L["left_shoulder"], L["right_shoulder"]
    check(ls["visibility"] >= 0.5 and rs["visibility"] >= 0.5,
          "%s shoulders visible (%.2f, %.2f)" % (label, ls["visibility"], rs["visibility"]))
    check(min(ls["y"], rs["y"]) > nose["y"] + 0.4 * side,
          "%s shoulders (y %.1f, %.1f) below the chin line (nose + 0.4 face)" % (label, ls["y"], rs["y"]))
    check(rs["x"] < fcx < ls["x"], "%s shoulders on the correct sides of the face" % label)
    check(ls["x"] - rs["x"] > side, "%s shoulders wider than the face (%.1f > %.1f)" % (label, ls["x"] - rs["x"], side))
    png = os.path.join(work, "pose" + label, "skeleton.png")
    check(demo_png.png_size(png) == (pose["width"], pose["height"]), "%s skeleton.png has the photo's size" % label)
    check(png in stdout, "%s the demo prints the skeleton path" % label)
    return L


def main():
    demo, nnapi, src, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    fetch = subprocess.run([os.path.join(src, "scripts", "fetch_demo_image.sh")], stdout=subprocess.PIPE, text=True)
    image = fetch.stdout.strip().splitlines()[-1] if fetch.stdout.strip() else ""
    if fetch.returncode != 0 or not os.path.isfile(image):
        sys.exit("FAIL: scripts/fetch_demo_image.sh could not fetch the demo image (needs apt-get)")
    for m in ("face_detection_short_range.tflite", "selfie_segmentation.tflite" if demo == "selfie"
              else "pose_landmark_full.tflite"):
        if not os.path.isfile(os.path.join(src, "models", m)):
            sys.exit("FAIL: models/%s is missing (scripts/fetch_models.sh fetches it)" % m)

    # The photo, and the photo on a wider grey canvas (PAD pixels on the left).
    w, h, rgb = demo_png.read_png(image)
    wide = os.path.join(work, "wide.png")
    demo_png.write_png(wide, w + PAD, h, demo_png.pad_image(w, h, rgb, PAD, 0, w + PAD, h, 128))
    grey = os.path.join(work, "grey.png")
    demo_png.write_png(grey, 320, 200, bytes([128]) * (320 * 200 * 3))

    face = face_of(nnapi, image, work)
    wide_face = face_of(nnapi, wide, os.path.join(work, "wide"))
    if demo == "selfie":
        seg = check_selfie(nnapi, image, work, face, 0, "photo:")
        check(0.2 <= seg["coverage"] <= 0.9, "photo: a portrait: the person covers 20..90%% (%.1f%%)" % (100 * seg["coverage"]))
        check_selfie(nnapi, wide, work, wide_face, PAD, "wide:")
        g, _ = run(nnapi, "selfie", grey, os.path.join(work, "selfie_grey"), "segmentation.json")
        check(g["coverage"] <= 0.01, "no person in a flat grey picture (%.1f%%)" % (100 * g["coverage"]))
    else:
        a = check_pose(nnapi, image, work, face, "photo:")
        b = check_pose(nnapi, wide, work, wide_face, "wide:")
        if a and b:
            # The face landmarks, which the model places precisely: a wrong letterbox offset
            # (128 px here) or scale would move them by far more than a quarter face. (The
            # shoulders of a bulky suit move more between the two framings: checked by geometry
            # above only.)
            side = face["box"][2] - face["box"][0]
            worst = max(max(abs(b[n]["x"] - PAD - a[n]["x"]), abs(b[n]["y"] - a[n]["y"]))
                        for n in ("nose", "left_eye", "right_eye", "mouth_left", "mouth_right"))
            check(worst <= 0.25 * side, "wide: face landmarks moved with the photo (worst %.1f px, <= %.0f)"
                  % (worst, 0.25 * side))
        g, _ = run(nnapi, "pose", grey, os.path.join(work, "pose_grey"), "landmarks.json")
        check(not g["found"] and g["pose_presence"] < 0.5,
              "no pose in a flat grey picture (presence %.3f)" % g["pose_presence"])

    if failures:
        sys.exit("FAIL: %d check(s) failed" % len(failures))
    print("%s_demo: all checks passed" % demo)


if __name__ == "__main__":
    main()
