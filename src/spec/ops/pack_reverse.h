// PACK and REVERSE axes, resolved the same way by shape inference and the kernels.
#pragma once

#include <cstdint>

#include "spec/operation.h"

namespace nn {
namespace pack_reverse {

// PACK's new axis, in [0, rank] of the (equally shaped) inputs 1..n; kDeferred until the
// axis scalar (input 0) is known.
inline Status resolvePackAxis(const ShapeContext& ctx, uint32_t* axis) {
  if (!ctx.hasInputData(0)) return kDeferred;
  const Dims& first = ctx.inputShape(1).dims;
  if (first.empty()) return ctx.fail("input 1: rank must be at least 1");
  for (uint32_t i = 2; i < ctx.numInputs(); ++i)
    if (ctx.inputShape(i).dims != first)
      return ctx.fail("input %u: shape %s differs from input 1's shape %s", i,
                      toString(ctx.inputShape(i).dims).c_str(), toString(first).c_str());
  const int32_t raw = ctx.scalar<int32_t>(0);
  if (raw < 0 || raw > static_cast<int32_t>(first.size()))
    return ctx.fail("input 0 (axis) is %d, must be in [0, %zu]", raw, first.size());
  *axis = static_cast<uint32_t>(raw);
  return kOk;
}

// REVERSE's axis, in [0, rank), from the one-element axis tensor (input 1); kDeferred until
// its value is known.
inline Status resolveReverseAxis(const ShapeContext& ctx, uint32_t* axis) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const uint32_t rank = ctx.inputShape(0).rank();
  if (rank < 1 || rank > 8) return ctx.fail("input 0: rank %u must be in [1, 8]", rank);
  const Shape& a = ctx.inputShape(1);
  if (a.rank() != 1 || a.dims[0] != 1)
    return ctx.fail("input 1 (axis): expected shape [1], got %s", toString(a.dims).c_str());
  const int32_t raw = *ctx.input<int32_t>(1);
  if (raw < 0 || raw >= static_cast<int32_t>(rank))
    return ctx.fail("input 1 (axis) is %d, must be in [0, %u)", raw, rank);
  *axis = static_cast<uint32_t>(raw);
  return kOk;
}

}  // namespace pack_reverse
}  // namespace nn
