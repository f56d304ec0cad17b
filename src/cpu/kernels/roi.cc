// ROI_ALIGN and ROI_POOLING kernels (API level 29): crop each region of interest out of a
// feature map and resample it to a fixed out_height x out_width grid, by averaging bilinear
// samples (align) or by max pooling over integer bins (pooling).
//
// The arithmetic follows the NNAPI reference: float16 data is processed in half precision
// with half-precision box coordinates, float32 in float32; quantized ROI_ALIGN accumulates
// integer bilinear weights (quantized to 1/255) and requantizes with a fixed-point multiplier.
// Layouts are handled with strides instead of transposing to NHWC.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/detection_util.h"
#include "spec/ops/common.h"
#include "spec/ops/detection.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace detection;  // NOLINT: readRoiParams and the float32 staging
using shape_ops::Image4;
using shape_ops::image4;

// A box in feature-map coordinates after the validity checks every variant shares.
Status checkBox(OpContext& ctx, uint32_t index, int32_t batch, uint32_t numBatches, float x1,
                float y1, float x2, float y2, const Image4& in) {
  if (batch < 0 || static_cast<uint32_t>(batch) >= numBatches)
    return ctx.fail("box %u: batch index %d is out of range [0, %u)", index, batch, numBatches);
  if (!(x1 <= x2) || !(y1 <= y2))
    return ctx.fail("box %u: invalid region, need x1 <= x2 and y1 <= y2", index);
  if (!(x1 <= in.w && x2 <= in.w && y1 <= in.h && y2 <= in.h))
    return ctx.fail("box %u: region lies outside the %ux%u feature map", index, in.h, in.w);
  return kOk;
}

// ---- ROI_ALIGN ----------------------------------------------------------------------

// One bilinear sample: the four neighbour offsets (in elements, channel 0) and weights.
template <typename R>
struct BilinearTap {
  size_t off[4];
  R w[4];
};

template <typename R>
BilinearTap<R> bilinearTap(R y, R x, const Image4& in) {
  uint32_t x1 = static_cast<uint32_t>(std::floor(static_cast<float>(x)));
  uint32_t y1 = static_cast<uint32_t>(std::floor(static_cast<float>(y)));
  uint32_t x2 = x1 + 1, y2 = y1 + 1;
  R dx1 = x - static_cast<R>(x1);
  R dy1 = y - static_cast<R>(y1);
  // Samples on or past the last row/column collapse onto it.
  if (x1 >= in.w - 1) {
    x1 = x2 = in.w - 1;
    dx1 = 0;
  }
  if (y1 >= in.h - 1) {
    y1 = y2 = in.h - 1;
    dy1 = 0;
  }
  const R dx2 = R(1) - dx1, dy2 = R(1) - dy1;
  BilinearTap<R> t;
  t.w[0] = dx2 * dy2;
  t.w[1] = dx1 * dy2;
  t.w[2] = dx2 * dy1;
  t.w[3] = dx1 * dy1;
  t.off[0] = y1 * in.sh + x1 * in.sw;
  t.off[1] = y1 * in.sh + x2 * in.sw;
  t.off[2] = y2 * in.sh + x1 * in.sw;
  t.off[3] = y2 * in.sh + x2 * in.sw;
  return t;
}

// Per-box sampling grid.
template <typename R>
struct AlignGrid {
  R wStart, hStart, wStep, hStep, wBin, hBin;
  uint32_t wRatio, hRatio;
};

template <typename R>
AlignGrid<R> alignGrid(R x1, R y1, R x2, R y2, const RoiParams& p) {
  AlignGrid<R> g;
  const R roiW = static_cast<R>(std::max(static_cast<float>(x2 - x1), 1.0f));
  const R roiH = static_cast<R>(std::max(static_cast<float>(y2 - y1), 1.0f));
  g.wStep = roiW / static_cast<R>(p.outW);
  g.hStep = roiH / static_cast<R>(p.outH);
  g.wRatio = p.wRatio > 0 ? static_cast<uint32_t>(p.wRatio)
                          : static_cast<uint32_t>(std::ceil(static_cast<float>(g.wStep)));
  g.hRatio = p.hRatio > 0 ? static_cast<uint32_t>(p.hRatio)
                          : static_cast<uint32_t>(std::ceil(static_cast<float>(g.hStep)));
  g.wBin = g.wStep / static_cast<R>(g.wRatio);
  g.hBin = g.hStep / static_cast<R>(g.hRatio);
  g.wStart = x1;
  g.hStart = y1;
  return g;
}

// The spec puts no upper bound on the sampling ratios, but 1e9 x 1e9 samples per output bin
// would keep a core busy for centuries. Work beyond this many channel-samples per box (about a
// minute of computation) is refused; deadlines stop shorter runs (DeadlinePoll below).
constexpr double kMaxSamplesPerBox = 68719476736.0;  // 2^36

template <typename R>
Status checkSamplingWork(OpContext& ctx, uint32_t box, const AlignGrid<R>& g, const Image4& out,
                         uint32_t channels) {
  const double work = static_cast<double>(g.hRatio) * g.wRatio * out.h * out.w * channels;
  if (work > kMaxSamplesPerBox)
    return ctx.fail("box %u: sampling ratios %u x %u over a %ux%u output with %u channels need "
                    "%.3g samples, more than the %.3g this implementation computes per box",
                    box, g.hRatio, g.wRatio, out.h, out.w, channels, work, kMaxSamplesPerBox);
  return kOk;
}

// Polls the deadline every this many bilinear samples (each touches every channel).
constexpr uint32_t kSamplesPerDeadlinePoll = 256;

// Float32 (R = float) and float16 (R = Half) data with boxes of the same type.
template <typename T>
Status roiAlignFloat(OpContext& ctx, const RoiParams& p) {
  using R = T;
  const Image4 in = image4(ctx.inputShape(0).dims, p.nchw);
  const Image4 out = image4(ctx.outputShape(0).dims, p.nchw);
  const T* data = ctx.input<T>(0);
  const T* rois = ctx.input<T>(1);
  const int32_t* batches = ctx.input<int32_t>(2);
  T* dst = ctx.output<T>(0);
  const R hScale = static_cast<R>(1.0f / p.hStride);
  const R wScale = static_cast<R>(1.0f / p.wStride);
  const uint32_t numRois = ctx.inputShape(1).dims[0];
  std::vector<R> acc(in.c);
  DeadlinePoll poll(ctx, kSamplesPerDeadlinePoll);
  for (uint32_t r = 0; r < numRois; ++r) {
    const T* box = rois + r * kRoiDim;
    if (!(static_cast<float>(box[0]) >= 0 && static_cast<float>(box[1]) >= 0 &&
          static_cast<float>(box[2]) >= 0 && static_cast<float>(box[3]) >= 0))
      return ctx.fail("box %u: coordinates must be >= 0", r);
    const R x1 = box[0] * wScale, y1 = box[1] * hScale;
    const R x2 = box[2] * wScale, y2 = box[3] * hScale;
    NN_RETURN_IF_ERROR(checkBox(ctx, r, batches[r], in.n, static_cast<float>(x1),
                                static_cast<float>(y1), static_cast<float>(x2),
                                static_cast<float>(y2), in));
    const AlignGrid<R> g = alignGrid<R>(x1, y1, x2, y2, p);
    NN_RETURN_IF_ERROR(checkSamplingWork(ctx, r, g, out, in.c));
    const R count = static_cast<R>(static_cast<float>(g.wRatio) * static_cast<float>(g.hRatio));
    const T* img = data + static_cast<size_t>(batches[r]) * in.sn;
    for (uint32_t i = 0; i < out.h; ++i) {
      for (uint32_t j = 0; j < out.w; ++j) {
        const R wStart = g.wStep * static_cast<R>(j) + g.wStart;
        const R hStart = g.hStep * static_cast<R>(i) + g.hStart;
        std::fill(acc.begin(), acc.end(), R(0));
        for (uint32_t yi = 0; yi < g.hRatio; ++yi) {
          for (uint32_t xi = 0; xi < g.wRatio; ++xi) {
            if (poll.expired()) return poll.missed();
            const R y = hStart + g.hBin / R(2) + g.hBin * static_cast<R>(yi);
            const R x = wStart + g.wBin / R(2) + g.wBin * static_cast<R>(xi);
            const BilinearTap<R> t = bilinearTap<R>(y, x, in);
            for (uint32_t k = 0; k < in.c; ++k) {
              const size_t ck = k * in.sc;
              R v = 0;
              for (int q = 0; q < 4; ++q) v += t.w[q] * img[t.off[q] + ck];
              acc[k] += v;
            }
          }
        }
        T* o = dst + r * out.sn + i * out.sh + j * out.sw;
        for (uint32_t k = 0; k < in.c; ++k) o[k * out.sc] = static_cast<T>(acc[k] / count);
      }
    }
  }
  return kOk;
}

// Quantized data with QUANT16_ASYMM boxes (fixed scale 0.125).
template <typename T>
Status roiAlignQuant(OpContext& ctx, const RoiParams& p) {
  const Shape& inShape = ctx.inputShape(0);
  const Shape& outShape = ctx.outputShape(0);
  const Image4 in = image4(inShape.dims, p.nchw);
  const Image4 out = image4(outShape.dims, p.nchw);
  const T* data = ctx.input<T>(0);
  const uint16_t* rois = ctx.input<uint16_t>(1);
  const int32_t* batches = ctx.input<int32_t>(2);
  T* dst = ctx.output<T>(0);
  constexpr float kWeightScale = 1.0f / 255.0f;
  const float hScale = 1.0f / p.hStride;
  const float wScale = 1.0f / p.wStride;
  const uint32_t numRois = ctx.inputShape(1).dims[0];
  constexpr int32_t qmin = std::numeric_limits<T>::min();
  constexpr int32_t qmax = std::numeric_limits<T>::max();
  std::vector<int32_t> acc(in.c);
  DeadlinePoll poll(ctx, kSamplesPerDeadlinePoll);
  for (uint32_t r = 0; r < numRois; ++r) {
    const uint16_t* box = rois + r * kRoiDim;
    const float x1 = static_cast<float>(box[0]) * wScale * 0.125f;
    const float y1 = static_cast<float>(box[1]) * hScale * 0.125f;
    const float x2 = static_cast<float>(box[2]) * wScale * 0.125f;
    const float y2 = static_cast<float>(box[3]) * hScale * 0.125f;
    NN_RETURN_IF_ERROR(checkBox(ctx, r, batches[r], in.n, x1, y1, x2, y2, in));
    const AlignGrid<float> g = alignGrid<float>(x1, y1, x2, y2, p);
    NN_RETURN_IF_ERROR(checkSamplingWork(ctx, r, g, out, in.c));
    const uint64_t count = uint64_t(g.wRatio) * g.hRatio;
    const float realMultiplier =
        inShape.scale * kWeightScale / outShape.scale / static_cast<float>(count);
    int32_t multiplier = 0;
    int shift = 0;
    if (!quantizeMultiplierSmallerThanOne(realMultiplier, &multiplier, &shift))
      return ctx.fail("box %u: requantization multiplier %g must lie in [0, 1)", r,
                      realMultiplier);
    const T* img = data + static_cast<size_t>(batches[r]) * in.sn;
    for (uint32_t i = 0; i < out.h; ++i) {
      for (uint32_t j = 0; j < out.w; ++j) {
        const float wStart = g.wStep * j + g.wStart;
        const float hStart = g.hStep * i + g.hStart;
        std::fill(acc.begin(), acc.end(), 0);
        for (uint32_t yi = 0; yi < g.hRatio; ++yi) {
          for (uint32_t xi = 0; xi < g.wRatio; ++xi) {
            if (poll.expired()) return poll.missed();
            const float y = hStart + g.hBin / 2 + g.hBin * yi;
            const float x = wStart + g.wBin / 2 + g.wBin * xi;
            const BilinearTap<float> t = bilinearTap<float>(y, x, in);
            int32_t wq[4];
            for (int q = 0; q < 4; ++q) wq[q] = static_cast<int32_t>(std::round(t.w[q] / kWeightScale));
            for (uint32_t k = 0; k < in.c; ++k) {
              const size_t ck = k * in.sc;
              int32_t v = 0;
              for (int q = 0; q < 4; ++q)
                v += wq[q] * (static_cast<int32_t>(img[t.off[q] + ck]) - inShape.zeroPoint);
              acc[k] += v;
            }
          }
        }
        T* o = dst + r * out.sn + i * out.sh + j * out.sw;
        for (uint32_t k = 0; k < in.c; ++k) {
          const int32_t q =
              multiplyByQuantizedMultiplier(acc[k], multiplier, -shift) + outShape.zeroPoint;
          o[k * out.sc] = static_cast<T>(std::min(qmax, std::max(qmin, q)));
        }
      }
    }
  }
  return kOk;
}

Status executeRoiAlign(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  RoiParams p;
  NN_RETURN_IF_ERROR(readRoiParams(ctx, true, &p));
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32: return roiAlignFloat<float>(ctx, p);
    case OperandType::TENSOR_FLOAT16: return roiAlignFloat<Half>(ctx, p);
    case OperandType::TENSOR_QUANT8_ASYMM: return roiAlignQuant<uint8_t>(ctx, p);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return roiAlignQuant<int8_t>(ctx, p);
    default: return ctx.fail("unsupported input type %s", toString(ctx.inputType(0)));
  }
}

// ---- ROI_POOLING --------------------------------------------------------------------

// T: element type; R: box coordinate type (Half for float16, float otherwise).
template <typename T, typename R>
Status roiPooling(OpContext& ctx, const RoiParams& p, const R* rois) {
  const Shape& inShape = ctx.inputShape(0);
  const Image4 in = image4(inShape.dims, p.nchw);
  const Image4 out = image4(ctx.outputShape(0).dims, p.nchw);
  const T* data = ctx.input<T>(0);
  const int32_t* batches = ctx.input<int32_t>(2);
  T* dst = ctx.output<T>(0);
  const R hScale = static_cast<R>(1.0f / p.hStride);
  const R wScale = static_cast<R>(1.0f / p.wStride);
  const uint32_t numRois = ctx.inputShape(1).dims[0];
  // Empty bins produce the zero point (0 for float types).
  const T emptyValue = static_cast<T>(inShape.zeroPoint);
  for (uint32_t r = 0; r < numRois; ++r) {
    const R* box = rois + r * kRoiDim;
    if (!(static_cast<float>(box[0]) >= 0 && static_cast<float>(box[1]) >= 0 &&
          static_cast<float>(box[2]) >= 0 && static_cast<float>(box[3]) >= 0))
      return ctx.fail("box %u: coordinates must be >= 0", r);
    const R sx1 = box[0] * wScale, sy1 = box[1] * hScale;
    const R sx2 = box[2] * wScale, sy2 = box[3] * hScale;
    NN_RETURN_IF_ERROR(checkBox(ctx, r, batches[r], in.n, static_cast<float>(sx1),
                                static_cast<float>(sy1), static_cast<float>(sx2),
                                static_cast<float>(sy2), in));
    const int32_t x1 = static_cast<int32_t>(std::round(static_cast<float>(sx1)));
    const int32_t y1 = static_cast<int32_t>(std::round(static_cast<float>(sy1)));
    const int32_t x2 = static_cast<int32_t>(std::round(static_cast<float>(sx2)));
    const int32_t y2 = static_cast<int32_t>(std::round(static_cast<float>(sy2)));
    // Degenerate boxes still cover one pixel.
    const R roiW = static_cast<R>(static_cast<float>(std::max(x2 - x1 + 1, 1)));
    const R roiH = static_cast<R>(static_cast<float>(std::max(y2 - y1 + 1, 1)));
    const R wStep = roiW / static_cast<R>(static_cast<float>(p.outW));
    const R hStep = roiH / static_cast<R>(static_cast<float>(p.outH));
    const T* img = data + static_cast<size_t>(batches[r]) * in.sn;
    for (uint32_t i = 0; i < out.h; ++i) {
      const R fi = static_cast<R>(static_cast<float>(i));
      const R fi1 = static_cast<R>(static_cast<float>(i + 1));
      const R fy1 = static_cast<R>(static_cast<float>(y1));
      uint32_t hStart = static_cast<uint32_t>(std::floor(static_cast<float>(hStep * fi + fy1)));
      uint32_t hEnd = static_cast<uint32_t>(std::ceil(static_cast<float>(hStep * fi1 + fy1)));
      hStart = std::min(hStart, in.h);
      hEnd = std::min(hEnd, in.h);
      for (uint32_t j = 0; j < out.w; ++j) {
        const R fj = static_cast<R>(static_cast<float>(j));
        const R fj1 = static_cast<R>(static_cast<float>(j + 1));
        const R fx1 = static_cast<R>(static_cast<float>(x1));
        uint32_t wStart = static_cast<uint32_t>(std::floor(static_cast<float>(wStep * fj + fx1)));
        uint32_t wEnd = static_cast<uint32_t>(std::ceil(static_cast<float>(wStep * fj1 + fx1)));
        wStart = std::min(wStart, in.w);
        wEnd = std::min(wEnd, in.w);
        T* o = dst + r * out.sn + i * out.sh + j * out.sw;
        for (uint32_t k = 0; k < in.c; ++k) {
          T best = emptyValue;
          bool first = true;
          for (uint32_t h = hStart; h < hEnd; ++h) {
            for (uint32_t w = wStart; w < wEnd; ++w) {
              const T v = img[h * in.sh + w * in.sw + k * in.sc];
              if (first || v > best) {
                best = v;
                first = false;
              }
            }
          }
          o[k * out.sc] = best;
        }
      }
    }
  }
  return kOk;
}

Status executeRoiPooling(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  RoiParams p;
  NN_RETURN_IF_ERROR(readRoiParams(ctx, false, &p));
  switch (ctx.inputType(0)) {
    case OperandType::TENSOR_FLOAT32:
      return roiPooling<float, float>(ctx, p, ctx.input<float>(1));
    case OperandType::TENSOR_FLOAT16:
      return roiPooling<Half, Half>(ctx, p, ctx.input<Half>(1));
    case OperandType::TENSOR_QUANT8_ASYMM: {
      const std::vector<float> rois = inputAsFloat(ctx, 1);
      return roiPooling<uint8_t, float>(ctx, p, rois.data());
    }
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: {
      const std::vector<float> rois = inputAsFloat(ctx, 1);
      return roiPooling<int8_t, float>(ctx, p, rois.data());
    }
    default:
      return ctx.fail("unsupported input type %s", toString(ctx.inputType(0)));
  }
}

}  // namespace

NN_DEFINE_CPU_KERNEL(ROI_ALIGN, executeRoiAlign);
NN_DEFINE_CPU_KERNEL(ROI_POOLING, executeRoiPooling);

}  // namespace nn
