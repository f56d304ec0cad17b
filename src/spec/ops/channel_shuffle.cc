// CHANNEL_SHUFFLE: signature and shape (the output has the input's shape). The kernel is
// cpu/kernels/channel_shuffle.cc.
#include "spec/operation.h"
#include "spec/ops/channel_shuffle.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 0, {{kF32, kFeatureLevel3}, {kF16, kFeatureLevel3}, {kQ8, kFeatureLevel3},
             {kQ8S, kFeatureLevel4}}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, OperandType::INT32));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  NN_RETURN_IF_ERROR(c.checkInputType(2, OperandType::INT32));
  int32_t groups = 0;
  if (c.constantScalar(1, &groups) && groups <= 0)
    return c.fail("input 1 (num_groups) is %d, must be > 0", groups);
  const int32_t rank = static_cast<int32_t>(c.input(0).dimensions.size());
  int32_t axis = 0;
  if (rank > 0 && c.constantScalar(2, &axis) && (axis < -rank || axis >= rank))
    return c.fail("input 2 (axis) is %d, out of range [%d, %d)", axis, -rank, rank);
  return checkOutputLikeInput(c, 0, 0);
}

Status inferShapes(ShapeContext& ctx) {
  uint32_t axis = 0, groups = 0;
  NN_RETURN_IF_ERROR(channel_shuffle::resolveParams(ctx, &axis, &groups));
  return ctx.setOutputDims(0, ctx.inputShape(0).dims);
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(CHANNEL_SHUFFLE, validate, inferShapes);

}  // namespace nn
