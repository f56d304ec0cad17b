// EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL: signature and the broadcast
// output shape (TENSOR_BOOL8). Kernels: cpu/kernels/comparison.cc.
#include "spec/operation.h"
#include "spec/ops/elementwise.h"

namespace nn {
namespace {

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  const OperandType t = c.inputType(0);
  switch (t) {
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
      break;
    case OperandType::TENSOR_QUANT8_ASYMM:
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      c.requireFeatureLevel(kFeatureLevel4);
      break;
    default:
      return c.fail("input 0: unsupported type %s", toString(t));
  }
  NN_RETURN_IF_ERROR(c.checkInputTypes({t, t}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({OperandType::TENSOR_BOOL8}));
  if (elementwise::isQuant8(t)) {
    for (uint32_t i = 0; i < 2; ++i)
      if (!(c.input(i).scale > 0.f))
        return c.fail("input %u: scale must be > 0, got %g", i, c.input(i).scale);
  }
  return elementwise::checkBroadcastable(c, 0, 1);
}

Status inferShapes(ShapeContext& ctx) { return elementwise::inferBroadcast(ctx, 0, 1); }

}  // namespace

NN_DEFINE_OPERATION_SPEC(EQUAL, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(NOT_EQUAL, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(GREATER, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(GREATER_EQUAL, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(LESS, validate, inferShapes);
NN_DEFINE_OPERATION_SPEC(LESS_EQUAL, validate, inferShapes);

}  // namespace nn
