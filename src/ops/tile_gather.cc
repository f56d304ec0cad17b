// TILE, GATHER and EXPAND_DIMS: pure data movement, one byte-level kernel for every type.
#include "ops/operation.h"
#include "ops/elementwise_util.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

constexpr std::initializer_list<TypeSince> kMovableTypes = {{kF32, kFeatureLevel3},
                                                            {kF16, kFeatureLevel3},
                                                            {kI32, kFeatureLevel3},
                                                            {kQ8, kFeatureLevel3},
                                                            {kQ8S, kFeatureLevel4}};

// ---- TILE -------------------------------------------------------------------------------

Status validateTile(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0, kMovableTypes));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(1, 1));
  return checkOutputLikeInput(c, 0, 0);
}

Status readMultiples(OpContext& ctx, std::vector<int32_t>* multiples) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const uint32_t rank = ctx.inputShape(0).rank();
  if (rank == 0) return ctx.fail("input 0: rank must be at least 1");
  const Shape& m = ctx.inputShape(1);
  if (m.rank() != 1 || m.dims[0] != rank)
    return ctx.fail("input 1 (multiples): expected shape [%u], got %s", rank,
                    toString(m.dims).c_str());
  *multiples = readInt32Vector(ctx, 1);
  for (uint32_t i = 0; i < rank; ++i)
    if ((*multiples)[i] < 0)
      return ctx.fail("input 1 (multiples): entry %u is %d, must be >= 0", i, (*multiples)[i]);
  return kOk;
}

Status prepareTile(OpContext& ctx) {
  std::vector<int32_t> multiples;
  NN_RETURN_IF_ERROR(readMultiples(ctx, &multiples));
  const Dims& in = ctx.inputShape(0).dims;
  Dims out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const uint64_t d = uint64_t(in[i]) * uint64_t(multiples[i]);
    if (d > UINT32_MAX) return ctx.fail("output dimension %zu is too large", i);
    out[i] = static_cast<uint32_t>(d);
  }
  return ctx.setOutputDims(0, std::move(out));
}

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
  NN_RETURN_IF_ERROR(readMultiples(ctx, &multiples));
  const Shape& in = ctx.inputShape(0);
  tileLevel(ctx.input<uint8_t>(0), ctx.output<uint8_t>(0), in.dims, multiples, stridesOf(in.dims),
            0, elementSize(in.type));
  return kOk;
}

// ---- GATHER -----------------------------------------------------------------------------

Status validateGather(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0, kMovableTypes));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, OperandType::INT32));
  NN_RETURN_IF_ERROR(requirePresent(c, 2));
  NN_RETURN_IF_ERROR(c.checkInputType(2, kI32));
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  const int32_t rank = static_cast<int32_t>(c.input(0).dimensions.size());
  int32_t axis = 0;
  if (rank > 0 && c.constantScalar(1, &axis) && (axis < -rank || axis >= rank))
    return c.fail("input 1 (axis) is %d, out of range [%d, %d)", axis, -rank, rank);
  return kOk;
}

Status gatherAxis(OpContext& ctx, uint32_t* axis) {
  if (!ctx.hasInputData(1)) return kDeferred;
  const uint32_t rank = ctx.inputShape(0).rank();
  if (rank == 0) return ctx.fail("input 0: rank must be at least 1");
  const int32_t raw = ctx.scalar<int32_t>(1);
  if (!elementwise::resolveAxis(raw, rank, axis))
    return ctx.fail("input 1 (axis) is %d, out of range [%d, %u)", raw, -int32_t(rank), rank);
  return kOk;
}

Status prepareGather(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(gatherAxis(ctx, &axis));
  const Dims& in = ctx.inputShape(0).dims;
  const Dims& idx = ctx.inputShape(2).dims;
  Dims out(in.begin(), in.begin() + axis);
  out.insert(out.end(), idx.begin(), idx.end());
  out.insert(out.end(), in.begin() + axis + 1, in.end());
  return ctx.setOutputDims(0, std::move(out));
}

Status executeGather(OpContext& ctx) {
  uint32_t axis = 0;
  NN_RETURN_IF_ERROR(gatherAxis(ctx, &axis));
  if (ctx.outputShape(0).count() == 0) return kOk;
  const Shape& in = ctx.inputShape(0);
  const elementwise::AxisSplit s = elementwise::splitAtAxis(in.dims, axis);
  const size_t numIndices = static_cast<size_t>(ctx.inputShape(2).count());
  const int32_t* indices = ctx.input<int32_t>(2);
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

Status validateExpandDims(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, 0, kMovableTypes));
  NN_RETURN_IF_ERROR(requirePresent(c, 1));
  NN_RETURN_IF_ERROR(c.checkInputType(1, OperandType::INT32));
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 0));
  const int32_t rank = static_cast<int32_t>(c.input(0).dimensions.size());
  int32_t axis = 0;
  if (rank > 0 && c.constantScalar(1, &axis) && (axis < -(rank + 1) || axis > rank))
    return c.fail("input 1 (axis) is %d, out of range [%d, %d)", axis, -(rank + 1), rank + 1);
  return kOk;
}

Status prepareExpandDims(OpContext& ctx) {
  if (!ctx.hasInputData(1)) return kDeferred;
  Dims out = ctx.inputShape(0).dims;
  const int32_t raw = ctx.scalar<int32_t>(1);
  uint32_t axis = 0;
  if (!elementwise::resolveAxis(raw, static_cast<uint32_t>(out.size()) + 1, &axis))
    return ctx.fail("input 1 (axis) is %d, out of range [%d, %zu)", raw,
                    -static_cast<int32_t>(out.size()) - 1, out.size() + 1);
  out.insert(out.begin() + axis, 1u);
  return ctx.setOutputDims(0, std::move(out));
}

Status executeExpandDims(OpContext& ctx) {
  const size_t bytes = ctx.inputShape(0).bytes();
  if (bytes) memcpy(ctx.outputData(0), ctx.inputData(0), bytes);
  return kOk;
}

}  // namespace

NN_REGISTER_OPERATION(TILE, validateTile, prepareTile, executeTile);
NN_REGISTER_OPERATION(GATHER, validateGather, prepareGather, executeGather);
NN_REGISTER_OPERATION(EXPAND_DIMS, validateExpandDims, prepareExpandDims, executeExpandDims);

}  // namespace nn
