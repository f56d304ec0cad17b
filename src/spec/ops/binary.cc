// ADD, MUL, SUB, DIV: signature and the broadcast output shape. Quantized scales are checked
// against the reference's fixed-point scheme (spec/ops/elementwise_quant.h) here so that an
// unrepresentable multiplier fails at compilation. Kernels: cpu/kernels/binary.cc.
#include "spec/operation.h"
#include "spec/ops/common.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/elementwise_quant.h"

namespace nn {
namespace {

using elementwise::isQuant8;

constexpr uint32_t kInput1 = 0;
constexpr uint32_t kInput2 = 1;
constexpr uint32_t kActivation = 2;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperationType op = c.type();
  // SUB and DIV arrived in NNAPI 1.1.
  const bool subOrDiv = op == OperationType::SUB || op == OperationType::DIV;
  c.requireFeatureLevel(subOrDiv ? kFeatureLevel2 : kFeatureLevel1);
  const OperandType t = c.inputType(kInput1);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM:
      if (op == OperationType::DIV)
        return c.fail("input 0: DIV does not support TENSOR_QUANT8_ASYMM");
      if (op == OperationType::SUB) c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (op == OperationType::DIV)
        return c.fail("input 0: DIV does not support TENSOR_QUANT8_ASYMM_SIGNED");
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    case OperandType::TENSOR_INT32:
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32, TENSOR_FLOAT16, "
                    "TENSOR_QUANT8_ASYMM[_SIGNED] or TENSOR_INT32)",
                    toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputTypes({t, t, OperandType::INT32}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(kInput1, 4));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(kInput2, 4));

  int32_t activation = 0;
  if (c.constantScalar(kActivation, &activation)) {
    if (!isValidFusedActivation(activation))
      return c.fail("input 2: fused activation must be 0..3, got %d", activation);
    if (t == OperandType::TENSOR_INT32 && activation != 0)
      return c.fail("input 2: fused activation must be NONE for TENSOR_INT32, got %d", activation);
  }

  if (isQuant8(t)) {
    const Operand& in1 = c.input(kInput1);
    const Operand& in2 = c.input(kInput2);
    const Operand& out = c.output(0);
    if (!(in1.scale > 0.f) || !(in2.scale > 0.f) || !(out.scale > 0.f))
      return c.fail("quantized scales must be > 0 (input0 %g, input1 %g, output %g)", in1.scale,
                    in2.scale, out.scale);
    if (op == OperationType::MUL && !(out.scale > in1.scale * in2.scale))
      return c.fail("output scale %g must be > input0 scale * input1 scale = %g", out.scale,
                    in1.scale * in2.scale);
  }

  // Shapes fully known in the model and not broadcastable can never run.
  const Dims& d1 = c.input(kInput1).dimensions;
  const Dims& d2 = c.input(kInput2).dimensions;
  if (!d1.empty() && !d2.empty()) {
    const size_t rank = std::max(d1.size(), d2.size());
    for (size_t i = 0; i < rank; ++i) {
      const uint32_t a = i < rank - d1.size() ? 1 : d1[i - (rank - d1.size())];
      const uint32_t b = i < rank - d2.size() ? 1 : d2[i - (rank - d2.size())];
      if (a != 0 && b != 0 && a != b && a != 1 && b != 1)
        return c.fail("inputs %s and %s are not broadcast-compatible (dimension %zu: %u vs %u)",
                      toString(d1).c_str(), toString(d2).c_str(), i, a, b);
    }
  }
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  const Shape& in1 = ctx.inputShape(kInput1);
  const Shape& in2 = ctx.inputShape(kInput2);
  if (in1.rank() > 4 || in2.rank() > 4)
    return ctx.fail("input ranks must be <= 4, got %u and %u", in1.rank(), in2.rank());
  Dims out;
  if (!elementwise::broadcastShapes(in1.dims, in2.dims, &out))
    return ctx.fail("inputs %s and %s are not broadcast-compatible", toString(in1.dims).c_str(),
                    toString(in2.dims).c_str());
  int32_t activation = 0;
  if (ctx.hasInputData(kActivation)) {
    activation = ctx.scalar<int32_t>(kActivation);
    if (!isValidFusedActivation(activation))
      return ctx.fail("input 2: fused activation must be 0..3, got %d", activation);
    if (in1.type == OperandType::TENSOR_INT32 && activation != 0)
      return ctx.fail("input 2: fused activation must be NONE for TENSOR_INT32, got %d",
                      activation);
  }
  // Catch multipliers the fixed-point scheme cannot represent before execution.
  if (isQuant8(in1.type)) {
    const Shape& outShape = ctx.outputShape(0);
    bool ok = true;
    if (ctx.type() == OperationType::MUL) {
      elementwise::MulQuantParams p;
      ok = elementwise::computeMulQuantParams(in1, in2, outShape, activation, &p);
    } else {
      elementwise::AddQuantParams p;
      ok = elementwise::computeAddQuantParams(in1, in2, outShape,
                                              ctx.type() == OperationType::SUB, activation, &p);
    }
    if (!ok)
      return ctx.fail("quantization scales (input0 %g, input1 %g, output %g) give a rescaling "
                      "multiplier outside the supported range",
                      in1.scale, in2.scale, outShape.scale);
  }
  return ctx.setOutputDims(0, std::move(out));
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(ADD, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(MUL, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(SUB, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(DIV, validate, inferShapes);

}  // namespace nn
