// SLICE and SPLIT kernels. Both only move bytes, so one kernel per element width serves every
// tensor type; the innermost contiguous run of each copy is a single memcpy.
#include <cstring>
#include <vector>

#include "cpu/kernel.h"
#include "spec/ops/elementwise.h"
#include "spec/ops/shape_util.h"
#include "spec/ops/slice_split.h"

namespace nn {
namespace {

// Copies the box of `outDims` starting at `begin` out of a tensor of `inDims` (bytes of
// `es` each). Rows along the last dimension are contiguous in both tensors.
void copyBox(const uint8_t* src, const Dims& inDims, const std::vector<uint32_t>& begin,
             uint8_t* dst, const Dims& outDims, size_t es) {
  const size_t rank = inDims.size();
  const std::vector<size_t> inStrides = shape_ops::stridesOf(inDims);
  const size_t rowBytes = size_t(outDims[rank - 1]) * es;
  size_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= outDims[d];
  std::vector<uint32_t> idx(rank, 0);  // position among the output rows (last entry unused)
  for (size_t r = 0; r < rows; ++r) {
    size_t offset = begin[rank - 1];
    for (size_t d = 0; d + 1 < rank; ++d) offset += size_t(idx[d] + begin[d]) * inStrides[d];
    memcpy(dst, src + offset * es, rowBytes);
    dst += rowBytes;
    for (size_t d = rank - 1; d-- > 0;) {
      if (++idx[d] < outDims[d]) break;
      idx[d] = 0;
    }
  }
}

Status executeSlice(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  std::vector<uint32_t> begin;
  Dims out;
  NN_RETURN_IF_ERROR(slice_split::resolveSliceBox(ctx, &begin, &out));
  copyBox(ctx.input<uint8_t>(0), ctx.inputShape(0).dims, begin, ctx.output<uint8_t>(0), out,
          elementSize(ctx.inputType(0)));
  return kOk;
}

// Each output takes one contiguous piece of every outer row.
Status executeSplit(OpContext& ctx) {
  uint32_t axis = 0, piece = 0;
  NN_RETURN_IF_ERROR(slice_split::resolveSplit(ctx, &axis, &piece));
  const Shape& in = ctx.inputShape(0);
  if (in.count() == 0) return kOk;
  const elementwise::AxisSplit s = elementwise::splitAtAxis(in.dims, axis);
  const size_t es = elementSize(in.type);
  const size_t pieceBytes = size_t(piece) * s.inner * es;
  const size_t rowBytes = s.axis * s.inner * es;
  const uint8_t* src = ctx.input<uint8_t>(0);
  for (uint32_t o = 0; o < ctx.numOutputs(); ++o) {
    uint8_t* dst = ctx.output<uint8_t>(o);
    const uint8_t* from = src + o * pieceBytes;
    for (size_t outer = 0; outer < s.outer; ++outer)
      memcpy(dst + outer * pieceBytes, from + outer * rowBytes, pieceBytes);
  }
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(SLICE, executeSlice);
NN_DEFINE_CPU_KERNEL(SPLIT, executeSplit);

}  // namespace nn
