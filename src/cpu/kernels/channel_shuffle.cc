// CHANNEL_SHUFFLE kernel: viewing the channel axis as [groups, groupSize], transposes it to
// [groupSize, groups]. Each channel carries a contiguous block of the inner dimensions,
// which moves with one memcpy.
#include <cstring>

#include "cpu/kernel.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/channel_shuffle.h"

namespace nn {
namespace {

Status execute(OpContext& ctx) {
  uint32_t axis = 0, groups = 0;
  NN_RETURN_IF_ERROR(channel_shuffle::resolveParams(ctx, &axis, &groups));
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

NN_DEFINE_CPU_KERNEL(CHANNEL_SHUFFLE, execute);

}  // namespace nn
