// Post-processing for MediaPipe's BlazeFace short-range face detector
// (face_detection_short_range.tflite): SSD anchors, box/keypoint decoding and weighted
// non-maximum suppression, with the parameters of MediaPipe's face_detection_short_range graph:
//   SsdAnchorsCalculator: 128x128 input, strides 8,16,16,16, anchor offset 0.5, aspect ratio 1
//     plus one interpolated anchor per layer, fixed anchor size (w = h = 1) -> 896 anchors.
//   TensorsToDetectionsCalculator: 16 coordinates per anchor (box x/y centre, w, h, then 6
//     keypoints x,y), x/y/w/h scale 128, sigmoid scores clipped at +-100, min score 0.5.
//   NonMaxSuppressionCalculator: weighted, IoU threshold 0.3.
#pragma once

#include <cstddef>
#include <vector>

namespace nnapi_cli {

struct Anchor {
  float x_center, y_center, w, h;  // normalised to [0,1]
};

constexpr int kFaceKeypoints = 6;  // right eye, left eye, nose tip, mouth, right ear, left ear

struct FaceDetection {
  float score = 0;
  float xmin = 0, ymin = 0, xmax = 0, ymax = 0;  // normalised to the model input
  float keypoints[kFaceKeypoints][2] = {};      // (x, y), normalised
};

struct BlazeFaceParams {
  int input_size = 128;
  float scale = 128.f;              // x/y/w/h scale of the regressors
  float score_clipping = 100.f;     // raw scores are clipped to +-this before the sigmoid
  float min_score = 0.5f;
  float min_suppression_iou = 0.3f;
};

// The 896 anchors of the short-range model, in the model's output order.
std::vector<Anchor> BlazeFaceShortRangeAnchors();

// regressors: [anchors.size() x 16], scores: [anchors.size()] raw logits. Returns the
// detections with a score >= params.min_score, before suppression.
std::vector<FaceDetection> DecodeBlazeFace(const float* regressors, const float* scores,
                                           const std::vector<Anchor>& anchors, const BlazeFaceParams& params);

// MediaPipe's WEIGHTED suppression: the highest-scoring remaining detection absorbs every
// remaining detection overlapping it by more than `iou_threshold`; the result keeps the top
// score and the score-weighted mean of the absorbed boxes and keypoints.
std::vector<FaceDetection> WeightedNonMaxSuppression(std::vector<FaceDetection> detections, float iou_threshold);

float IntersectionOverUnion(const FaceDetection& a, const FaceDetection& b);

}  // namespace nnapi_cli
