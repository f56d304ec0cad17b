#include "face_detect.h"

#include <algorithm>
#include <cmath>

namespace nnapi_cli {

std::vector<Anchor> BlazeFaceShortRangeAnchors() {
  // SSD layers with equal strides share one feature map; each layer contributes two anchors per
  // cell (aspect ratio 1 and the interpolated scale). With a fixed anchor size only the centres
  // differ, so stride 8 gives 2 anchors per cell of a 16x16 grid and the three stride-16 layers
  // 6 per cell of an 8x8 grid: 512 + 384 = 896.
  struct Level {
    int stride, per_cell;
  };
  const Level levels[] = {{8, 2}, {16, 6}};
  const int input = 128;
  std::vector<Anchor> anchors;
  for (const Level& l : levels) {
    const int grid = input / l.stride;
    for (int y = 0; y < grid; ++y) {
      for (int x = 0; x < grid; ++x) {
        for (int k = 0; k < l.per_cell; ++k) {
          anchors.push_back({(x + 0.5f) / grid, (y + 0.5f) / grid, 1.f, 1.f});
        }
      }
    }
  }
  return anchors;
}

std::vector<FaceDetection> DecodeBlazeFace(const float* regressors, const float* scores,
                                           const std::vector<Anchor>& anchors, const BlazeFaceParams& p) {
  std::vector<FaceDetection> out;
  for (size_t i = 0; i < anchors.size(); ++i) {
    const float logit = std::clamp(scores[i], -p.score_clipping, p.score_clipping);
    const float score = 1.f / (1.f + std::exp(-logit));
    if (!(score >= p.min_score)) continue;  // also drops NaN
    const float* r = regressors + i * 16;
    const Anchor& a = anchors[i];
    const float xc = r[0] / p.scale * a.w + a.x_center;
    const float yc = r[1] / p.scale * a.h + a.y_center;
    const float w = r[2] / p.scale * a.w;
    const float h = r[3] / p.scale * a.h;
    FaceDetection d;
    d.score = score;
    d.xmin = xc - w / 2;
    d.ymin = yc - h / 2;
    d.xmax = xc + w / 2;
    d.ymax = yc + h / 2;
    for (int k = 0; k < kFaceKeypoints; ++k) {
      d.keypoints[k][0] = r[4 + 2 * k] / p.scale * a.w + a.x_center;
      d.keypoints[k][1] = r[5 + 2 * k] / p.scale * a.h + a.y_center;
    }
    if (w > 0 && h > 0) out.push_back(d);
  }
  return out;
}

float IntersectionOverUnion(const FaceDetection& a, const FaceDetection& b) {
  const float ix = std::max(0.f, std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin));
  const float iy = std::max(0.f, std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin));
  const float inter = ix * iy;
  const float uni = (a.xmax - a.xmin) * (a.ymax - a.ymin) + (b.xmax - b.xmin) * (b.ymax - b.ymin) - inter;
  return uni > 0 ? inter / uni : 0.f;
}

std::vector<FaceDetection> WeightedNonMaxSuppression(std::vector<FaceDetection> remaining, float iou_threshold) {
  std::stable_sort(remaining.begin(), remaining.end(),
                   [](const FaceDetection& a, const FaceDetection& b) { return a.score > b.score; });
  std::vector<FaceDetection> out;
  while (!remaining.empty()) {
    const FaceDetection top = remaining.front();
    std::vector<FaceDetection> rest;
    FaceDetection sum;  // score-weighted sums of the absorbed detections
    float total = 0;
    for (const FaceDetection& d : remaining) {
      if (IntersectionOverUnion(top, d) > iou_threshold || &d == &remaining.front()) {
        total += d.score;
        sum.xmin += d.xmin * d.score;
        sum.ymin += d.ymin * d.score;
        sum.xmax += d.xmax * d.score;
        sum.ymax += d.ymax * d.score;
        for (int k = 0; k < kFaceKeypoints; ++k) {
          sum.keypoints[k][0] += d.keypoints[k][0] * d.score;
          sum.keypoints[k][1] += d.keypoints[k][1] * d.score;
        }
      } else {
        rest.push_back(d);
      }
    }
    FaceDetection merged = top;
    if (total > 0) {
      merged.xmin = sum.xmin / total;
      merged.ymin = sum.ymin / total;
      merged.xmax = sum.xmax / total;
      merged.ymax = sum.ymax / total;
      for (int k = 0; k < kFaceKeypoints; ++k) {
        merged.keypoints[k][0] = sum.keypoints[k][0] / total;
        merged.keypoints[k][1] = sum.keypoints[k][1] / total;
      }
    }
    out.push_back(merged);
    remaining = std::move(rest);
  }
  return out;
}

}  // namespace nnapi_cli
