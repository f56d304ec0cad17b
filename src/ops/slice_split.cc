// SLICE and SPLIT. Both only move bytes, so one kernel per element width serves every
// tensor type; the innermost contiguous run of each copy is a single memcpy.
#include "ops/operation.h"
#include "ops/elementwise_util.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

// Copies the box of `outDims` starting at `begin` out of a tensor of `inDims` (bytes of
// `es` each). Rows along the last dimension are contiguous in both tensors.
void copyBox(const uint8_t* src, const Dims& inDims, const std::vector<uint32_t>& begin,
             uint8_t* dst, const Dims& outDims, size_t es) {
  const size_t rank = inDims.size();
  const std::vector<size_t> inStrides = stridesOf(inDims);
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

// ---- SLICE ------------------------------------------------------------------------------

Status validateSlice(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0,
                                          {{kF32, kFeatureLevel3},
                                           {kF16, kFeatureLevel3},
                                           {kI32, kFeatureLevel3},
                                           {kQ8, kFeatureLevel3},
                                           {kQ8S, kFeatureLevel4}}));
  for (uint32_t i = 1; i <= 2; ++i) {
    NN_RETURN_IF_ERROR(requirePresent(c, i));
    NN_RETURN_IF_ERROR(c.checkInputType(i, kI32));
    NN_RETURN_IF_ERROR(c.checkInputRank(i, 1));
  }
  return checkOutputLikeInput(c, 0, 0);
}

// Resolves begin/size into the output box; a size of -1 takes the rest of the dimension.
Status sliceBox(OpContext& ctx, std::vector<uint32_t>* begin, Dims* out) {
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
  const std::vector<int32_t> b = readInt32Vector(ctx, 1);
  const std::vector<int32_t> s = readInt32Vector(ctx, 2);
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

Status prepareSlice(OpContext& ctx) {
  std::vector<uint32_t> begin;
  Dims out;
  NN_RETURN_IF_ERROR(sliceBox(ctx, &begin, &out));
  return ctx.setOutputDims(0, std::move(out));
}

Status executeSlice(OpContext& ctx) {
  if (ctx.outputShape(0).count() == 0) return kOk;
  std::vector<uint32_t> begin;
  Dims out;
  NN_RETURN_IF_ERROR(sliceBox(ctx, &begin, &out));
  copyBox(ctx.input<uint8_t>(0), ctx.inputShape(0).dims, begin, ctx.output<uint8_t>(0), out,
          elementSize(ctx.inputType(0)));
  return kOk;
}

// ---- SPLIT ------------------------------------------------------------------------------

Status validateSplit(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  if (c.numOutputs() < 1) return c.fail("expected at least 1 output, got 0");
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0,
                                          {{kF32, kFeatureLevel3},
                                           {kF16, kFeatureLevel3},
                                           {kI32, kFeatureLevel3},
                                           {kQ8, kFeatureLevel3},
                                           {kQ8S, kFeatureLevel4}}));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, OperandType::INT32));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  NN_RETURN_IF_ERROR(c.checkInputType(2, OperandType::INT32));
  for (uint32_t o = 0; o < c.numOutputs(); ++o) NN_RETURN_IF_ERROR(checkOutputLikeInput(c, o, 0));
  int32_t numSplits = 0;
  if (c.constantScalar(2, &numSplits) && numSplits != static_cast<int32_t>(c.numOutputs()))
    return c.fail("input 2 (num_splits) is %d but the operation has %u outputs", numSplits,
                  c.numOutputs());
  const int32_t rank = static_cast<int32_t>(c.input(0).dimensions.size());
  int32_t axis = 0;
  if (rank > 0 && c.constantScalar(1, &axis) && (axis < -rank || axis >= rank))
    return c.fail("input 1 (axis) is %d, out of range [%d, %d)", axis, -rank, rank);
  return kOk;
}

// The split axis and the size of each piece along it.
Status splitGeometry(OpContext& ctx, uint32_t* axis, uint32_t* piece) {
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

Status prepareSplit(OpContext& ctx) {
  uint32_t axis = 0, piece = 0;
  NN_RETURN_IF_ERROR(splitGeometry(ctx, &axis, &piece));
  Dims out = ctx.inputShape(0).dims;
  out[axis] = piece;
  for (uint32_t o = 0; o < ctx.numOutputs(); ++o) NN_RETURN_IF_ERROR(ctx.setOutputDims(o, out));
  return kOk;
}

Status executeSplit(OpContext& ctx) {
  uint32_t axis = 0, piece = 0;
  NN_RETURN_IF_ERROR(splitGeometry(ctx, &axis, &piece));
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

NN_REGISTER_OPERATION(SLICE, validateSlice, prepareSlice, executeSlice);
NN_REGISTER_OPERATION(SPLIT, validateSplit, prepareSplit, executeSplit);

}  // namespace nn
