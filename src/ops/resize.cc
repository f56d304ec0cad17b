// Image resizing: RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (op 94, API level 29) share
// the signature checks and output size computation; each has its own kernel.
//
// Output size comes either from two INT32 scalars (width, height) or, since API level 29,
// from two float scale factors (new = floor(old * scale)). align_corners and
// half_pixel_centers (API level 30) change how output pixel centres map to input
// coordinates, following TensorFlow's image.resize. Arithmetic is float32 like the NNAPI
// reference; float16 is widened to float32.
#include "ops/operation.h"
#include "cpu/thread_pool.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

constexpr uint32_t kLayoutInput = 3;
constexpr uint32_t kAlignCornersInput = 4;
constexpr uint32_t kHalfPixelInput = 5;

Status validateResize(ValidationContext& c) {
  const bool bilinear = c.type() == OperationType::RESIZE_BILINEAR;
  // The layout flag is optional for bilinear (it predates it) but required for nearest.
  NN_RETURN_IF_ERROR(c.checkInputCount(bilinear ? 3 : 4, 6));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  if (!bilinear) c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 0, {{kF32, kFeatureLevel1}, {kQ8, kFeatureLevel3}, {kF16, kFeatureLevel3},
             {kQ8S, kFeatureLevel4}}));
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 4));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  const OperandType sizeType = c.inputType(1);
  if (c.inputType(2) != sizeType)
    return c.fail("inputs 1 and 2 must have the same type, got %s and %s", toString(sizeType),
                  toString(c.inputType(2)));
  const OperandType scaleType =
      c.inputType(0) == kF16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
  if (sizeType == OperandType::INT32) {
    for (uint32_t i = 1; i <= 2; ++i) {
      int32_t v;
      if (c.constantScalar(i, &v) && v <= 0)
        return c.fail("input %u (output %s): must be > 0, got %d", i, i == 1 ? "width" : "height",
                      v);
    }
  } else if (sizeType == scaleType) {
    c.requireFeatureLevel(kFeatureLevel3);
    if (sizeType == OperandType::FLOAT32) {
      for (uint32_t i = 1; i <= 2; ++i) {
        float v;
        if (c.constantScalar(i, &v) && !(v > 0.f))
          return c.fail("input %u (%s scale): must be > 0, got %g", i, i == 1 ? "width" : "height",
                        v);
      }
    }
  } else {
    return c.fail("inputs 1-2: expected INT32 output size or %s scales, got %s", toString(scaleType),
                  toString(sizeType));
  }
  NN_RETURN_IF_ERROR(checkOptionalBool(c, kLayoutInput, kFeatureLevel3));
  NN_RETURN_IF_ERROR(checkOptionalBool(c, kAlignCornersInput, kFeatureLevel4));
  NN_RETURN_IF_ERROR(checkOptionalBool(c, kHalfPixelInput, kFeatureLevel4));
  uint8_t align = 0, half = 0;
  if (hasOptionalInput(c, kAlignCornersInput) && hasOptionalInput(c, kHalfPixelInput) &&
      c.constantScalar(kAlignCornersInput, &align) && c.constantScalar(kHalfPixelInput, &half) &&
      align && half)
    return c.fail("align_corners and half_pixel_centers cannot both be true");
  return checkOutputLikeInput(c, 0, 0);
}

struct ResizeParams {
  bool nchw = false, alignCorners = false, halfPixel = false;
  uint32_t outH = 0, outW = 0;
};

Status readResizeParams(OpContext& ctx, ResizeParams* p) {
  for (uint32_t i = 1; i <= 2; ++i)
    if (!ctx.hasInputData(i)) return kDeferred;
  if (!readOptionalBool(ctx, kLayoutInput, &p->nchw) ||
      !readOptionalBool(ctx, kAlignCornersInput, &p->alignCorners) ||
      !readOptionalBool(ctx, kHalfPixelInput, &p->halfPixel))
    return kDeferred;
  if (p->alignCorners && p->halfPixel)
    return ctx.fail("align_corners and half_pixel_centers cannot both be true");
  if (ctx.inputShape(0).rank() != 4)
    return ctx.fail("input 0: expected rank 4, got %u", ctx.inputShape(0).rank());
  const Image4 in = image4(ctx.inputShape(0).dims, p->nchw);
  int64_t w, h;
  switch (ctx.inputType(1)) {
    case OperandType::INT32:
      w = ctx.scalar<int32_t>(1);
      h = ctx.scalar<int32_t>(2);
      break;
    case OperandType::FLOAT32:
    case OperandType::FLOAT16: {
      float sw, sh;
      if (ctx.inputType(1) == OperandType::FLOAT32) {
        sw = ctx.scalar<float>(1);
        sh = ctx.scalar<float>(2);
      } else {
        sw = static_cast<float>(ctx.scalar<Half>(1));
        sh = static_cast<float>(ctx.scalar<Half>(2));
      }
      if (!(sw > 0.f) || !(sh > 0.f))
        return ctx.fail("scales must be > 0, got width %g, height %g", sw, sh);
      const float fw = std::floor(static_cast<float>(in.w) * sw);
      const float fh = std::floor(static_cast<float>(in.h) * sh);
      if (!(fw < 4294967296.f) || !(fh < 4294967296.f))
        return ctx.fail("scaled output size is too large");
      w = static_cast<int64_t>(fw);
      h = static_cast<int64_t>(fh);
      break;
    }
    default:
      return ctx.fail("inputs 1-2: unsupported type %s", toString(ctx.inputType(1)));
  }
  if (w <= 0 || h <= 0)
    return ctx.fail("output size must be positive, got width %lld, height %lld", (long long)w,
                    (long long)h);
  p->outW = static_cast<uint32_t>(w);
  p->outH = static_cast<uint32_t>(h);
  return kOk;
}

Status prepareResize(OpContext& ctx) {
  ResizeParams p;
  NN_RETURN_IF_ERROR(readResizeParams(ctx, &p));
  const Image4 in = image4(ctx.inputShape(0).dims, p.nchw);
  return ctx.setOutputDims(0, makeImageDims(in.n, p.outH, p.outW, in.c, p.nchw));
}

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

template <typename T>
void resizeBilinear(const T* src, const Image4& in, T* dst, const Image4& out,
                    const ResizeParams& p, ThreadPool* pool) {
  const float hScale = axisScale(in.h, out.h, p.alignCorners);
  const float wScale = axisScale(in.w, out.w, p.alignCorners);
  std::vector<Sample> xs(out.w);
  for (uint32_t x = 0; x < out.w; ++x) xs[x] = sampleAt(x, wScale, p.halfPixel, in.w);
  const size_t rows = size_t(out.n) * out.h;
  auto work = [&](size_t begin, size_t end) {
    resizeBilinearRows(src, in, dst, out, p, xs, hScale, begin, end);
  };
  // Rows are independent; split when a row carries enough work to amortize the dispatch.
  const size_t rowWork = size_t(out.w) * in.c;
  if (pool != nullptr && pool->numThreads() > 1 && rows > 1 && rows * rowWork >= 16384) {
    pool->parallelFor(rows, std::max<size_t>(1, 4096 / std::max<size_t>(rowWork, 1)), work);
  } else {
    work(0, rows);
  }
}

Status executeResizeBilinear(OpContext& ctx) {
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  ResizeParams p;
  NN_RETURN_IF_ERROR(readResizeParams(ctx, &p));
  const Image4 in = image4(ctx.inputShape(0).dims, p.nchw);
  const Image4 out = image4(outShape.dims, p.nchw);
  ThreadPool* pool = ctx.useReferenceKernels() ? nullptr : ctx.threadPool();
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

Status executeResizeNearest(OpContext& ctx) {
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  ResizeParams p;
  NN_RETURN_IF_ERROR(readResizeParams(ctx, &p));
  const Image4 in = image4(ctx.inputShape(0).dims, p.nchw);
  const Image4 out = image4(outShape.dims, p.nchw);
  ThreadPool* pool = ctx.useReferenceKernels() ? nullptr : ctx.threadPool();
  return withElementType(elementSize(outShape.type), [&](auto tag) -> Status {
    using T = decltype(tag);
    resizeNearest(ctx.input<T>(0), in, ctx.output<T>(0), out, p, pool);
    return kOk;
  });
}

}  // namespace

NN_REGISTER_OPERATION(RESIZE_BILINEAR, validateResize, prepareResize, executeResizeBilinear);
NN_REGISTER_OPERATION(RESIZE_NEAREST_NEIGHBOR, validateResize, prepareResize, executeResizeNearest);

}  // namespace nn
