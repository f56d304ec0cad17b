// CHANNEL_SHUFFLE geometry, resolved the same way by shape inference and the kernel.
#pragma once

#include <cstdint>

#include "spec/operation.h"
#include "spec/ops/elementwise.h"

namespace nn {
namespace channel_shuffle {

constexpr uint32_t kInput = 0, kNumGroups = 1, kAxis = 2;

// The shuffled axis and the number of groups; kDeferred until both scalars are known.
inline Status resolveParams(const ShapeContext& ctx, uint32_t* axis, uint32_t* groups) {
  if (!ctx.hasInputData(kNumGroups) || !ctx.hasInputData(kAxis)) return kDeferred;
  const Dims& in = ctx.inputShape(kInput).dims;
  if (in.size() > 4) return ctx.fail("input 0: rank %zu exceeds the maximum 4", in.size());
  const int32_t rawAxis = ctx.scalar<int32_t>(kAxis);
  if (!elementwise::resolveAxis(rawAxis, static_cast<uint32_t>(in.size()), axis))
    return ctx.fail("input 2 (axis) is %d, out of range for rank %zu", rawAxis, in.size());
  const int32_t g = ctx.scalar<int32_t>(kNumGroups);
  if (g <= 0) return ctx.fail("input 1 (num_groups) is %d, must be > 0", g);
  if (in[*axis] % static_cast<uint32_t>(g) != 0)
    return ctx.fail("channel dimension %u (size %u) is not divisible by num_groups %d", *axis,
                    in[*axis], g);
  *groups = static_cast<uint32_t>(g);
  return kOk;
}

}  // namespace channel_shuffle
}  // namespace nn
