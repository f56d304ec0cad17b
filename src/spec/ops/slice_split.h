// SLICE box and SPLIT geometry, resolved the same way by shape inference and the kernels.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/operation.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace slice_split {

// Resolves SLICE's begin/size into the output box; a size of -1 takes the rest of the
// dimension. kDeferred until both tensors' values are known.
inline Status resolveSliceBox(const ShapeContext& ctx, std::vector<uint32_t>* begin, Dims* out) {
  if (!ctx.hasInputData(1) || !ctx.hasInputData(2)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  const uint32_t rank = static_cast<uint32_t>(in.size());
  if (rank == 0) return ctx.fail("input 0: rank must be at least 1");
  for (uint32_t i = 1; i <= 2; ++i) {
    const Shape& s = ctx.inputShape(i);
    if (s.rank() != 1 || s.dims[0] != rank)
      return ctx.fail("input %u (%s): expected shape [%u], got %s", i, i == 1 ? "begin" : "size",
                      rank, toString(s.dims).c_str());
  }
  const std::vector<int32_t> b = shape_ops::readInt32Vector(ctx, 1);
  const std::vector<int32_t> s = shape_ops::readInt32Vector(ctx, 2);
  begin->resize(rank);
  out->resize(rank);
  for (uint32_t i = 0; i < rank; ++i) {
    const int64_t dim = in[i];
    if (b[i] < 0 || b[i] > dim)
      return ctx.fail("input 1 (begin): entry %u is %d, must be in [0, %lld]", i, b[i],
                      static_cast<long long>(dim));
    const int64_t size = s[i] == -1 ? dim - b[i] : s[i];
    if (size < 0)
      return ctx.fail("input 2 (size): entry %u is %d, must be >= 0 or -1", i, s[i]);
    if (b[i] + size > dim)
      return ctx.fail("dimension %u: begin %d + size %lld exceeds the input size %lld", i, b[i],
                      static_cast<long long>(size), static_cast<long long>(dim));
    (*begin)[i] = static_cast<uint32_t>(b[i]);
    (*out)[i] = static_cast<uint32_t>(size);
  }
  return kOk;
}

// SPLIT's axis and the size of each piece along it; kDeferred until both scalars are known.
inline Status resolveSplit(const ShapeContext& ctx, uint32_t* axis, uint32_t* piece) {
  if (!ctx.hasInputData(1) || !ctx.hasInputData(2)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  const int32_t rawAxis = ctx.scalar<int32_t>(1);
  if (!elementwise::resolveAxis(rawAxis, static_cast<uint32_t>(in.size()), axis))
    return ctx.fail("input 1 (axis) is %d, out of range for rank %zu", rawAxis, in.size());
  const int32_t numSplits = ctx.scalar<int32_t>(2);
  if (numSplits != static_cast<int32_t>(ctx.numOutputs()))
    return ctx.fail("input 2 (num_splits) is %d but the operation has %u outputs", numSplits,
                    ctx.numOutputs());
  if (in[*axis] % static_cast<uint32_t>(numSplits) != 0)
    return ctx.fail("dimension %u of size %u is not divisible by num_splits %d", *axis, in[*axis],
                    numSplits);
  *piece = in[*axis] / static_cast<uint32_t>(numSplits);
  return kOk;
}

}  // namespace slice_split
}  // namespace nn
