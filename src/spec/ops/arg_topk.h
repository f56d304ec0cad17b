// ARGMAX / ARGMIN axis and TOPK_V2 k, resolved the same way by shape inference and the
// kernels.
#pragma once

#include <cstdint>

#include "spec/operation.h"
#include "spec/ops/elementwise.h"

namespace nn {
namespace arg_topk {

// The reduced axis of ARGMAX/ARGMIN; kDeferred until the axis scalar is known.
inline Status resolveArgAxis(const ShapeContext& ctx, uint32_t* axis) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  if (in.empty()) return ctx.fail("input 0: rank must be at least 1");
  const int32_t raw = ctx.scalar<int32_t>(1);
  if (!elementwise::resolveAxis(raw, static_cast<uint32_t>(in.size()), axis))
    return ctx.fail("input 1 (axis) is %d, out of range for rank %zu", raw, in.size());
  if (in[*axis] == 0) return ctx.fail("input 0: dimension %u (the reduced axis) is empty", *axis);
  return kOk;
}

// TOPK_V2's k, in [1, last dimension]; kDeferred until the k scalar is known.
inline Status resolveTopK(const ShapeContext& ctx, uint32_t* k) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  if (in.empty()) return ctx.fail("input 0: rank must be at least 1");
  const int32_t raw = ctx.scalar<int32_t>(1);
  if (raw <= 0 || static_cast<uint32_t>(raw) > in.back())
    return ctx.fail("input 1 (k) is %d, must be in [1, %u] (the last dimension)", raw, in.back());
  *k = static_cast<uint32_t>(raw);
  return kOk;
}

}  // namespace arg_topk
}  // namespace nn
