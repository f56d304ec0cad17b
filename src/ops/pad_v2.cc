// PAD_V2 (pad with a given value) and MIRROR_PAD (pad by reflecting the input). Both move
// elements without arithmetic, so the kernels work on unsigned integers of the element width.
#include "ops/operation.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

// Reads and checks the [rank, 2] paddings tensor (input 1). `maxPad(d)` bounds each entry.
template <typename MaxPad>
Status readPaddings(OpContext& ctx, std::vector<int32_t>* pads, MaxPad maxPad) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const uint32_t rank = ctx.inputShape(0).rank();
  const Shape& p = ctx.inputShape(1);
  if (p.rank() != 2 || p.dims[0] != rank || p.dims[1] != 2)
    return ctx.fail("input 1 (paddings): expected shape [%u, 2], got %s", rank,
                    toString(p.dims).c_str());
  *pads = readInt32Vector(ctx, 1);
  for (size_t i = 0; i < pads->size(); ++i) {
    const int32_t v = (*pads)[i];
    const int64_t max = maxPad(static_cast<uint32_t>(i / 2));
    if (v < 0 || v > max)
      return ctx.fail("input 1 (paddings): entry [%zu, %zu] is %d, must be in [0, %lld]", i / 2,
                      i % 2, v, static_cast<long long>(max));
  }
  return kOk;
}

Status setPaddedOutput(OpContext& ctx, const std::vector<int32_t>& pads) {
  const Dims& in = ctx.inputShape(0).dims;
  Dims out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const uint64_t d = uint64_t(in[i]) + uint64_t(pads[2 * i]) + uint64_t(pads[2 * i + 1]);
    if (d > UINT32_MAX) return ctx.fail("output dimension %zu is too large", i);
    out[i] = static_cast<uint32_t>(d);
  }
  return ctx.setOutputDims(0, std::move(out));
}

Status checkPaddingsOperand(ValidationContext& c) {
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 2));
  const Dims& p = c.input(1).dimensions;
  const Dims& in = c.input(0).dimensions;
  if (p.size() == 2 && p[1] != 0 && p[1] != 2)
    return c.fail("input 1 (paddings): second dimension must be 2, got %u", p[1]);
  if (p.size() == 2 && p[0] != 0 && !in.empty() && p[0] != in.size())
    return c.fail("input 1 (paddings): first dimension %u must equal the input rank %zu", p[0],
                  in.size());
  return kOk;
}

// ---- PAD_V2 -----------------------------------------------------------------------------

Status validatePadV2(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 0, {{kF32, kFeatureLevel3}, {kF16, kFeatureLevel3}, {kQ8, kFeatureLevel3},
             {kQ8S, kFeatureLevel4}}));
  NN_RETURN_IF_ERROR(c.checkInputRankAtMost(0, 4));
  NN_RETURN_IF_ERROR(checkPaddingsOperand(c));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  const OperandType t = c.inputType(0);
  const OperandType valueType = t == kF32   ? OperandType::FLOAT32
                                : t == kF16 ? OperandType::FLOAT16
                                            : OperandType::INT32;
  NN_RETURN_IF_ERROR(c.checkInputType(2, valueType));
  return checkOutputLikeInput(c, 0, 0);
}

Status preparePadV2(OpContext& ctx) {
  if (ctx.inputShape(0).rank() > 4)
    return ctx.fail("input 0: rank %u exceeds the maximum 4", ctx.inputShape(0).rank());
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(readPaddings(ctx, &pads, [](uint32_t) { return int64_t(INT32_MAX); }));
  return setPaddedOutput(ctx, pads);
}

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
  NN_RETURN_IF_ERROR(readPaddings(ctx, &pads, [](uint32_t) { return int64_t(INT32_MAX); }));
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

constexpr int32_t kModeReflect = 0;
constexpr int32_t kModeSymmetric = 1;

Status validateMirrorPad(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel7);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0,
                                          {{kF32, kFeatureLevel7},
                                           {kF16, kFeatureLevel7},
                                           {kI32, kFeatureLevel7},
                                           {kQ8, kFeatureLevel7},
                                           {kQ8S, kFeatureLevel7}}));
  NN_RETURN_IF_ERROR(checkPaddingsOperand(c));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  NN_RETURN_IF_ERROR(c.checkInputType(2, OperandType::INT32));
  int32_t mode = 0;
  if (c.constantScalar(2, &mode) && mode != kModeReflect && mode != kModeSymmetric)
    return c.fail("input 2 (mode) is %d; expected 0 (REFLECT) or 1 (SYMMETRIC)", mode);
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  const Dims& in = c.input(0).dimensions;
  const Dims& out = c.output(0).dimensions;
  if (!in.empty() && !out.empty() && in.size() != out.size())
    return c.fail("output 0: rank %zu differs from the input rank %zu", out.size(), in.size());
  return kOk;
}

Status mirrorParams(OpContext& ctx, int32_t* mode, std::vector<int32_t>* pads) {
  if (!ctx.hasInputData(2)) return kDeferred;
  const Dims& in = ctx.inputShape(0).dims;
  if (in.empty()) return ctx.fail("input 0: rank must be at least 1");
  *mode = ctx.scalar<int32_t>(2);
  if (*mode != kModeReflect && *mode != kModeSymmetric)
    return ctx.fail("input 2 (mode) is %d; expected 0 (REFLECT) or 1 (SYMMETRIC)", *mode);
  // REFLECT excludes the edge element, so it can mirror one element fewer than SYMMETRIC.
  const int64_t edge = *mode == kModeReflect ? 1 : 0;
  return readPaddings(ctx, pads, [&](uint32_t d) { return int64_t(in[d]) - edge; });
}

Status prepareMirrorPad(OpContext& ctx) {
  int32_t mode = 0;
  std::vector<int32_t> pads;
  NN_RETURN_IF_ERROR(mirrorParams(ctx, &mode, &pads));
  return setPaddedOutput(ctx, pads);
}

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
  NN_RETURN_IF_ERROR(mirrorParams(ctx, &mode, &pads));
  if (in.count() == 0) return ctx.fail("input 0: cannot mirror-pad a zero-sized tensor");
  return withElementType(elementSize(in.type), [&](auto zero) {
    using T = decltype(zero);
    mirrorPadKernel(ctx.input<T>(0), in.dims, ctx.output<T>(0), out.dims, pads, mode);
    return kOk;
  });
}

}  // namespace

NN_REGISTER_OPERATION(PAD_V2, validatePadV2, preparePadV2, executePadV2);
NN_REGISTER_OPERATION(MIRROR_PAD, validateMirrorPad, prepareMirrorPad, executeMirrorPad);

}  // namespace nn
