// ABS, EXP, LOG, NEG, RSQRT, SIN, SQRT: signature; the output has the input's shape.
// Quantized RSQRT (feature level 7) checks its rescaling multiplier here. Kernels:
// cpu/kernels/unary.cc.
#include "spec/operation.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/elementwise_quant.h"

namespace nn {
namespace {

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(1, 1));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  const OperationType op = c.type();
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
      break;
    case OperandType::TENSOR_INT32:
      if (op == OperationType::ABS) {
        c.requireFeatureLevel(kFeatureLevel4);
        break;
      }
      if (op == OperationType::NEG) break;
      return c.fail("input 0: %s does not support TENSOR_INT32", c.name());
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (op == OperationType::RSQRT) {
        c.requireFeatureLevel(kFeatureLevel7);
        if (!(c.input(0).scale > 0.f)) return c.fail("input 0: scale must be > 0, got %g", c.input(0).scale);
        if (!(c.output(0).scale > 0.f))
          return c.fail("output 0: scale must be > 0, got %g", c.output(0).scale);
        break;
      }
      return c.fail("input 0: %s does not support %s", c.name(), toString(t));
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t}));
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  if (elementwise::isQuant8(ctx.inputType(0))) {
    elementwise::RsqrtParams p;
    if (!elementwise::computeRsqrtParams(ctx.inputShape(0), ctx.outputShape(0), &p))
      return ctx.fail("input scale %g and output scale %g give an unsupported rescaling multiplier",
                      ctx.inputShape(0).scale, ctx.outputShape(0).scale);
  }
  return elementwise::inferSameShape(ctx);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(ABS, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(EXP, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(LOG, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(NEG, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(RSQRT, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(SIN, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(SQRT, validate, inferShapes);

}  // namespace nn
