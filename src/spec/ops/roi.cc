// ROI_ALIGN and ROI_POOLING (API level 29): signatures, the scalar parameters and the output
// shape [boxes, out_height, out_width, channels] (NHWC or NCHW). The resampling is in
// cpu/kernels/roi.cc.
#include "spec/operation.h"
#include "spec/ops/detection.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace detection {

Status readRoiParams(const ShapeContext& ctx, bool align, RoiParams* p) {
  if (!haveScalars(ctx, 3, ctx.numInputs() - 1)) return kDeferred;
  p->outH = ctx.scalar<int32_t>(3);
  p->outW = ctx.scalar<int32_t>(4);
  p->hStride = floatScalar(ctx, 5);
  p->wStride = floatScalar(ctx, 6);
  if (align) {
    p->hRatio = ctx.scalar<int32_t>(7);
    p->wRatio = ctx.scalar<int32_t>(8);
  }
  p->nchw = ctx.scalar<uint8_t>(ctx.numInputs() - 1) != 0;
  if (p->outH <= 0 || p->outW <= 0)
    return ctx.fail("output height and width must be > 0, got %d and %d", p->outH, p->outW);
  if (!(p->hStride > 0.f) || !(p->wStride > 0.f))
    return ctx.fail("height and width strides must be > 0, got %g and %g", p->hStride, p->wStride);
  if (p->hRatio < 0 || p->wRatio < 0)
    return ctx.fail("sampling ratios must be >= 0, got %d and %d", p->hRatio, p->wRatio);
  return kOk;
}

}  // namespace detection

namespace {

using namespace detection;  // NOLINT: type names and signature checks
using shape_ops::Image4;
using shape_ops::image4;
using shape_ops::makeImageDims;

Status validateRoiCommon(ValidationContext& c, bool align) {
  const uint32_t expected = align ? 10 : 8;
  if (c.numInputs() != expected)
    return c.fail("expected %u inputs, got %u", expected, c.numInputs());
  if (c.numOutputs() != 1) return c.fail("expected 1 output, got %u", c.numOutputs());
  const OperandType t = c.inputType(0);
  OperandType roiType = t;
  OperandType scaleType = OperandType::FLOAT32;
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      scaleType = OperandType::FLOAT16;
      break;
    case OperandType::TENSOR_QUANT8_ASYMM:
      c.requireFeatureLevel(kFeatureLevel3);
      roiType = kQ16A;
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      c.requireFeatureLevel(kFeatureLevel4);
      roiType = kQ16A;
      break;
    default:
      return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32, TENSOR_FLOAT16, "
                    "TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED)",
                    toString(t));
  }
  if (align) {
    NN_RETURN_IF_ERROR(checkSignature(
        c,
        {t, roiType, kI32, OperandType::INT32, OperandType::INT32, scaleType, scaleType,
         OperandType::INT32, OperandType::INT32, OperandType::BOOL},
        {t}));
  } else {
    NN_RETURN_IF_ERROR(checkSignature(c,
                                      {t, roiType, kI32, OperandType::INT32, OperandType::INT32,
                                       scaleType, scaleType, OperandType::BOOL},
                                      {t}));
  }
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 4));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(2, 1));
  NN_RETURN_IF_ERROR(checkBoxQuant(c, c.input(1), "input 1 (boxes)"));
  if (!align && isQuant8Type(t) &&
      (c.output(0).scale != c.input(0).scale || c.output(0).zeroPoint != c.input(0).zeroPoint))
    return c.fail("output 0: scale/zeroPoint (%g, %d) must equal input 0's (%g, %d)",
                  c.output(0).scale, c.output(0).zeroPoint, c.input(0).scale,
                  c.input(0).zeroPoint);
  for (uint32_t i = 3; i <= 4; ++i) {
    int32_t v;
    if (c.constantScalar(i, &v) && v <= 0)
      return c.fail("input %u (output %s): must be > 0, got %d", i, i == 3 ? "height" : "width", v);
  }
  if (scaleType == OperandType::FLOAT32) {
    for (uint32_t i = 5; i <= 6; ++i) {
      float v;
      if (c.constantScalar(i, &v) && !(v > 0.f))
        return c.fail("input %u (%s stride): must be > 0, got %g", i, i == 5 ? "height" : "width",
                      v);
    }
  }
  if (align) {
    for (uint32_t i = 7; i <= 8; ++i) {
      int32_t v;
      if (c.constantScalar(i, &v) && v < 0)
        return c.fail("input %u (%s sampling ratio): must be >= 0, got %d", i,
                      i == 7 ? "height" : "width", v);
    }
  }
  return kOk;
}

Status validateRoiAlign(ValidationContext& c) { return validateRoiCommon(c, true); }
Status validateRoiPooling(ValidationContext& c) { return validateRoiCommon(c, false); }

Status inferRoiShapes(ShapeContext& ctx, bool align) {
  NN_RETURN_IF_ERROR(checkRank(ctx, 0, 4));
  NN_RETURN_IF_ERROR(checkRank(ctx, 1, 2));
  NN_RETURN_IF_ERROR(checkRank(ctx, 2, 1));
  RoiParams p;
  NN_RETURN_IF_ERROR(readRoiParams(ctx, align, &p));
  const Image4 in = image4(ctx.inputShape(0).dims, p.nchw);
  const uint32_t numRois = ctx.inputShape(1).dims[0];
  if (align && (in.n == 0 || in.h == 0 || in.w == 0 || in.c == 0))
    return ctx.fail("input 0: every dimension must be > 0, got %s",
                    toString(ctx.inputShape(0).dims).c_str());
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, 1, kRoiDim, "4"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 2, 0, numRois, "the number of boxes"));
  return ctx.setOutputDims(0, makeImageDims(numRois, static_cast<uint32_t>(p.outH),
                                            static_cast<uint32_t>(p.outW), in.c, p.nchw));
}

Status inferRoiAlignShapes(ShapeContext& ctx) { return inferRoiShapes(ctx, true); }
Status inferRoiPoolingShapes(ShapeContext& ctx) { return inferRoiShapes(ctx, false); }

}  // namespace

NN_DEFINE_OPERATION_SPEC(ROI_ALIGN, validateRoiAlign, inferRoiAlignShapes);
NN_DEFINE_OPERATION_SPEC(ROI_POOLING, validateRoiPooling, inferRoiPoolingShapes);

}  // namespace nn
