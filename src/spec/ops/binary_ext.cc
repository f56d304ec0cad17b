// POW, MAXIMUM, MINIMUM, PRELU: broadcasting binary operations without a fused activation.
// Signature and the broadcast output shape; kernels: cpu/kernels/binary_ext.cc.
#include "spec/operation.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/elementwise_quant.h"

namespace nn {
namespace {

using elementwise::isQuant8;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  const OperationType op = c.type();
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_FLOAT32:
      break;
    case OperandType::TENSOR_INT32:
      if (op == OperationType::MAXIMUM || op == OperationType::MINIMUM) break;
      return c.fail("input 0: %s does not support TENSOR_INT32", c.name());
    case OperandType::TENSOR_QUANT8_ASYMM:
      if (op == OperationType::POW) return c.fail("input 0: POW does not support %s", toString(t));
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (op == OperationType::POW) return c.fail("input 0: POW does not support %s", toString(t));
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputTypes({t, t}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  if (isQuant8(t)) {
    if (!(c.input(0).scale > 0.f) || !(c.input(1).scale > 0.f) || !(c.output(0).scale > 0.f))
      return c.fail("quantized scales must be > 0 (input0 %g, input1 %g, output %g)",
                    c.input(0).scale, c.input(1).scale, c.output(0).scale);
  }
  return elementwise::checkBroadcastable(c, 0, 1);
}

Status inferShapes(ShapeContext& ctx) {
  if (ctx.type() == OperationType::PRELU && isQuant8(ctx.inputType(0))) {
    elementwise::PreluParams p;
    if (!elementwise::computePreluParams(ctx.inputShape(0), ctx.inputShape(1), ctx.outputShape(0),
                                         &p))
      return ctx.fail("quantization scales (input %g, alpha %g, output %g) give a rescaling "
                      "multiplier outside the supported range",
                      ctx.inputShape(0).scale, ctx.inputShape(1).scale, ctx.outputShape(0).scale);
  }
  return elementwise::inferBroadcast(ctx, 0, 1);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(POW, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(MAXIMUM, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(MINIMUM, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(PRELU, validate, inferShapes);

}  // namespace nn
