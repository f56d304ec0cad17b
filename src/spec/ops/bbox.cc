// Bounding-box operations (API level 29): AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT,
// GENERATE_PROPOSALS and DETECTION_POSTPROCESSING. Signatures and output shapes; the kernels
// are cpu/kernels/bbox.cc.
//
// BOX_WITH_NMS_LIMIT and GENERATE_PROPOSALS produce a number of boxes that depends on the
// input values: shape inference checks what the input shapes allow and returns kDeferred;
// the CPU kernel computes the outputs (and so their shapes) when it runs.
#include "spec/ops/dim_math.h"
#include "spec/operation.h"
#include "spec/ops/detection.h"

namespace nn {
namespace detection {

Status checkBoxWithNmsShapes(const ShapeContext& ctx) {
  NN_RETURN_IF_ERROR(checkRank(ctx, 0, 2));
  NN_RETURN_IF_ERROR(checkRank(ctx, 1, 2));
  NN_RETURN_IF_ERROR(checkRank(ctx, 2, 1));
  const uint32_t numRois = ctx.inputShape(0).dims[0];
  const uint32_t numClasses = ctx.inputShape(0).dims[1];
  if (numClasses <= 1)
    return ctx.fail("input 0: need more than one class (class 0 is background), got %u",
                    numClasses);
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, 0, numRois, "the number of boxes"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, 1, numClasses * kRoiDim, "4 * the number of classes"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 2, 0, numRois, "the number of boxes"));
  return kOk;
}

Status checkGenerateProposalsShapes(const ShapeContext& ctx, bool* nchwOut) {
  NN_RETURN_IF_ERROR(checkRank(ctx, 0, 4));
  NN_RETURN_IF_ERROR(checkRank(ctx, 1, 4));
  NN_RETURN_IF_ERROR(checkRank(ctx, 2, 2));
  NN_RETURN_IF_ERROR(checkRank(ctx, 3, 2));
  if (!ctx.hasInputData(10)) return kDeferred;
  const bool nchw = ctx.scalar<uint8_t>(10) != 0;
  *nchwOut = nchw;
  const Dims& sd = ctx.inputShape(0).dims;
  const uint32_t numBatches = sd[0];
  const uint32_t height = nchw ? sd[2] : sd[1];
  const uint32_t width = nchw ? sd[3] : sd[2];
  const uint32_t numAnchors = nchw ? sd[1] : sd[3];
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, 0, numBatches, "the number of images"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, nchw ? 2 : 1, height, "the score map height"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, nchw ? 3 : 2, width, "the score map width"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, nchw ? 1 : 3, numAnchors * kRoiDim, "4 * anchors"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 2, 0, numAnchors, "the number of anchors"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 2, 1, kRoiDim, "4"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 3, 0, numBatches, "the number of images"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 3, 1, 2, "2"));
  return kOk;
}

Status readPostprocessParams(const ShapeContext& ctx, PostprocessParams* p) {
  if (!haveScalars(ctx, 3, 13)) return kDeferred;
  p->scaleY = floatScalar(ctx, 3);
  p->scaleX = floatScalar(ctx, 4);
  p->scaleH = floatScalar(ctx, 5);
  p->scaleW = floatScalar(ctx, 6);
  p->regularNms = ctx.scalar<uint8_t>(7) != 0;
  p->maxDetections = ctx.scalar<int32_t>(8);
  p->maxClassesPerDetection = ctx.scalar<int32_t>(9);
  p->maxDetectionsPerClass = ctx.scalar<int32_t>(10);
  p->scoreThreshold = floatScalar(ctx, 11);
  p->iouThreshold = floatScalar(ctx, 12);
  p->backgroundInLabel = ctx.scalar<uint8_t>(13) != 0;
  if (!(p->scaleY > 0) || !(p->scaleX > 0) || !(p->scaleH > 0) || !(p->scaleW > 0))
    return ctx.fail("inputs 3-6: box scales must be > 0, got %g, %g, %g, %g", p->scaleY,
                    p->scaleX, p->scaleH, p->scaleW);
  if (!(p->scoreThreshold >= 0)) return ctx.fail("input 11: score threshold must be >= 0");
  if (!(p->iouThreshold >= 0)) return ctx.fail("input 12: IoU threshold must be >= 0");
  if (p->maxDetections <= 0)
    return ctx.fail("input 8: max_num_detections must be > 0, got %d", p->maxDetections);
  if (p->regularNms && p->maxDetectionsPerClass <= 0)
    return ctx.fail("input 10: max detections per class must be > 0, got %d",
                    p->maxDetectionsPerClass);
  if (!p->regularNms && p->maxClassesPerDetection <= 0)
    return ctx.fail("input 9: max classes per detection must be > 0, got %d",
                    p->maxClassesPerDetection);
  return kOk;
}

}  // namespace detection

namespace {

using namespace detection;  // NOLINT: type names and signature checks

// ---- AXIS_ALIGNED_BBOX_TRANSFORM ----------------------------------------------------

Status validateBboxTransform(ValidationContext& c) {
  c.requireFeatureLevel(kFeatureLevel3);
  if (c.numInputs() != 4) return c.fail("expected 4 inputs, got %u", c.numInputs());
  const OperandType t = c.inputType(0);
  if (t == kF32 || t == kF16) {
    NN_RETURN_IF_ERROR(checkSignature(c, {t, t, kI32, t}, {t}));
  } else if (t == kQ16A) {
    const OperandType deltaType = c.inputType(1);
    if (deltaType == kQ8S) c.requireFeatureLevel(kFeatureLevel4);
    if (deltaType != kQ8 && deltaType != kQ8S)
      return c.fail("input 1: deltas for TENSOR_QUANT16_ASYMM boxes must be TENSOR_QUANT8_ASYMM "
                    "or TENSOR_QUANT8_ASYMM_SIGNED, got %s",
                    toString(deltaType));
    NN_RETURN_IF_ERROR(checkSignature(c, {kQ16A, deltaType, kI32, kQ16A}, {kQ16A}));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.input(0), "input 0 (boxes)"));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.input(3), "input 3 (image info)"));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.output(0), "output 0"));
  } else {
    return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32, TENSOR_FLOAT16 or "
                  "TENSOR_QUANT16_ASYMM)",
                  toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(2, 1));
  return c.checkInputRank(3, 2);
}

Status inferBboxTransformShapes(ShapeContext& ctx) {
  NN_RETURN_IF_ERROR(checkRank(ctx, 0, 2));
  NN_RETURN_IF_ERROR(checkRank(ctx, 1, 2));
  NN_RETURN_IF_ERROR(checkRank(ctx, 2, 1));
  NN_RETURN_IF_ERROR(checkRank(ctx, 3, 2));
  const uint32_t numRois = ctx.inputShape(0).dims[0];
  const uint32_t deltaWidth = ctx.inputShape(1).dims[1];
  const uint32_t numClasses = deltaWidth / kRoiDim;
  const uint32_t numBatches = ctx.inputShape(3).dims[0];
  if (numClasses == 0 || deltaWidth != numClasses * kRoiDim)
    return ctx.fail("input 1: the last dimension must be a positive multiple of 4, got %u",
                    deltaWidth);
  if (numBatches == 0) return ctx.fail("input 3: the number of images must be > 0");
  NN_RETURN_IF_ERROR(checkDim(ctx, 0, 1, kRoiDim, "4"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, 0, numRois, "the number of boxes"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 2, 0, numRois, "the number of boxes"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 3, 1, 2, "2"));
  uint32_t width;
  if (!dim_math::productDim({numClasses, kRoiDim}, &width))
    return ctx.fail("input 1: %u classes x 4 coordinates do not fit a 32-bit dimension", numClasses);
  return ctx.setOutputDims(0, {numRois, width});
}

// ---- BOX_WITH_NMS_LIMIT -------------------------------------------------------------

Status validateBoxWithNms(ValidationContext& c) {
  c.requireFeatureLevel(kFeatureLevel3);
  if (c.numInputs() != 9) return c.fail("expected 9 inputs, got %u", c.numInputs());
  const OperandType t = c.inputType(0);
  const OperandType f32 = OperandType::FLOAT32, i32 = OperandType::INT32;
  if (t == kF32 || t == kF16) {
    const OperandType s = floatScalarFor(t);
    NN_RETURN_IF_ERROR(checkSignature(c, {t, t, kI32, s, i32, i32, s, s, s}, {t, t, kI32, kI32}));
  } else if (t == kQ8 || t == kQ8S) {
    if (t == kQ8S) c.requireFeatureLevel(kFeatureLevel4);
    NN_RETURN_IF_ERROR(checkSignature(c, {t, kQ16A, kI32, f32, i32, i32, f32, f32, f32},
                                      {t, kQ16A, kI32, kI32}));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.input(1), "input 1 (boxes)"));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.output(1), "output 1"));
    if (c.output(0).scale != c.input(0).scale || c.output(0).zeroPoint != c.input(0).zeroPoint)
      return c.fail("output 0: scale/zeroPoint (%g, %d) must equal input 0's (%g, %d)",
                    c.output(0).scale, c.output(0).zeroPoint, c.input(0).scale,
                    c.input(0).zeroPoint);
  } else {
    return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32, TENSOR_FLOAT16, "
                  "TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED)",
                  toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(2, 1));
  int32_t kernel;
  if (c.constantScalar(5, &kernel) && (kernel < kHardNms || kernel > kGaussianNms))
    return c.fail("input 5 (NMS kernel): must be 0 (hard), 1 (linear) or 2 (gaussian), got %d",
                  kernel);
  return kOk;
}

Status inferBoxWithNmsShapes(ShapeContext& ctx) {
  NN_RETURN_IF_ERROR(checkBoxWithNmsShapes(ctx));
  // The number of boxes kept is only known once the values are.
  return kDeferred;
}

// ---- GENERATE_PROPOSALS -------------------------------------------------------------

Status validateGenerateProposals(ValidationContext& c) {
  c.requireFeatureLevel(kFeatureLevel3);
  if (c.numInputs() != 11) return c.fail("expected 11 inputs, got %u", c.numInputs());
  const OperandType t = c.inputType(0);
  const OperandType f32 = OperandType::FLOAT32, i32 = OperandType::INT32,
                    b = OperandType::BOOL;
  if (t == kF32 || t == kF16) {
    const OperandType s = floatScalarFor(t);
    NN_RETURN_IF_ERROR(
        checkSignature(c, {t, t, t, t, s, s, i32, i32, s, s, b}, {t, t, kI32}));
  } else if (t == kQ8 || t == kQ8S) {
    if (t == kQ8S) c.requireFeatureLevel(kFeatureLevel4);
    NN_RETURN_IF_ERROR(checkSignature(c, {t, t, kQ16S, kQ16A, f32, f32, i32, i32, f32, f32, b},
                                      {t, kQ16A, kI32}));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.input(2), "input 2 (anchors)"));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.input(3), "input 3 (image info)"));
    NN_RETURN_IF_ERROR(checkBoxQuant(c, c.output(1), "output 1"));
    if (c.output(0).scale != c.input(0).scale || c.output(0).zeroPoint != c.input(0).zeroPoint)
      return c.fail("output 0: scale/zeroPoint (%g, %d) must equal input 0's (%g, %d)",
                    c.output(0).scale, c.output(0).zeroPoint, c.input(0).scale,
                    c.input(0).zeroPoint);
  } else {
    return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32, TENSOR_FLOAT16, "
                  "TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED)",
                  toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 4));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 4));
  NN_RETURN_IF_ERROR(c.checkInputRank(2, 2));
  return c.checkInputRank(3, 2);
}

Status inferGenerateProposalsShapes(ShapeContext& ctx) {
  bool nchw = false;
  NN_RETURN_IF_ERROR(checkGenerateProposalsShapes(ctx, &nchw));
  return kDeferred;  // the number of proposals depends on the values
}

// ---- DETECTION_POSTPROCESSING -------------------------------------------------------

Status validateDetectionPostprocess(ValidationContext& c) {
  c.requireFeatureLevel(kFeatureLevel3);
  if (c.numInputs() != 14) return c.fail("expected 14 inputs, got %u", c.numInputs());
  const OperandType t = c.inputType(0);
  if (t != kF32 && t != kF16)
    return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32 or TENSOR_FLOAT16)",
                  toString(t));
  const OperandType s = floatScalarFor(t), i32 = OperandType::INT32, b = OperandType::BOOL;
  NN_RETURN_IF_ERROR(
      checkSignature(c, {t, t, t, s, s, s, s, b, i32, i32, i32, s, s, b}, {t, t, kI32, kI32}));
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 3));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 3));
  return c.checkInputRank(2, 2);
}

Status inferDetectionPostprocessShapes(ShapeContext& ctx) {
  NN_RETURN_IF_ERROR(checkRank(ctx, 0, 3));
  NN_RETURN_IF_ERROR(checkRank(ctx, 1, 3));
  NN_RETURN_IF_ERROR(checkRank(ctx, 2, 2));
  const Dims& sd = ctx.inputShape(0).dims;
  const uint32_t numBatches = sd[0], numAnchors = sd[1], numClasses = sd[2];
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, 0, numBatches, "the number of batches"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 1, 1, numAnchors, "the number of anchors"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 2, 0, numAnchors, "the number of anchors"));
  NN_RETURN_IF_ERROR(checkDim(ctx, 2, 1, kRoiDim, "4"));
  if (numClasses <= 1)
    return ctx.fail("input 0: need more than one class (class 0 is background), got %u",
                    numClasses);
  if (ctx.inputShape(1).dims[2] < 4)
    return ctx.fail("input 1: box encodings need at least 4 values, got %u",
                    ctx.inputShape(1).dims[2]);
  PostprocessParams p;
  NN_RETURN_IF_ERROR(readPostprocessParams(ctx, &p));
  uint64_t numOut = static_cast<uint64_t>(p.maxDetections);
  if (!p.regularNms) numOut *= static_cast<uint64_t>(p.maxClassesPerDetection);
  if (numOut > (1u << 24)) return ctx.fail("too many output detections (%llu)",
                                           static_cast<unsigned long long>(numOut));
  const uint32_t n = static_cast<uint32_t>(numOut);
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, {numBatches, n}));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(1, {numBatches, n, kRoiDim}));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(2, {numBatches, n}));
  return ctx.setOutputDims(3, {numBatches});
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(AXIS_ALIGNED_BBOX_TRANSFORM, validateBboxTransform,
                         inferBboxTransformShapes);
NN_DEFINE_OPERATION_SPEC(BOX_WITH_NMS_LIMIT, validateBoxWithNms, inferBoxWithNmsShapes);
NN_DEFINE_OPERATION_SPEC(GENERATE_PROPOSALS, validateGenerateProposals,
                         inferGenerateProposalsShapes);
NN_DEFINE_OPERATION_SPEC(DETECTION_POSTPROCESSING, validateDetectionPostprocess,
                         inferDetectionPostprocessShapes);

}  // namespace nn
