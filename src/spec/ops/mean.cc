// MEAN over a set of axes: signature and output shape (the reduced dimensions dropped, or
// kept as 1 when keep_dims > 0).
#include "spec/operation.h"
#include "spec/ops/reduce_util.h"

namespace nn {
namespace {

using namespace reduce_ops;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(validateDataTensorOp(c, 3, 3));
  return validateAxesInputs(c, OperandType::INT32);
}

Status inferShapes(ShapeContext& ctx) {
  std::vector<bool> reduced;
  NN_RETURN_IF_ERROR(resolveReducedAxes(ctx, &reduced));
  const bool keepDims = ctx.scalar<int32_t>(2) > 0;
  return setReducedOutputDims(ctx, reduced, keepDims);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(MEAN, validate, inferShapes);

}  // namespace nn
