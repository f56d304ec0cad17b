// `nnapi demo face|selfie|pose IMAGE`: picture in, picture out, through the DemoRunner main.cc
// provides (public NNAPI C API). Decoding lives in face_detect.*, selfie_segment.* and
// pose_landmarks.* (pure functions the tests call); this file reads the photo, prints the
// results and writes the pictures and JSON.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <string>
#include <vector>

#include "demo_common.h"
#include "face_detect.h"
#include "image_io.h"
#include "pose_landmarks.h"
#include "selfie_segment.h"

namespace nnapi_cli {
namespace {

std::string Fmt(const char* fmt, double a) {
  char b[64];
  std::snprintf(b, sizeof(b), fmt, a);
  return b;
}

bool Fail(const std::string& msg) {
  std::fprintf(stderr, "nnapi: %s\n", msg.c_str());
  return false;
}

bool LoadPhotoAndPrepare(const DemoOptions& o, Image* photo) {
  std::string err;
  if (!ReadImage(o.image, photo, &err)) return Fail(err);
  if (!MakeDirectories(o.output_dir)) return Fail("cannot create output directory " + o.output_dir);
  return true;
}

bool WritePngOrFail(const std::string& path, const Image& im) {
  std::string err;
  return WritePng(path, im, &err) || Fail(err);
}

bool WriteTextOrFail(const std::string& path, const std::string& text) {
  std::string err;
  return WriteTextFile(path, text, &err) || Fail(err);
}

void PrintHeader(const char* what, const DemoOptions& o, const Image& photo) {
  std::printf("%s: %s on %s (%dx%d)\n", what, o.model.c_str(), o.image.c_str(), photo.width, photo.height);
}

void PrintTiming(const DemoOptions& o, const DemoRun& r) {
  std::printf("device: %s; compile %.1f ms, inference %.2f ms\n", o.device.empty() ? "(runtime's choice)" : o.device.c_str(),
              r.compile_ms, r.run_ms);
}

// Both demo models want RGB in [0,1] (MediaPipe's output_tensor_float_range 0..1).
Normalization InputNormalization(const DemoOptions& o) { return o.norm_given ? o.norm : RangeNormalization(0.f, 1.f); }

}  // namespace

// ---- face detection ------------------------------------------------------------------------

namespace {

// Pads the image to a centred square (black borders), as MediaPipe's face detection graph does
// to keep the aspect ratio; *pad_x/*pad_y receive the left/top padding.
Image Letterbox(const Image& img, int* pad_x, int* pad_y) {
  const int side = std::max(img.width, img.height);
  *pad_x = (side - img.width) / 2;
  *pad_y = (side - img.height) / 2;
  if (side == img.width && side == img.height) return img;
  Image sq;
  sq.width = sq.height = side;
  sq.rgb.assign(static_cast<size_t>(side) * side * 3, 0);
  for (int y = 0; y < img.height; ++y) {
    std::memcpy(&sq.rgb[(static_cast<size_t>(y + *pad_y) * side + *pad_x) * 3],
                &img.rgb[static_cast<size_t>(y) * img.width * 3], static_cast<size_t>(img.width) * 3);
  }
  return sq;
}

}  // namespace

int RunFaceDemo(const DemoOptions& in, const DemoRunner& run) {
  DemoOptions o = in;
  if (o.model.empty()) o.model = DefaultModelPath("models/face_detection_short_range.tflite");
  if (o.output_dir.empty()) o.output_dir = "out/face_detection";
  Image photo;
  if (!LoadPhotoAndPrepare(o, &photo)) return 1;
  int pad_x = 0, pad_y = 0;
  const Image square = Letterbox(photo, &pad_x, &pad_y);
  const float side = static_cast<float>(square.width);
  // BlazeFace wants RGB in [-1,1].
  DemoRun r;
  if (!run(o.model, square, o.norm_given ? o.norm : RangeNormalization(-1.f, 1.f), &r)) return 1;

  // The outputs by shape: regressors [1,896,16] and scores [1,896,1], both float32.
  const std::vector<Anchor> anchors = BlazeFaceShortRangeAnchors();
  const float* regressors = nullptr;
  const float* scores = nullptr;
  for (const DemoTensor& t : r.outputs) {
    if (t.dims.empty()) continue;
    if (t.dims.back() == 16 && t.values.size() == anchors.size() * 16) regressors = t.values.data();
    if (t.dims.back() == 1 && t.values.size() == anchors.size()) scores = t.values.data();
  }
  if (!regressors || !scores) {
    Fail(o.model + " does not look like BlazeFace short range: expected float32 outputs [1," +
         std::to_string(anchors.size()) + ",16] and [1," + std::to_string(anchors.size()) + ",1]");
    return 1;
  }
  BlazeFaceParams params;
  std::vector<FaceDetection> raw = DecodeBlazeFace(regressors, scores, anchors, params);
  std::vector<FaceDetection> faces = WeightedNonMaxSuppression(raw, params.min_suppression_iou);

  // Normalised square coordinates -> pixels of the original photo.
  auto px = [&](float v) { return v * side - static_cast<float>(pad_x); };
  auto py = [&](float v) { return v * side - static_cast<float>(pad_y); };
  static const char* const kKeypointNames[kFaceKeypoints] = {"right_eye", "left_eye", "nose_tip",
                                                             "mouth", "right_ear", "left_ear"};
  PrintHeader("face detection", o, photo);
  PrintTiming(o, r);
  std::printf("%zu face%s (score >= %.2f; %zu raw detections merged by weighted NMS, IoU %.1f):\n", faces.size(),
              faces.size() == 1 ? "" : "s", params.min_score, raw.size(), params.min_suppression_iou);
  std::string json = "{\n  \"image\": " + JsonString(o.image) + ",\n  \"width\": " + std::to_string(photo.width) +
                     ",\n  \"height\": " + std::to_string(photo.height) + ",\n  \"faces\": [";
  Image annotated = photo;
  for (size_t i = 0; i < faces.size(); ++i) {
    const FaceDetection& f = faces[i];
    const float x0 = px(f.xmin), y0 = py(f.ymin), x1 = px(f.xmax), y1 = py(f.ymax);
    std::printf("  face %zu: score %.3f  box x %.1f..%.1f y %.1f..%.1f (centre %.1f,%.1f size %.1fx%.1f)\n", i,
                f.score, x0, x1, y0, y1, (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0);
    char buf[256];
    std::snprintf(buf, sizeof(buf), "%s\n    {\"score\": %.4f, \"box\": [%.2f, %.2f, %.2f, %.2f], \"keypoints\": {",
                  i ? "," : "", f.score, x0, y0, x1, y1);
    json += buf;
    DrawRect(&annotated, x0, y0, x1, y1, 3.f, Rgb{0, 255, 0});
    std::printf("   ");
    for (int k = 0; k < kFaceKeypoints; ++k) {
      const float kx = px(f.keypoints[k][0]), ky = py(f.keypoints[k][1]);
      std::printf(" %s (%.1f,%.1f)", kKeypointNames[k], kx, ky);
      std::snprintf(buf, sizeof(buf), "%s\"%s\": [%.2f, %.2f]", k ? ", " : "", kKeypointNames[k], kx, ky);
      json += buf;
      DrawDot(&annotated, kx, ky, 4.f, Rgb{255, 0, 0});
    }
    std::printf("\n");
    json += "}}";
  }
  json += faces.empty() ? "]\n}\n" : "\n  ]\n}\n";

  const std::string png = o.output_dir + "/annotated.png", js = o.output_dir + "/detections.json";
  if (!WritePngOrFail(png, annotated) || !WriteTextOrFail(js, json)) return 1;
  std::printf("annotated image: %s\ndetections: %s\n", png.c_str(), js.c_str());
  return 0;
}

// ---- selfie segmentation -------------------------------------------------------------------

int RunSelfieDemo(const DemoOptions& in, const DemoRunner& run) {
  DemoOptions o = in;
  if (o.model.empty()) o.model = DefaultModelPath("models/selfie_segmentation.tflite");
  if (o.output_dir.empty()) o.output_dir = "out/selfie_segmentation";
  Image photo;
  if (!LoadPhotoAndPrepare(o, &photo)) return 1;
  // MediaPipe stretches the whole photo to the input (no letterbox) with RGB in [0,1]; the runner
  // does exactly that resize.
  DemoRun r;
  if (!run(o.model, photo, InputNormalization(o), &r)) return 1;
  const DemoTensor* out = nullptr;
  for (const DemoTensor& t : r.outputs) {
    const size_t n = static_cast<size_t>(r.input_width) * r.input_height;
    if (t.values.size() == n && !t.dims.empty() && t.dims.back() == 1) out = &t;
  }
  if (!out) {
    Fail(o.model + " does not look like a selfie segmentation model: expected a float32 output [1," +
         std::to_string(r.input_height) + "," + std::to_string(r.input_width) + ",1]");
    return 1;
  }
  Mask small;
  small.width = r.input_width;
  small.height = r.input_height;
  small.values = out->values;
  // The MediaPipe models end in a sigmoid; a variant that outputs logits is recognised by values
  // outside [0,1] and mapped through one.
  bool logits = false;
  for (float v : small.values) logits |= v < -1e-3f || v > 1.001f;
  if (logits)
    for (float& v : small.values) v = 1.f / (1.f + std::exp(-v));
  const Mask mask = ResizeMask(small, photo.width, photo.height);
  constexpr float kThreshold = 0.5f;
  const MaskSummary s = SummarizeMask(mask, kThreshold);

  PrintHeader("selfie segmentation", o, photo);
  PrintTiming(o, r);
  std::printf("mask %dx%d%s resized to the photo; person = mask >= %.1f\n", small.width, small.height,
              logits ? " (logits -> sigmoid)" : "", kThreshold);
  std::printf("person coverage: %.3f of the pixels (%.1f%%)\n", s.coverage, 100.0 * s.coverage);
  if (s.empty)
    std::printf("no person found\n");
  else
    std::printf("person bounding box: x %d..%d y %d..%d (%dx%d pixels)\n", s.xmin, s.xmax, s.ymin, s.ymax,
                s.xmax - s.xmin + 1, s.ymax - s.ymin + 1);

  Image overlay = OverlayMask(photo, mask, Rgb{40, 200, 90});
  if (!s.empty) DrawRect(&overlay, s.xmin, s.ymin, s.xmax, s.ymax, 2.f, Rgb{255, 220, 0});
  const std::string mask_png = o.output_dir + "/mask.png", overlay_png = o.output_dir + "/overlay.png",
                    js = o.output_dir + "/segmentation.json";
  std::string json = "{\n  \"image\": " + JsonString(o.image) + ",\n  \"width\": " + std::to_string(photo.width) +
                     ",\n  \"height\": " + std::to_string(photo.height) + ",\n  \"threshold\": " +
                     Fmt("%.2f", kThreshold) + ",\n  \"coverage\": " + Fmt("%.5f", s.coverage) + ",\n  \"box\": " +
                     (s.empty ? std::string("null")
                              : "[" + std::to_string(s.xmin) + ", " + std::to_string(s.ymin) + ", " +
                                    std::to_string(s.xmax) + ", " + std::to_string(s.ymax) + "]") +
                     ",\n  \"mask\": " + JsonString(mask_png) + "\n}\n";
  if (!WritePngOrFail(mask_png, MaskToImage(mask)) || !WritePngOrFail(overlay_png, overlay) ||
      !WriteTextOrFail(js, json))
    return 1;
  std::printf("mask: %s\noverlay: %s\nsummary: %s\n", mask_png.c_str(), overlay_png.c_str(), js.c_str());
  return 0;
}

// ---- pose landmarks ------------------------------------------------------------------------

namespace {

struct PosePass {
  SquareRoi roi;
  DemoRun run;
  float presence = 0;
  std::vector<PoseLandmark> landmarks;  // all the model's rows (body + auxiliary)
};

bool RunPosePass(const DemoOptions& o, const DemoRunner& run, const Image& photo, const SquareRoi& roi, PosePass* p) {
  constexpr int kCropSize = 256;  // the models' input; the runner resizes if a variant differs
  p->roi = roi;
  if (!run(o.model, CropRoi(photo, roi, kCropSize), InputNormalization(o), &p->run)) return false;
  if (p->run.input_width != p->run.input_height) return Fail(o.model + ": the pose model's input must be square");
  const DemoTensor* lm = nullptr;
  const DemoTensor* flag = nullptr;
  for (const DemoTensor& t : p->run.outputs) {
    if (!lm && t.dims.size() == 2 && t.values.size() == size_t{kPoseModelLandmarks} * kPoseValuesPerLandmark) lm = &t;
    if (!flag && t.values.size() == 1) flag = &t;
  }
  if (!lm || !flag)
    return Fail(o.model + " does not look like a BlazePose landmark model: expected float32 outputs [1," +
                std::to_string(kPoseModelLandmarks * kPoseValuesPerLandmark) + "] and [1,1]");
  p->presence = flag->values[0];
  p->landmarks = DecodePoseLandmarks(lm->values.data(), kPoseModelLandmarks, p->run.input_width, roi);
  return true;
}

void PrintRoi(const char* label, const SquareRoi& r) {
  std::printf("%s: centre (%.1f,%.1f), side %.1f, rotation %.1f deg\n", label, r.cx, r.cy, r.side,
              r.rotation * 180.0 / M_PI);
}

void DrawRoi(Image* im, const SquareRoi& r, Rgb c) {
  const float u[5] = {0, 1, 1, 0, 0}, v[5] = {0, 0, 1, 1, 0};
  for (int k = 0; k < 4; ++k) {
    float x0, y0, x1, y1;
    RoiToImage(r, u[k], v[k], &x0, &y0);
    RoiToImage(r, u[k + 1], v[k + 1], &x1, &y1);
    DrawLine(im, x0, y0, x1, y1, 1.5f, c);
  }
}

}  // namespace

int RunPoseDemo(const DemoOptions& in, const DemoRunner& run) {
  DemoOptions o = in;
  if (o.model.empty()) o.model = DefaultModelPath("models/pose_landmark_full.tflite");
  if (o.output_dir.empty()) o.output_dir = "out/pose_landmarks";
  Image photo;
  if (!LoadPhotoAndPrepare(o, &photo)) return 1;
  constexpr float kMinPresence = 0.5f, kMinVisibility = 0.5f;  // MediaPipe's thresholds

  // There is no pose detector model here. Pass 1 looks at the whole photo (letterboxed); when it
  // finds a pose, pass 2 re-crops the ROI MediaPipe's tracking derives from pass 1's auxiliary
  // landmarks (body centre and scale point), which centres the body and fixes its scale and
  // rotation the way the model was trained; its landmarks are the result.
  PosePass first, second;
  if (!RunPosePass(o, run, photo, WholeImageRoi(photo.width, photo.height), &first)) return 1;
  const PosePass* best = &first;
  if (first.presence >= kMinPresence) {
    const PoseLandmark &c = first.landmarks[kPoseLandmarks], &s = first.landmarks[kPoseLandmarks + 1];
    const SquareRoi roi = RoiFromAlignmentPoints(c.x, c.y, s.x, s.y);
    if (roi.side >= 8.f) {  // a degenerate ROI would only sample a few pixels
      if (!RunPosePass(o, run, photo, roi, &second)) return 1;
      if (second.presence >= kMinPresence) best = &second;
    }
  }

  PrintHeader("pose landmarks", o, photo);
  PrintRoi("pass 1, whole photo letterboxed", first.roi);
  std::printf("  ");
  PrintTiming(o, first.run);
  std::printf("  pose presence %.3f\n", first.presence);
  if (second.run.input_width) {
    PrintRoi("pass 2, ROI from pass 1's body centre and scale point", second.roi);
    std::printf("  ");
    PrintTiming(o, second.run);
    std::printf("  pose presence %.3f%s\n", second.presence, best == &second ? "" : " (below threshold: pass 1 kept)");
  }
  const bool found = best->presence >= kMinPresence;
  Image skeleton = photo;
  std::string json = "{\n  \"image\": " + JsonString(o.image) + ",\n  \"width\": " + std::to_string(photo.width) +
                     ",\n  \"height\": " + std::to_string(photo.height) + ",\n  \"pose_presence\": " +
                     Fmt("%.4f", best->presence) + ",\n  \"found\": " + (found ? "true" : "false") +
                     ",\n  \"roi\": {\"cx\": " + Fmt("%.2f", best->roi.cx) + ", \"cy\": " + Fmt("%.2f", best->roi.cy) +
                     ", \"side\": " + Fmt("%.2f", best->roi.side) + ", \"rotation_degrees\": " +
                     Fmt("%.2f", best->roi.rotation * 180.0 / M_PI) + "},\n  \"landmarks\": [";
  if (!found) {
    std::printf("no pose found (presence below %.1f)\n", kMinPresence);
  } else {
    std::printf("%d landmarks (image pixels; z relative depth, smaller = nearer; visibility):\n", kPoseLandmarks);
    for (int i = 0; i < kPoseLandmarks; ++i) {
      const PoseLandmark& l = best->landmarks[static_cast<size_t>(i)];
      std::printf("  %2d %-17s x %7.1f y %7.1f z %7.1f  visibility %.3f%s\n", i, PoseLandmarkName(i), l.x, l.y, l.z,
                  l.visibility, l.visibility >= kMinVisibility ? "" : "  (not drawn)");
      char b[256];
      std::snprintf(b, sizeof(b),
                    "%s\n    {\"index\": %d, \"name\": \"%s\", \"x\": %.2f, \"y\": %.2f, \"z\": %.2f, "
                    "\"visibility\": %.4f, \"presence\": %.4f}",
                    i ? "," : "", i, PoseLandmarkName(i), l.x, l.y, l.z, l.visibility, l.presence);
      json += b;
    }
    DrawRoi(&skeleton, best->roi, Rgb{255, 220, 0});
    DrawPoseSkeleton(&skeleton, best->landmarks, kMinVisibility);
  }
  json += found ? "\n  ]\n}\n" : "]\n}\n";
  const std::string png = o.output_dir + "/skeleton.png", js = o.output_dir + "/landmarks.json";
  if (!WritePngOrFail(png, skeleton) || !WriteTextOrFail(js, json)) return 1;
  std::printf("skeleton image: %s (landmarks with visibility >= %.1f)\nlandmarks: %s\n", png.c_str(), kMinVisibility,
              js.c_str());
  return 0;
}

}  // namespace nnapi_cli
