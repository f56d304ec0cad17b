// PAD_V2 (pad with a given value) and MIRROR_PAD (pad by reflecting the input) on the CPU.
// Both move elements without arithmetic, so the kernels work on unsigned integers of the
// element width.
#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu/kernel.h"
#include "spec/ops/pad.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;
using pad_ops::kModeReflect;

// ---- PAD_V2 -----------------------------------------------------------------------------

// Copies the whole input into the output box starting at `before`.
void placeBox(const uint8_t* src, const Dims& inDims, const std::vector<int32_t>& pads,
              uint8_t* dst, const Dims& outDims, size_t es) {
  const size_t rank = inDims.size();
  if (rank == 0) {  // a scalar-shaped tensor has nothing to pad
    memcpy(dst, src, es);
    return;
  }
  const std::vector<size_t> outStrides = stridesOf(outDims);
  const size_t rowBytes = size_t(inDims[rank - 1]) * es;
  size_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= inDims[d];
  std::vector<uint32_t> idx(rank, 0);
  for (size_t r = 0; r < rows; ++r) {
    size_t offset = size_t(pads[2 * (rank - 1)]);
    for (size_t d = 0; d + 1 < rank; ++d)
      offset += size_t(idx[d] + pads[2 * d]) * outStrides[d];
    memcpy(dst + offset * es, src, rowBytes);
    src += rowBytes;
    for (size_t d = rank - 1; d-- > 0;) {
      if (++idx[d] < inDims[d]) break;
      idx[d] = 0;
    }
  }
}

Status executePadV2(OpContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  const Shape& out = ctx.outputShape(0);
  if (out.count() == 0) return kOk;
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(pad_ops::readPadV2Paddings(ctx, &pads));
  const size_t n = static_cast<size_t>(out.count());
  switch (in.type) {
    case OperandType::TENSOR_FLOAT32: {
      const float v = ctx.scalar<float>(2);
      std::fill(ctx.output<float>(0), ctx.output<float>(0) + n, v);
      break;
    }
    case OperandType::TENSOR_FLOAT16: {
      const Half v = ctx.scalar<Half>(2);
      std::fill(ctx.output<Half>(0), ctx.output<Half>(0) + n, v);
      break;
    }
    default:
      // Like the NNAPI reference, the INT32 pad value is stored as its low byte: it is
      // already a value in the quantized domain of the input.
      memset(ctx.outputData(0), static_cast<uint8_t>(ctx.scalar<int32_t>(2) & 0xff), n);
      break;
  }
  if (in.count() > 0)
    placeBox(ctx.input<uint8_t>(0), in.dims, pads, ctx.output<uint8_t>(0), out.dims,
             elementSize(in.type));
  return kOk;
}

// ---- MIRROR_PAD -------------------------------------------------------------------------

template <typename T>
void mirrorPadKernel(const T* in, const Dims& inDims, T* out, const Dims& outDims,
                     const std::vector<int32_t>& pads, int32_t mode) {
  const size_t rank = inDims.size();
  if (rank == 0) return;
  const std::vector<size_t> inStrides = stridesOf(inDims);
  // table[d][o]: element offset in the input of output index o along dimension d.
  const int32_t edge = mode == kModeReflect ? 1 : 0;
  std::vector<std::vector<size_t>> table(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int32_t before = pads[2 * d];
    const int32_t size = static_cast<int32_t>(inDims[d]);
    table[d].resize(outDims[d]);
    for (int32_t o = 0; o < static_cast<int32_t>(outDims[d]); ++o) {
      int32_t i = o - before;
      if (i < 0) i = -i - 1 + edge;
      else if (i >= size) i = 2 * size - 1 - i - edge;
      table[d][o] = size_t(i) * inStrides[d];
    }
  }
  const size_t inner = outDims[rank - 1];
  size_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= outDims[d];
  std::vector<uint32_t> idx(rank, 0);
  const std::vector<size_t>& last = table[rank - 1];
  for (size_t r = 0; r < rows; ++r) {
    size_t base = 0;
    for (size_t d = 0; d + 1 < rank; ++d) base += table[d][idx[d]];
    const T* row = in + base;
    for (size_t o = 0; o < inner; ++o) out[o] = row[last[o]];
    out += inner;
    for (size_t d = rank - 1; d-- > 0;) {
      if (++idx[d] < outDims[d]) break;
      idx[d] = 0;
    }
  }
}

Status executeMirrorPad(OpContext& ctx) {
  const Shape& in = ctx.inputShape(0);
  const Shape& out = ctx.outputShape(0);
  if (out.count() == 0) return kOk;
  int32_t mode = 0;
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(pad_ops::readMirrorPadParams(ctx, &mode, &pads));
  if (in.count() == 0) return ctx.fail("input 0: cannot mirror-pad a zero-sized tensor");
  return withElementType(elementSize(in.type), [&](auto zero) {
    using T = decltype(zero);
    mirrorPadKernel(ctx.input<T>(0), in.dims, ctx.output<T>(0), out.dims, pads, mode);
    return kOk;
  });
}

}  // namespace

NN_DEFINE_CPU_KERNEL(PAD_V2, executePadV2);
NN_DEFINE_CPU_KERNEL(MIRROR_PAD, executeMirrorPad);

}  // namespace nn
