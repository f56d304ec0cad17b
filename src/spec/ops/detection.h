// The detection operations at the catalog level (ROI_ALIGN, ROI_POOLING, the bounding-box
// family, HEATMAP_MAX_KEYPOINT, and INSTANCE_NORMALIZATION which shares their signature
// helpers): operand types, signature and shape checks, and the parameter/geometry readers
// each kernel calls again (defined in the operation's spec file). The float32 staging of
// their data is cpu/kernels/detection_util.h.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "spec/operation.h"

namespace nn {
namespace detection {

constexpr OperandType kF32 = OperandType::TENSOR_FLOAT32;
constexpr OperandType kF16 = OperandType::TENSOR_FLOAT16;
constexpr OperandType kQ8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr OperandType kQ8S = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr OperandType kQ16A = OperandType::TENSOR_QUANT16_ASYMM;
constexpr OperandType kQ16S = OperandType::TENSOR_QUANT16_SYMM;
constexpr OperandType kI32 = OperandType::TENSOR_INT32;

// Values per box ([x1, y1, x2, y2]).
constexpr uint32_t kRoiDim = 4;

inline bool isQuant8Type(OperandType t) { return t == kQ8 || t == kQ8S; }

// The scalar type that goes with a float tensor type (FLOAT16 for TENSOR_FLOAT16).
inline OperandType floatScalarFor(OperandType tensorType) {
  return tensorType == kF16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
}

// Reads a float scalar input that is FLOAT16 or FLOAT32.
inline float floatScalar(const ShapeContext& ctx, uint32_t i) {
  if (ctx.inputType(i) == OperandType::FLOAT16) return static_cast<float>(ctx.scalar<Half>(i));
  return ctx.scalar<float>(i);
}

// Every input in [first, last] has its value (scalars may come from model inputs and are
// only known at execution).
inline bool haveScalars(const ShapeContext& ctx, uint32_t first, uint32_t last) {
  for (uint32_t i = first; i <= last && i < ctx.numInputs(); ++i)
    if (!ctx.isOmitted(i) && !ctx.hasInputData(i)) return false;
  return true;
}

// Checks the operand counts and the exact type of every input and output.
inline Status checkSignature(ValidationContext& c, std::initializer_list<OperandType> inputs,
                             std::initializer_list<OperandType> outputs) {
  if (c.numInputs() != inputs.size())
    return c.fail("expected %zu inputs, got %u", inputs.size(), c.numInputs());
  if (c.numOutputs() != outputs.size())
    return c.fail("expected %zu outputs, got %u", outputs.size(), c.numOutputs());
  uint32_t i = 0;
  for (OperandType t : inputs) {
    if (c.isOmitted(i))
      return c.fail("input %u (operand %u) is required but has no value", i,
                    c.inputOperandIndex(i));
    if (c.inputType(i) != t)
      return c.fail("input %u: expected type %s, got %s", i, toString(t),
                    toString(c.inputType(i)));
    ++i;
  }
  i = 0;
  for (OperandType t : outputs) {
    if (c.outputType(i) != t)
      return c.fail("output %u: expected type %s, got %s", i, toString(t),
                    toString(c.outputType(i)));
    ++i;
  }
  return kOk;
}

// A QUANT16 box tensor must use scale 0.125 and zero point 0 (the spec's fixed encoding).
inline Status checkBoxQuant(ValidationContext& c, const Operand& o, const char* what) {
  if (o.type != OperandType::TENSOR_QUANT16_ASYMM && o.type != OperandType::TENSOR_QUANT16_SYMM)
    return kOk;
  if (o.scale != 0.125f || o.zeroPoint != 0)
    return c.fail("%s: a %s box tensor must have scale 0.125 and zeroPoint 0, got %g and %d", what,
                  toString(o.type), o.scale, o.zeroPoint);
  return kOk;
}

inline Status checkRank(const ShapeContext& ctx, uint32_t i, uint32_t rank) {
  if (ctx.inputShape(i).rank() != rank)
    return ctx.fail("input %u: expected rank %u, got shape %s", i, rank,
                    toString(ctx.inputShape(i).dims).c_str());
  return kOk;
}

inline Status checkDim(const ShapeContext& ctx, uint32_t i, uint32_t axis, uint32_t expected,
                       const char* what) {
  const uint32_t got = ctx.inputShape(i).dims[axis];
  if (got != expected)
    return ctx.fail("input %u: dimension %u must equal %s (%u), got %u", i, axis, what, expected,
                    got);
  return kOk;
}

// ---- ROI_ALIGN / ROI_POOLING (spec/ops/roi.cc) ------------------------------------------

// Shared layout of both operations' inputs: 0 feature map, 1 boxes, 2 batch indices,
// 3 out height, 4 out width, 5 height stride, 6 width stride, ..., last = layout.
struct RoiParams {
  int32_t outH = 0, outW = 0;
  float hStride = 0.f, wStride = 0.f;
  int32_t hRatio = 0, wRatio = 0;  // ROI_ALIGN only
  bool nchw = false;
};

// Reads and checks the scalar parameters; kDeferred while one is not known.
Status readRoiParams(const ShapeContext& ctx, bool align, RoiParams* p);

// ---- HEATMAP_MAX_KEYPOINT (spec/ops/heatmap.cc) -----------------------------------------

constexpr uint32_t kHeatmapLayoutInput = 2;

struct HeatmapDims {
  uint32_t boxes, size, keypoints;
};

Status heatmapDims(const ShapeContext& ctx, bool nchw, HeatmapDims* d);

// ---- the bounding-box family (spec/ops/bbox.cc) -----------------------------------------

enum NmsKernel : int32_t { kHardNms = 0, kLinearNms = 1, kGaussianNms = 2 };

// BOX_WITH_NMS_LIMIT and GENERATE_PROPOSALS keep a number of boxes that depends on the input
// values: their inferShapes checks what the shapes allow and returns kDeferred; the kernel's
// resolveShapes runs these checks, then computes the outputs at execution.
Status checkBoxWithNmsShapes(const ShapeContext& ctx);
// kDeferred while the layout flag is not known; *nchw is set otherwise.
Status checkGenerateProposalsShapes(const ShapeContext& ctx, bool* nchw);

struct PostprocessParams {
  float scaleY, scaleX, scaleH, scaleW;
  bool regularNms;
  int32_t maxDetections, maxClassesPerDetection, maxDetectionsPerClass;
  float scoreThreshold, iouThreshold;
  bool backgroundInLabel;
};

// DETECTION_POSTPROCESSING's scalar parameters; kDeferred while one is not known.
Status readPostprocessParams(const ShapeContext& ctx, PostprocessParams* p);

}  // namespace detection
}  // namespace nn
