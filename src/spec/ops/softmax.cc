// SOFTMAX along one axis (default the last) with a positive beta: signature and shape (the
// output has the input's shape). Kernels: cpu/kernels/softmax.cc.
#include "spec/operation.h"
#include "spec/ops/elementwise.h"

namespace nn {
namespace {

constexpr uint32_t kInput = 0;
constexpr uint32_t kBeta = 1;
constexpr uint32_t kAxis = 2;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperandType t = c.inputType(kInput);
  OperandType betaType = OperandType::FLOAT32;
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_QUANT8_ASYMM:
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      betaType = OperandType::FLOAT16;
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputType(kBeta, betaType));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(kInput, 4));
  const Dims& dims = c.input(kInput).dimensions;
  if (c.numInputs() == 3) {
    c.requireFeatureLevel(kFeatureLevel3);
    NN_RETURN_IF_ERROR(c.checkInputType(kAxis, OperandType::INT32));
    int32_t axis = 0;
    uint32_t resolved = 0;
    if (!dims.empty() && c.constantScalar(kAxis, &axis) &&
        !elementwise::resolveAxis(axis, static_cast<uint32_t>(dims.size()), &resolved))
      return c.fail("input 2: axis %d out of range for rank %zu", axis, dims.size());
  } else if (!dims.empty() && dims.size() != 2 && dims.size() != 4) {
    // Ranks other than 2 and 4 arrived with NNAPI 1.2.
    c.requireFeatureLevel(kFeatureLevel3);
  }
  if (betaType == OperandType::FLOAT32) {
    float beta = 0.f;
    if (c.constantScalar(kBeta, &beta) && !(beta > 0.f))
      return c.fail("input 1: beta must be > 0, got %g", beta);
  } else {
    Half beta = 0;
    if (c.constantScalar(kBeta, &beta) && !(static_cast<float>(beta) > 0.f))
      return c.fail("input 1: beta must be > 0, got %g", static_cast<double>(beta));
  }
  if (t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    const Operand& out = c.output(0);
    const int32_t zp = t == OperandType::TENSOR_QUANT8_ASYMM ? 0 : -128;
    if (out.scale != 1.f / 256 || out.zeroPoint != zp)
      return c.fail("output: scale must be 1/256 and zeroPoint %d, got %g and %d", zp, out.scale,
                    out.zeroPoint);
    if (!(c.input(kInput).scale > 0.f))
      return c.fail("input 0: scale must be > 0, got %g", c.input(kInput).scale);
  }
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  const Shape& in = ctx.inputShape(kInput);
  if (in.rank() > 4) return ctx.fail("input 0: rank must be <= 4, got %u", in.rank());
  if (ctx.hasInputData(kBeta)) {
    const float beta = elementwise::floatScalar(ctx, kBeta);
    if (!(beta > 0.f)) return ctx.fail("input 1: beta must be > 0, got %g", beta);
  }
  // A non-constant axis is checked once its value is known (at execution).
  uint32_t axis;
  bool known;
  NN_RETURN_IF_ERROR(elementwise::readOptionalAxis(ctx, kAxis, &axis, &known));
  return ctx.setOutputDims(0, in.dims);
}

}  // namespace

// The axis may be omitted: it then defaults to the last one.
NN_DEFINE_OPERATION_SPEC_OPTIONAL(SOFTMAX, validate, inferShapes, {kAxis});

}  // namespace nn
