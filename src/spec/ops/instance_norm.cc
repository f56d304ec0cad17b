// INSTANCE_NORMALIZATION (API level 29): signature and output shape (that of the input). The
// normalization is in cpu/kernels/instance_norm.cc.
#include "spec/operation.h"
#include "spec/ops/detection.h"

namespace nn {
namespace {

using namespace detection;  // NOLINT: type names and signature checks

Status validate(ValidationContext& c) {
  c.requireFeatureLevel(kFeatureLevel3);
  if (c.numInputs() != 5) return c.fail("expected 5 inputs, got %u", c.numInputs());
  const OperandType t = c.inputType(0);
  if (t != kF32 && t != kF16)
    return c.fail("input 0: unsupported type %s (expected TENSOR_FLOAT32 or TENSOR_FLOAT16)",
                  toString(t));
  const OperandType s = floatScalarFor(t);
  NN_RETURN_IF_ERROR(checkSignature(c, {t, s, s, s, OperandType::BOOL}, {t}));
  return c.checkInputRank(0, 4);
}

Status inferShapes(ShapeContext& ctx) {
  NN_RETURN_IF_ERROR(checkRank(ctx, 0, 4));
  return ctx.setOutputDims(0, ctx.inputShape(0).dims);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(INSTANCE_NORMALIZATION, validate, inferShapes);

}  // namespace nn
