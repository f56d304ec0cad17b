// TILE, GATHER and EXPAND_DIMS kernels: pure data movement, one byte-level kernel for every
// type.
#include <cstring>
#include <vector>

#include "cpu/kernel.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/shape_util.h"
#include "spec/ops/tile_gather.h"

namespace nn {
namespace {

// ---- TILE -------------------------------------------------------------------------------

// Writes the tiling of the sub-tensor at dimension d; returns the bytes written. Each level
// builds one copy of its block and then duplicates it, so most bytes move in large memcpys.
size_t tileLevel(const uint8_t* in, uint8_t* out, const Dims& dims,
                 const std::vector<int32_t>& multiples, const std::vector<size_t>& inStrides,
                 size_t d, size_t es) {
  size_t written = 0;
  if (d + 1 == dims.size()) {
    written = size_t(dims[d]) * es;
    memcpy(out, in, written);
  } else {
    for (uint32_t i = 0; i < dims[d]; ++i)
      written += tileLevel(in + i * inStrides[d] * es, out + written, dims, multiples, inStrides,
                           d + 1, es);
  }
  for (int32_t m = 1; m < multiples[d]; ++m) memcpy(out + m * written, out, written);
  return written * static_cast<size_t>(multiples[d]);
}

Status executeTile(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  std::vector<int32_t> multiples;
  NN_RETURN_IF_ERROR(tile_gather::readMultiples(ctx, &multiples));
  const Shape& in = ctx.inputShape(0);
  tileLevel(ctx.input<uint8_t>(0), ctx.output<uint8_t>(0), in.dims, multiples,
            shape_ops::stridesOf(in.dims), 0, elementSize(in.type));
  return kOk;
}

// ---- GATHER -----------------------------------------------------------------------------

Status executeGather(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(tile_gather::resolveGatherAxis(ctx, &axis));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const Shape& in = ctx.inputShape(0);
  const elementwise::AxisSplit s = elementwise::splitAtAxis(in.dims, axis);
  const size_t numIndices = static_cast<size_t>(ctx.inputShape(2).count());
  const int32_t* indices = ctx.input<int32_t>(2);
  // Index values are data: they are checked here, not during shape inference.
  for (size_t j = 0; j < numIndices; ++j)
    if (indices[j] < 0 || static_cast<size_t>(indices[j]) >= s.axis)
      return ctx.fail("input 2 (indices): entry %zu is %d, out of range [0, %zu)", j, indices[j],
                      s.axis);
  const size_t blockBytes = s.inner * elementSize(in.type);
  const uint8_t* src = ctx.input<uint8_t>(0);
  uint8_t* dst = ctx.output<uint8_t>(0);
  for (size_t outer = 0; outer < s.outer; ++outer) {
    const uint8_t* base = src + outer * s.axis * blockBytes;
    for (size_t j = 0; j < numIndices; ++j, dst += blockBytes)
      memcpy(dst, base + size_t(indices[j]) * blockBytes, blockBytes);
  }
  return kOk;
}

// ---- EXPAND_DIMS ------------------------------------------------------------------------

// Same bytes, one more dimension of size 1.
Status executeExpandDims(OpContext& ctx) {
  const size_t bytes = ctx.inputShape(0).bytes();
  if (bytes) memcpy(ctx.outputData(0), ctx.inputData(0), bytes);
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(TILE, executeTile);
NN_DEFINE_CPU_KERNEL(GATHER, executeGather);
NN_DEFINE_CPU_KERNEL(EXPAND_DIMS, executeExpandDims);

}  // namespace nn
