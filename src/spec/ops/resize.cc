// Image resizing: RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (op 94, API level 29) share
// the signature checks and output size computation (here); each has its own CPU kernel.
//
// Output size comes either from two INT32 scalars (width, height) or, since API level 29,
// from two float scale factors (new = floor(old * scale)). align_corners and
// half_pixel_centers (API level 30) change how output pixel centres map to input
// coordinates, following TensorFlow's image.resize. Arithmetic is float32 like the NNAPI
// reference; float16 is widened to float32.
#include "spec/ops/resize.h"

#include <cmath>

#include "spec/ops/shape_util.h"

namespace nn {
namespace resize_ops {
namespace {

constexpr uint32_t kLayoutInput = 3;
constexpr uint32_t kAlignCornersInput = 4;
constexpr uint32_t kHalfPixelInput = 5;

}  // namespace

Status readResizeParams(const ShapeContext& ctx, ResizeParams* p) {
  for (uint32_t i = 1; i <= 2; ++i)
    if (!ctx.hasInputData(i)) return kDeferred;
  if (!shape_ops::readOptionalBool(ctx, kLayoutInput, &p->nchw) ||
      !shape_ops::readOptionalBool(ctx, kAlignCornersInput, &p->alignCorners) ||
      !shape_ops::readOptionalBool(ctx, kHalfPixelInput, &p->halfPixel))
    return kDeferred;
  if (p->alignCorners && p->halfPixel)
    return ctx.fail("align_corners and half_pixel_centers cannot both be true");
  if (ctx.inputShape(0).rank() != 4)
    return ctx.fail("input 0: expected rank 4, got %u", ctx.inputShape(0).rank());
  const shape_ops::Image4 in = shape_ops::image4(ctx.inputShape(0).dims, p->nchw);
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

}  // namespace resize_ops

namespace {

using namespace shape_ops;
using resize_ops::kAlignCornersInput;
using resize_ops::kHalfPixelInput;
using resize_ops::kLayoutInput;

Status validate(ValidationContext& c) {
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

Status inferShapes(ShapeContext& ctx) {
  resize_ops::ResizeParams p;
  NN_RETURN_IF_ERROR(resize_ops::readResizeParams(ctx, &p));
  const Image4 in = image4(ctx.inputShape(0).dims, p.nchw);
  return ctx.setOutputDims(0, makeImageDims(in.n, p.outH, p.outW, in.c, p.nchw));
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(RESIZE_BILINEAR, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(RESIZE_NEAREST_NEIGHBOR, validate, inferShapes);

}  // namespace nn
