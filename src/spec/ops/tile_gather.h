// TILE multiples and GATHER axis, resolved the same way by shape inference and the kernels.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/operation.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace tile_gather {

// TILE's multiples (one non-negative entry per input dimension); kDeferred until known.
inline Status readMultiples(const ShapeContext& ctx, std::vector<int32_t>* multiples) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const uint32_t rank = ctx.inputShape(0).rank();
  if (rank == 0) return ctx.fail("input 0: rank must be at least 1");
  const Shape& m = ctx.inputShape(1);
  if (m.rank() != 1 || m.dims[0] != rank)
    return ctx.fail("input 1 (multiples): expected shape [%u], got %s", rank,
                    toString(m.dims).c_str());
  *multiples = shape_ops::readInt32Vector(ctx, 1);
  for (uint32_t i = 0; i < rank; ++i)
    if ((*multiples)[i] < 0)
      return ctx.fail("input 1 (multiples): entry %u is %d, must be >= 0", i, (*multiples)[i]);
  return kOk;
}

// GATHER's axis; kDeferred until the axis scalar is known.
inline Status resolveGatherAxis(const ShapeContext& ctx, uint32_t* axis) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const uint32_t rank = ctx.inputShape(0).rank();
  if (rank == 0) return ctx.fail("input 0: rank must be at least 1");
  const int32_t raw = ctx.scalar<int32_t>(1);
  if (!elementwise::resolveAxis(raw, rank, axis))
    return ctx.fail("input 1 (axis) is %d, out of range [%d, %u)", raw, -int32_t(rank), rank);
  return kOk;
}

}  // namespace tile_gather
}  // namespace nn
