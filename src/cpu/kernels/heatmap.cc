// HEATMAP_MAX_KEYPOINT kernel (API level 29): for every box and keypoint, finds the heatmap
// maximum, refines its position and score with a quadratic (second-order Taylor) fit on the
// 3x3 neighbourhood, and maps the position into the box. Computes in float32 like the NNAPI
// reference; quantized heatmaps are dequantized and the results requantized.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/detection_util.h"
#include "spec/ops/detection.h"

namespace nn {
namespace {

using namespace detection;  // NOLINT: heatmapDims and the float32 staging

// Fits D(x) = D - b'x + x'Ax/2 to the 3x3 grid around the maximum; updates the sub-pixel
// offset `delta` and the interpolated score when the Hessian is invertible.
void refineMaximum(const float g[3][3], float atol, float rtol, float delta[2], float* score) {
  float b[2], A[2][2];
  b[0] = -(g[1][2] - g[1][0]) / 2.0f;
  b[1] = -(g[2][1] - g[0][1]) / 2.0f;
  A[0][0] = g[1][0] - 2.0f * g[1][1] + g[1][2];
  A[0][1] = (g[2][2] - g[2][0] - g[0][2] + g[0][0]) / 4.0f;
  A[1][0] = A[0][1];
  A[1][1] = g[0][1] - 2.0f * g[1][1] + g[2][1];
  const float diagonal = A[0][0] * A[1][1];
  const float det = diagonal - A[0][1] * A[1][0];
  if (std::abs(det) < atol + rtol * diagonal) return;
  delta[0] = (A[1][1] * b[0] - A[0][1] * b[1]) / det;
  delta[1] = (A[0][0] * b[1] - A[1][0] * b[0]) / det;
  // Offsets beyond 1.5 pixels are scaled back onto that bound.
  if (std::abs(delta[0]) > 1.5f || std::abs(delta[1]) > 1.5f) {
    const float s = 1.5f / std::max(std::abs(delta[0]), std::abs(delta[1]));
    delta[0] *= s;
    delta[1] *= s;
  }
  *score = g[1][1] - b[0] * delta[0] - b[1] * delta[1] +
           ((A[0][0] * delta[0] + A[0][1] * delta[1]) * delta[0] +
            (A[1][0] * delta[0] + A[1][1] * delta[1]) * delta[1]) /
               2.0f;
}

Status execute(OpContext& ctx) {
  const bool nchw = ctx.scalar<uint8_t>(kHeatmapLayoutInput) != 0;
  HeatmapDims d;
  NN_RETURN_IF_ERROR(heatmapDims(ctx, nchw, &d));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const std::vector<float> heat = inputAsFloat(ctx, 0);
  const std::vector<float> boxes = inputAsFloat(ctx, 1);
  // The reference loosens the invertibility test for half precision.
  const float tol = ctx.inputType(0) == kF16 ? 1e-3f : 1e-5f;
  const uint32_t S = d.size, K = d.keypoints;
  auto at = [&](uint32_t n, uint32_t h, uint32_t w, uint32_t k) {
    const size_t base = static_cast<size_t>(n) * S * S * K;
    return heat[nchw ? base + (static_cast<size_t>(k) * S + h) * S + w
                     : base + (static_cast<size_t>(h) * S + w) * K + k];
  };
  std::vector<float> scores(static_cast<size_t>(d.boxes) * K);
  std::vector<float> points(scores.size() * 2);
  for (uint32_t n = 0; n < d.boxes; ++n) {
    const float* box = &boxes[static_cast<size_t>(n) * 4];
    if (!(box[0] <= box[2]) || !(box[1] <= box[3]))
      return ctx.fail("box %u: invalid region, need x1 <= x2 and y1 <= y2", n);
    for (uint32_t k = 0; k < K; ++k) {
      uint32_t best = 0;
      float bestScore = -FLT_MAX;
      for (uint32_t i = 0; i < S * S; ++i) {
        const float v = at(n, i / S, i % S, k);
        if (bestScore < v) {
          bestScore = v;
          best = i;
        }
      }
      const uint32_t bw = best % S, bh = best / S;
      float grid[3][3];
      for (int dh = -1; dh <= 1; ++dh) {
        for (int dw = -1; dw <= 1; ++dw) {
          int h = static_cast<int>(bh) + dh, w = static_cast<int>(bw) + dw;
          // Neighbours outside the map are mirrored back inside.
          h = h < 0 ? 1 : (h >= static_cast<int>(S) ? static_cast<int>(S) - 2 : h);
          w = w < 0 ? 1 : (w >= static_cast<int>(S) ? static_cast<int>(S) - 2 : w);
          grid[dh + 1][dw + 1] = at(n, static_cast<uint32_t>(h), static_cast<uint32_t>(w), k);
        }
      }
      float delta[2] = {0.f, 0.f};
      float score = bestScore;
      refineMaximum(grid, tol, tol, delta, &score);
      const float relW = (static_cast<float>(bw) + delta[0] + 0.5f) / static_cast<float>(S);
      const float relH = (static_cast<float>(bh) + delta[1] + 0.5f) / static_cast<float>(S);
      const size_t o = static_cast<size_t>(n) * K + k;
      scores[o] = score;
      points[o * 2] = relW * (box[2] - box[0]) + box[0];
      points[o * 2 + 1] = relH * (box[3] - box[1]) + box[1];
    }
  }
  storeFloats(ctx.outputShape(0), scores.data(), scores.size(), ctx.outputData(0));
  storeFloats(ctx.outputShape(1), points.data(), points.size(), ctx.outputData(1));
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(HEATMAP_MAX_KEYPOINT, execute);

}  // namespace nn
