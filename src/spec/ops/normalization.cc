// L2_NORMALIZATION and LOCAL_RESPONSE_NORMALIZATION along one axis (default the last):
// signatures and shapes (the output has the input's shape). Kernels:
// cpu/kernels/normalization.cc.
#include "spec/operation.h"
#include "spec/ops/elementwise.h"

namespace nn {
namespace {

Status checkConstantAxis(ValidationContext& c, uint32_t axisInput) {
  const Dims& dims = c.input(0).dimensions;
  int32_t axis = 0;
  uint32_t resolved = 0;
  if (!dims.empty() && c.constantScalar(axisInput, &axis) &&
      !elementwise::resolveAxis(axis, static_cast<uint32_t>(dims.size()), &resolved))
    return c.fail("input %u: axis %d out of range for rank %zu", axisInput, axis, dims.size());
  return kOk;
}

// ---- L2_NORMALIZATION ------------------------------------------------------------------

constexpr uint32_t kL2Axis = 1;

Status validateL2Norm(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      break;
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_QUANT8_ASYMM:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  if (c.numInputs() == 2) {
    c.requireFeatureLevel(kFeatureLevel3);
    NN_RETURN_IF_ERROR(c.checkInputType(kL2Axis, OperandType::INT32));
    NN_RETURN_IF_ERROR(checkConstantAxis(c, kL2Axis));
  } else if (!c.input(0).dimensions.empty() && c.input(0).dimensions.size() != 4) {
    // Ranks other than 4 arrived with NNAPI 1.2.
    c.requireFeatureLevel(kFeatureLevel3);
  }
  if (elementwise::isQuant8(t)) {
    const Operand& out = c.output(0);
    const int32_t zp = t == OperandType::TENSOR_QUANT8_ASYMM ? 128 : 0;
    if (out.scale != 1.f / 128 || out.zeroPoint != zp)
      return c.fail("output: scale must be 1/128 and zeroPoint %d, got %g and %d", zp, out.scale,
                    out.zeroPoint);
  }
  return kOk;
}

Status inferL2Norm(ShapeContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.rank() > 4) return ctx.fail("input 0: rank must be <= 4, got %u", in.rank());
  uint32_t axis;
  bool known;
  NN_RETURN_IF_ERROR(elementwise::readOptionalAxis(ctx, kL2Axis, &axis, &known));
  return ctx.setOutputDims(0, in.dims);
}

// ---- LOCAL_RESPONSE_NORMALIZATION -------------------------------------------------------

constexpr uint32_t kRadius = 1, kBias = 2, kLrnAxis = 5;

Status validateLrn(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(5, 6));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperandType t = c.inputType(0);
  OperandType scalarType;
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      scalarType = OperandType::FLOAT32;
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      scalarType = OperandType::FLOAT16;
      break;
    default:
      return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32 or TENSOR_FLOAT16)",
                    toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputTypes({t, OperandType::INT32, scalarType, scalarType, scalarType}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  if (c.numInputs() == 6) {
    c.requireFeatureLevel(kFeatureLevel3);
    NN_RETURN_IF_ERROR(c.checkInputType(kLrnAxis, OperandType::INT32));
    NN_RETURN_IF_ERROR(checkConstantAxis(c, kLrnAxis));
  } else if (!c.input(0).dimensions.empty() && c.input(0).dimensions.size() != 4) {
    c.requireFeatureLevel(kFeatureLevel3);
  }
  int32_t radius = 0;
  if (c.constantScalar(kRadius, &radius) && radius < 0)
    return c.fail("input 1: radius must be >= 0, got %d", radius);
  if (scalarType == OperandType::FLOAT32) {
    float bias = 1.f;
    if (c.constantScalar(kBias, &bias) && bias == 0.f) return c.fail("input 2: bias must not be 0");
  } else {
    Half bias = 1;
    if (c.constantScalar(kBias, &bias) && static_cast<float>(bias) == 0.f)
      return c.fail("input 2: bias must not be 0");
  }
  return kOk;
}

Status inferLrn(ShapeContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.rank() > 4) return ctx.fail("input 0: rank must be <= 4, got %u", in.rank());
  if (ctx.hasInputData(kRadius) && ctx.scalar<int32_t>(kRadius) < 0)
    return ctx.fail("input 1: radius must be >= 0, got %d", ctx.scalar<int32_t>(kRadius));
  uint32_t axis;
  bool known;
  NN_RETURN_IF_ERROR(elementwise::readOptionalAxis(ctx, kLrnAxis, &axis, &known));
  return ctx.setOutputDims(0, in.dims);
}

}  // namespace

// The axis may be omitted: it then defaults to the last one.
NN_DEFINE_OPERATION_SPEC_OPTIONAL(L2_NORMALIZATION, validateL2Norm, inferL2Norm, {kL2Axis});
NN_DEFINE_OPERATION_SPEC_OPTIONAL(LOCAL_RESPONSE_NORMALIZATION, validateLrn, inferLrn,
                                  {kLrnAxis});

}  // namespace nn
