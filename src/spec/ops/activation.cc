// RELU, RELU1, RELU6, LOGISTIC, TANH, FLOOR: signature and shape (the output has the input's
// shape). Quantized LOGISTIC/TANH write to fixed output grids; the kernels are in
// cpu/kernels/activation.cc.
#include "spec/operation.h"
#include "spec/ops/elementwise.h"

namespace nn {
namespace {

using elementwise::isQuant8;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  const OperationType op = c.type();
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      break;
    case OperandType::TENSOR_FLOAT16:
      c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM:
      if (op == OperationType::FLOOR) return c.fail("input 0: FLOOR does not support %s", toString(t));
      if (op == OperationType::TANH) c.requireFeatureLevel(kFeatureLevel3);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (op == OperationType::FLOOR) return c.fail("input 0: FLOOR does not support %s", toString(t));
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  if (isQuant8(t)) {
    const Operand& in = c.input(0);
    const Operand& out = c.output(0);
    const bool isSigned = t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
    if (!(in.scale > 0.f)) return c.fail("input 0: scale must be > 0, got %g", in.scale);
    if (op == OperationType::LOGISTIC) {
      const int32_t zp = isSigned ? -128 : 0;
      if (out.scale != 1.f / 256 || out.zeroPoint != zp)
        return c.fail("output: scale must be 1/256 and zeroPoint %d, got %g and %d", zp, out.scale,
                      out.zeroPoint);
    } else if (op == OperationType::TANH) {
      const int32_t zp = isSigned ? 0 : 128;
      if (out.scale != 1.f / 128 || out.zeroPoint != zp)
        return c.fail("output: scale must be 1/128 and zeroPoint %d, got %g and %d", zp, out.scale,
                      out.zeroPoint);
    } else if (out.scale != in.scale || out.zeroPoint != in.zeroPoint) {
      return c.fail("output: scale and zeroPoint must equal the input's (%g, %d), got %g and %d",
                    in.scale, in.zeroPoint, out.scale, out.zeroPoint);
    }
  }
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  if (in.rank() > 4) return ctx.fail("input 0: rank must be <= 4, got %u", in.rank());
  return ctx.setOutputDims(0, in.dims);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(RELU, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(RELU1, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(RELU6, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(LOGISTIC, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(TANH, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(FLOOR, validate, inferShapes);

}  // namespace nn
