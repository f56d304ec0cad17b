// HEATMAP_MAX_KEYPOINT (API level 29): for every box and keypoint, finds the heatmap maximum,
// refines its position and score with a quadratic (second-order Taylor) fit on the 3x3
// neighbourhood, and maps the position into the box. Computes in float32 like the NNAPI
// reference; quantized heatmaps are dequantized and the results requantized.
#include <cfloat>

#include "ops/operation.h"
#include "ops/detection_util.h"

namespace nn {
namespace {

using namespace detection;

constexpr uint32_t kLayoutInput = 2;

Status validateHeatmap(ValidationContext& c) {
  c.requireFeatureLevel(kFeatureLevel3);
  if (c.numInputs() != 3) return c.fail("expected 3 inputs, got %u", c.numInputs());
  const OperandType t = c.inputType(0);
  if (t == kF32 || t == kF16) {
    NN_RETURN_IF_ERROR(checkSignature(c, {t, t, OperandType::BOOL}, {t, t}));
  } else if (t == kQ8 || t == kQ8S) {
    if (t == kQ8S) c.requireFeatureLevel(kFeatureLevel4);
    NN_RETURN_IF_ERROR(checkSignature(c, {t, kQ16A, OperandType::BOOL}, {t, kQ16A}));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.input(1), "input 1 (boxes)"));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.output(1), "output 1 (keypoints)"));
  } else {
    return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32, TENSOR_FLOAT16, "
                  "TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED)",
                  toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 4));
  return c.checkInputRank(1, 2);
}

struct HeatmapDims {
  uint32_t boxes, size, keypoints;
};

Status heatmapDims(OpContext& ctx, bool nchw, HeatmapDims* d) {
  NN_RETURN_IF_ERROR(checkRank(ctx, 0, 4));
  NN_RETURN_IF_ERROR(checkRank(ctx, 1, 2));
  const Dims& hd = ctx.inputShape(0).dims;
  d->boxes = hd[0];
  d->size = hd[2];
  d->keypoints = nchw ? hd[1] : hd[3];
  NN_RETURN_IF_ERROR(checkDim(ctx, 0, nchw ? 3 : 1, d->size, "the heatmap width (square maps)"));
  if (d->size < 2) return ctx.fail("input 0: heatmaps must be at least 2x2, got %ux%u", d->size,
                                    d->size);
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, 0, d->boxes, "the number of heatmaps"));
  return checkDim(ctx, 1, 1, 4, "4");
}

Status prepareHeatmap(OpContext& ctx) {
  if (!ctx.hasInputData(kLayoutInput)) return kDeferred;
  HeatmapDims d;
  NN_RETURN_IF_ERROR(heatmapDims(ctx, ctx.scalar<uint8_t>(kLayoutInput) != 0, &d));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, {d.boxes, d.keypoints}));
  return ctx.setOutputDims(1, {d.boxes, d.keypoints, 2});
}

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

Status executeHeatmap(OpContext& ctx) {
  const bool nchw = ctx.scalar<uint8_t>(kLayoutInput) != 0;
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

NN_REGISTER_OPERATION(HEATMAP_MAX_KEYPOINT, validateHeatmap, prepareHeatmap, executeHeatmap);

}  // namespace nn
