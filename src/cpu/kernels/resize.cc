// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR on the CPU. align_corners and
// half_pixel_centers change how output pixel centres map to input coordinates, following
// TensorFlow's image.resize. Arithmetic is float32 like the NNAPI reference; float16 is
// widened to float32. The fast kernels split rows over the thread pool; the reference
// kernels run the same arithmetic on one thread.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/vectorize.h"
#include "cpu/thread_pool.h"
#include "spec/ops/resize.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;
using resize_ops::ResizeParams;

// Ratio between input and output coordinates along one axis.
float axisScale(uint32_t in, uint32_t out, bool alignCorners) {
  if (alignCorners && out > 1) return static_cast<float>(in - 1) / static_cast<float>(out - 1);
  return static_cast<float>(in) / static_cast<float>(out);
}

// Source coordinate and its two neighbouring integer positions for output index i.
struct Sample {
  float pos;
  uint32_t lo, hi;
};
Sample sampleAt(uint32_t i, float scale, bool halfPixel, uint32_t inSize) {
  Sample s;
  s.pos = halfPixel ? (static_cast<float>(i) + 0.5f) * scale - 0.5f : static_cast<float>(i) * scale;
  const int32_t lo = static_cast<int32_t>(std::floor(s.pos));
  const int32_t hi = static_cast<int32_t>(std::ceil(s.pos));
  // Clamped on both sides so float rounding can never index outside the image.
  s.lo = static_cast<uint32_t>(std::min(std::max(lo, 0), static_cast<int32_t>(inSize) - 1));
  s.hi = static_cast<uint32_t>(std::min(hi, static_cast<int32_t>(inSize) - 1));
  return s;
}

template <typename T>
struct Convert {
  static float in(T v) { return static_cast<float>(v); }
  // 8-bit results round half up: the NNAPI conformance vectors for quant8 bilinear
  // resizing match floor(v + 0.5) exactly, whereas truncation is off by one on many.
  static T out(float v) {
    const float r = std::floor(v + 0.5f);
    const float lo = static_cast<float>(std::numeric_limits<T>::min());
    const float hi = static_cast<float>(std::numeric_limits<T>::max());
    return static_cast<T>(std::min(hi, std::max(lo, r)));
  }
};
template <>
struct Convert<float> {
  static float in(float v) { return v; }
  static float out(float v) { return v; }
};
template <>
struct Convert<Half> {
  static float in(Half v) { return static_cast<float>(v); }
  static Half out(float v) { return static_cast<Half>(v); }
};

// Computes output rows [rowBegin, rowEnd) of the flattened (batch, y) range.
template <typename T>
void resizeBilinearRows(const T* src, const Image4& in, T* dst, const Image4& out,
                        const ResizeParams& p, const std::vector<Sample>& xs, float hScale,
                        size_t rowBegin, size_t rowEnd) {
  for (size_t row = rowBegin; row < rowEnd; ++row) {
    const uint32_t b = static_cast<uint32_t>(row / out.h);
    const uint32_t y = static_cast<uint32_t>(row % out.h);
    const T* img = src + b * in.sn;
    const Sample sy = sampleAt(y, hScale, p.halfPixel, in.h);
    const float dy = sy.pos - static_cast<float>(sy.lo);
    for (uint32_t x = 0; x < out.w; ++x) {
      const Sample& sx = xs[x];
      const float dx = sx.pos - static_cast<float>(sx.lo);
      const T* p00 = img + sy.lo * in.sh + sx.lo * in.sw;
      const T* p10 = img + sy.hi * in.sh + sx.lo * in.sw;
      const T* p01 = img + sy.lo * in.sh + sx.hi * in.sw;
      const T* p11 = img + sy.hi * in.sh + sx.hi * in.sw;
      T* d = dst + b * out.sn + y * out.sh + x * out.sw;
      for (uint32_t c = 0; c < in.c; ++c) {
        const size_t ci = c * in.sc;
        const float v = Convert<T>::in(p00[ci]) * (1 - dy) * (1 - dx) +
                        Convert<T>::in(p10[ci]) * dy * (1 - dx) +
                        Convert<T>::in(p01[ci]) * (1 - dy) * dx +
                        Convert<T>::in(p11[ci]) * dy * dx;
        d[c * out.sc] = Convert<T>::out(v);
      }
    }
  }
}

typedef float Float8 __attribute__((vector_size(32)));
typedef float Float16 __attribute__((vector_size(64)));
// Always inlined (and so is the function below into its ISA-cloned callers): the ABI of
// 32-byte vector arguments and returns that -Wpsabi warns about never applies.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
__attribute__((always_inline)) inline Float8 load8(const float* p) {
  Float8 v;
  memcpy(&v, p, sizeof(v));
  return v;
}
__attribute__((always_inline)) inline Float16 load16(const float* p) {
  Float16 v;
  memcpy(&v, p, sizeof(v));
  return v;
}

// resizeBilinearRows for float32 NHWC (channels contiguous): the same expression per element
// in the same order, over blocks of 16 and 8 channels as lane-wise IEEE vector operations (no FMA
// contraction: -ffp-contract=off), so every value is the generic loop's.
void resizeBilinearRowsNhwc(const float* src, const Image4& in, float* dst, const Image4& out,
                            const ResizeParams& p, const std::vector<Sample>& xs, float hScale,
                            size_t rowBegin, size_t rowEnd) {
  const uint32_t channels = in.c;
  for (size_t row = rowBegin; row < rowEnd; ++row) {
    const uint32_t b = static_cast<uint32_t>(row / out.h);
    const uint32_t y = static_cast<uint32_t>(row % out.h);
    const float* img = src + b * in.sn;
    const Sample sy = sampleAt(y, hScale, p.halfPixel, in.h);
    const float dy = sy.pos - static_cast<float>(sy.lo);
    const float wy0 = 1 - dy;
    const float* top = img + sy.lo * in.sh;
    const float* bottom = img + sy.hi * in.sh;
    float* d = dst + b * out.sn + y * out.sh;
    for (uint32_t x = 0; x < out.w; ++x, d += out.sw) {
      const Sample& sx = xs[x];
      const float dx = sx.pos - static_cast<float>(sx.lo);
      const float wx0 = 1 - dx;
      const float* __restrict p00 = top + sx.lo * in.sw;
      const float* __restrict p10 = bottom + sx.lo * in.sw;
      const float* __restrict p01 = top + sx.hi * in.sw;
      const float* __restrict p11 = bottom + sx.hi * in.sw;
      float* __restrict o = d;
      uint32_t c = 0;
      for (; c + 16 <= channels; c += 16) {
        const Float16 v = load16(p00 + c) * wy0 * wx0 + load16(p10 + c) * dy * wx0 +
                          load16(p01 + c) * wy0 * dx + load16(p11 + c) * dy * dx;
        memcpy(o + c, &v, sizeof(v));
      }
      for (; c + 8 <= channels; c += 8) {
        const Float8 v = load8(p00 + c) * wy0 * wx0 + load8(p10 + c) * dy * wx0 +
                         load8(p01 + c) * wy0 * dx + load8(p11 + c) * dy * dx;
        memcpy(o + c, &v, sizeof(v));
      }
      for (; c < channels; ++c)
        o[c] = p00[c] * wy0 * wx0 + p10[c] * dy * wx0 + p01[c] * wy0 * dx + p11[c] * dy * dx;
    }
  }
}

#pragma GCC diagnostic pop

template <typename T>
void resizeBilinear(const T* src, const Image4& in, T* dst, const Image4& out,
                    const ResizeParams& p, ThreadPool* pool) {
  const float hScale = axisScale(in.h, out.h, p.alignCorners);
  const float wScale = axisScale(in.w, out.w, p.alignCorners);
  std::vector<Sample> xs(out.w);
  for (uint32_t x = 0; x < out.w; ++x) xs[x] = sampleAt(x, wScale, p.halfPixel, in.w);
  const size_t rows = size_t(out.n) * out.h;
  // The fast device's float32 NHWC form (the reference device keeps the generic loop).
  bool contiguous = false;
  if constexpr (std::is_same<T, float>::value)
    contiguous = pool != nullptr && in.sc == 1 && out.sc == 1;
  auto work = [&](size_t begin, size_t end) {
    if constexpr (std::is_same<T, float>::value) {
      if (contiguous) {
        resizeBilinearRowsNhwc(src, in, dst, out, p, xs, hScale, begin, end);
        return;
      }
    }
    resizeBilinearRows(src, in, dst, out, p, xs, hScale, begin, end);
  };
  // Rows are independent; split when a row carries enough work to amortize the dispatch.
  const size_t rowWork = size_t(out.w) * in.c;
  // The fast device (it passes its pool) runs the rows in an ISA-specific clone.
  auto run = [&](size_t begin, size_t end) {
    if (pool != nullptr) vectorize::runVectorized(work, begin, end);
    else work(begin, end);
  };
  if (pool != nullptr && pool->numThreads() > 1 && rows > 1 && rows * rowWork >= 16384) {
    pool->parallelFor(rows, std::max<size_t>(1, 4096 / std::max<size_t>(rowWork, 1)), run);
  } else {
    run(0, rows);
  }
}

// The reference device passes no pool: one thread, rows in order.
Status runBilinear(OpContext& ctx, ThreadPool* pool) {
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  ResizeParams p;
  NN_RETURN_IF_ERROR(resize_ops::readResizeParams(ctx, &p));
  const Image4 in = image4(ctx.inputShape(0).dims, p.nchw);
  const Image4 out = image4(outShape.dims, p.nchw);
  switch (outShape.type) {
    case OperandType::TENSOR_FLOAT32:
      resizeBilinear(ctx.input<float>(0), in, ctx.output<float>(0), out, p, pool);
      return kOk;
    case OperandType::TENSOR_FLOAT16:
      resizeBilinear(ctx.input<Half>(0), in, ctx.output<Half>(0), out, p, pool);
      return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM:
      resizeBilinear(ctx.input<uint8_t>(0), in, ctx.output<uint8_t>(0), out, p, pool);
      return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      resizeBilinear(ctx.input<int8_t>(0), in, ctx.output<int8_t>(0), out, p, pool);
      return kOk;
    default:
      return ctx.fail("unsupported input type %s", toString(outShape.type));
  }
}

// Source index of output index i along one axis, as TensorFlow Lite's nearest-neighbour
// resize (and so the NNAPI reference) computes it: align_corners rounds, otherwise floor.
uint32_t nearestIndex(uint32_t i, uint32_t inSize, uint32_t outSize, const ResizeParams& p) {
  const float scale = axisScale(inSize, outSize, p.alignCorners);
  const float pos = (static_cast<float>(i) + (p.halfPixel ? 0.5f : 0.f)) * scale;
  int64_t v = p.alignCorners ? static_cast<int64_t>(std::round(pos))
                             : static_cast<int64_t>(std::floor(pos));
  v = std::min<int64_t>(v, static_cast<int64_t>(inSize) - 1);
  return static_cast<uint32_t>(std::max<int64_t>(v, 0));
}

// Nearest-neighbour only moves elements, so one kernel per element width serves every type.
template <typename T>
void resizeNearest(const T* src, const Image4& in, T* dst, const Image4& out,
                   const ResizeParams& p, ThreadPool* pool) {
  std::vector<uint32_t> xs(out.w);
  for (uint32_t x = 0; x < out.w; ++x) xs[x] = nearestIndex(x, in.w, out.w, p);
  const size_t rows = size_t(out.n) * out.h;
  auto work = [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      const uint32_t b = static_cast<uint32_t>(row / out.h);
      const uint32_t y = static_cast<uint32_t>(row % out.h);
      const T* srcRow = src + b * in.sn + nearestIndex(y, in.h, out.h, p) * in.sh;
      T* dstRow = dst + b * out.sn + y * out.sh;
      for (uint32_t x = 0; x < out.w; ++x)
        copyChannels(dstRow + x * out.sw, out.sc, srcRow + xs[x] * in.sw, in.sc, in.c);
    }
  };
  const size_t rowWork = size_t(out.w) * in.c;
  if (pool != nullptr && pool->numThreads() > 1 && rows > 1 && rows * rowWork >= 65536) {
    pool->parallelFor(rows, std::max<size_t>(1, 16384 / std::max<size_t>(rowWork, 1)), work);
  } else {
    work(0, rows);
  }
}

Status runNearest(OpContext& ctx, ThreadPool* pool) {
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  ResizeParams p;
  NN_RETURN_IF_ERROR(resize_ops::readResizeParams(ctx, &p));
  const Image4 in = image4(ctx.inputShape(0).dims, p.nchw);
  const Image4 out = image4(outShape.dims, p.nchw);
  return withElementType(elementSize(outShape.type), [&](auto tag) -> Status {
    using T = decltype(tag);
    resizeNearest(ctx.input<T>(0), in, ctx.output<T>(0), out, p, pool);
    return kOk;
  });
}

Status executeBilinear(OpContext& ctx) { return runBilinear(ctx, ctx.threadPool()); }
Status executeBilinearReference(OpContext& ctx) { return runBilinear(ctx, nullptr); }
Status executeNearest(OpContext& ctx) { return runNearest(ctx, ctx.threadPool()); }
Status executeNearestReference(OpContext& ctx) { return runNearest(ctx, nullptr); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(RESIZE_BILINEAR, executeBilinear, executeBilinearReference, nullptr,
                          nullptr);
NN_DEFINE_CPU_KERNEL_FULL(RESIZE_NEAREST_NEIGHBOR, executeNearest, executeNearestReference,
                          nullptr, nullptr);

}  // namespace nn
