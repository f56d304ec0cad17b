// CHANNEL_SHUFFLE: viewing the channel axis as [groups, groupSize], transposes it to
// [groupSize, groups]. Each channel carries a contiguous block of the inner dimensions,
// which moves with one memcpy.
#include "ops/operation.h"
#include "ops/elementwise_util.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

Status validateChannelShuffle(ValidationContext& c) {
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

Status shuffleParams(OpContext& ctx, uint32_t* axis, uint32_t* groups) {
  if (!ctx.hasInputData(1) || !ctx.hasInputData(2)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  if (in.size() > 4) return ctx.fail("input 0: rank %zu exceeds the maximum 4", in.size());
  const int32_t rawAxis = ctx.scalar<int32_t>(2);
  if (!elementwise::resolveAxis(rawAxis, static_cast<uint32_t>(in.size()), axis))
    return ctx.fail("input 2 (axis) is %d, out of range for rank %zu", rawAxis, in.size());
  const int32_t g = ctx.scalar<int32_t>(1);
  if (g <= 0) return ctx.fail("input 1 (num_groups) is %d, must be > 0", g);
  if (in[*axis] % static_cast<uint32_t>(g) != 0)
    return ctx.fail("channel dimension %u (size %u) is not divisible by num_groups %d", *axis,
                    in[*axis], g);
  *groups = static_cast<uint32_t>(g);
  return kOk;
}

Status prepareChannelShuffle(OpContext& ctx) {
  uint32_t axis = 0, groups = 0;
  NN_RETURN_IF_ERROR(shuffleParams(ctx, &axis, &groups));
  return ctx.setOutputDims(0, ctx.inputShape(0).dims);
}

Status executeChannelShuffle(OpContext& ctx) {
  uint32_t axis = 0, groups = 0;
  NN_RETURN_IF_ERROR(shuffleParams(ctx, &axis, &groups));
  const Shape& in = ctx.inputShape(0);
  if (in.count() == 0) return kOk;
  const elementwise::AxisSplit s = elementwise::splitAtAxis(in.dims, axis);
  const size_t groupSize = s.axis / groups;
  const size_t block = s.inner * elementSize(in.type);
  const uint8_t* src = ctx.input<uint8_t>(0);
  uint8_t* dst = ctx.output<uint8_t>(0);
  for (size_t outer = 0; outer < s.outer; ++outer) {
    const uint8_t* from = src + outer * s.axis * block;
    for (size_t k = 0; k < groupSize; ++k)
      for (size_t g = 0; g < groups; ++g, dst += block)
        memcpy(dst, from + (g * groupSize + k) * block, block);
  }
  return kOk;
}

}  // namespace

NN_REGISTER_OPERATION(CHANNEL_SHUFFLE, validateChannelShuffle, prepareChannelShuffle,
                      executeChannelShuffle);

}  // namespace nn
