// Image resizing. RESIZE_BILINEAR is implemented here; the signature checks and output
// size computation are shared so RESIZE_NEAREST_NEIGHBOR (op 94, API level 29) can reuse
// them with its own kernel.
//
// Output size comes either from two INT32 scalars (width, height) or, since API level 29,
// from two float scale factors (new = floor(old * scale)). align_corners and
// half_pixel_centers (API level 30) change how output pixel centres map to input
// coordinates, following TensorFlow's image.resize. Arithmetic is float32 like the NNAPI
// reference; float16 is widened to float32.
#include "ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

constexpr uint32_t kLayoutInput = 3;
constexpr uint32_t kAlignCornersInput = 4;
constexpr uint32_t kHalfPixelInput = 5;

Status validateResize(ValidationContext& c) {
  const bool bilinear = c.type() == OperationType::RESIZE_BILINEAR;
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 6));
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
  s.lo = static_cast<uint32_t>(std::max(lo, 0));
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

template <typename T>
void resizeBilinear(const T* src, const Image4& in, T* dst, const Image4& out,
                    const ResizeParams& p) {
  const float hScale = axisScale(in.h, out.h, p.alignCorners);
  const float wScale = axisScale(in.w, out.w, p.alignCorners);
  std::vector<Sample> xs(out.w);
  for (uint32_t x = 0; x < out.w; ++x) xs[x] = sampleAt(x, wScale, p.halfPixel, in.w);
  for (uint32_t b = 0; b < out.n; ++b) {
    const T* img = src + b * in.sn;
    for (uint32_t y = 0; y < out.h; ++y) {
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
}

Status executeResizeBilinear(OpContext& ctx) {
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  ResizeParams p;
  NN_RETURN_IF_ERROR(readResizeParams(ctx, &p));
  const Image4 in = image4(ctx.inputShape(0).dims, p.nchw);
  const Image4 out = image4(outShape.dims, p.nchw);
  switch (outShape.type) {
    case OperandType::TENSOR_FLOAT32:
      resizeBilinear(ctx.input<float>(0), in, ctx.output<float>(0), out, p);
      return kOk;
    case OperandType::TENSOR_FLOAT16:
      resizeBilinear(ctx.input<Half>(0), in, ctx.output<Half>(0), out, p);
      return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM:
      resizeBilinear(ctx.input<uint8_t>(0), in, ctx.output<uint8_t>(0), out, p);
      return kOk;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      resizeBilinear(ctx.input<int8_t>(0), in, ctx.output<int8_t>(0), out, p);
      return kOk;
    default:
      return ctx.fail("unsupported input type %s", toString(outShape.type));
  }
}

}  // namespace

NN_REGISTER_OPERATION(RESIZE_BILINEAR, validateResize, prepareResize, executeResizeBilinear);

}  // namespace nn
