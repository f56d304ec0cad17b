// EMBEDDING_LOOKUP and HASHTABLE_LOOKUP: select rows (slices along dimension 0) of a
// values tensor; each selected row is one memcpy.
#include <algorithm>

#include "ops/operation.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

size_t rowBytes(const Shape& values) {
  size_t n = elementSize(values.type);
  for (size_t i = 1; i < values.dims.size(); ++i) n *= values.dims[i];
  return n;
}

// ---- EMBEDDING_LOOKUP -------------------------------------------------------------------

Status validateEmbeddingLookup(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(2, 2));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  NN_RETURN_IF_ERROR(requirePresent(c, 0));
  NN_RETURN_IF_ERROR(c.checkInputType(0, kI32));
  NN_RETURN_IF_ERROR(c.checkInputRank(0, 1));
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 1, {{kF32, kFeatureLevel1}, {kI32, kFeatureLevel3}, {kQ8, kFeatureLevel3},
             {kF16, kFeatureLevel4}, {kQ8S, kFeatureLevel4}}));
  const size_t rank = c.input(1).dimensions.size();
  if (rank == 1) return c.fail("input 1 (values): rank must be >= 2, got 1");
  return checkOutputLikeInput(c, 0, 1);
}

Status prepareEmbeddingLookup(OpContext& ctx) {
  const Shape& lookups = ctx.inputShape(0);
  const Shape& values = ctx.inputShape(1);
  if (lookups.rank() != 1)
    return ctx.fail("input 0 (lookups): expected a 1-D tensor, got rank %u", lookups.rank());
  if (values.rank() < 2)
    return ctx.fail("input 1 (values): rank must be >= 2, got %u", values.rank());
  Dims out = values.dims;
  out[0] = lookups.dims[0];
  return ctx.setOutputDims(0, std::move(out));
}

Status executeEmbeddingLookup(OpContext& ctx) {
  const Shape& values = ctx.inputShape(1);
  const uint32_t k = ctx.inputShape(0).dims[0];
  const int32_t* lookups = ctx.input<int32_t>(0);
  const size_t row = rowBytes(values);
  const uint8_t* src = ctx.input<uint8_t>(1);
  uint8_t* dst = ctx.output<uint8_t>(0);
  for (uint32_t i = 0; i < k; ++i) {
    const int32_t idx = lookups[i];
    if (idx < 0 || static_cast<uint32_t>(idx) >= values.dims[0])
      return ctx.fail("input 0 (lookups): entry %u is %d, out of range [0, %u)", i, idx,
                      values.dims[0]);
    if (row) memcpy(dst + i * row, src + size_t(idx) * row, row);
  }
  return kOk;
}

// ---- HASHTABLE_LOOKUP -------------------------------------------------------------------

Status validateHashtableLookup(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(3, 3));
  NN_RETURN_IF_ERROR(c.checkOutputCount(2));
  for (uint32_t i = 0; i < 2; ++i) {
    NN_RETURN_IF_ERROR(requirePresent(c, i));
    NN_RETURN_IF_ERROR(c.checkInputType(i, kI32));
    NN_RETURN_IF_ERROR(c.checkInputRank(i, 1));
  }
  NN_RETURN_IF_ERROR(checkTensorTypeSince(
      c, 2, {{kF32, kFeatureLevel1}, {kI32, kFeatureLevel1}, {kQ8, kFeatureLevel1}}));
  if (c.input(2).dimensions.size() == 1)
    return c.fail("input 2 (values): rank must be >= 2, got 1");
  NN_RETURN_IF_ERROR(checkOutputLikeInput(c, 0, 2));
  if (c.outputType(1) != kQ8)
    return c.fail("output 1 (hits): expected %s, got %s", toString(kQ8), toString(c.outputType(1)));
  return kOk;
}

Status prepareHashtableLookup(OpContext& ctx) {
  const Shape& lookups = ctx.inputShape(0);
  const Shape& keys = ctx.inputShape(1);
  const Shape& values = ctx.inputShape(2);
  if (lookups.rank() != 1)
    return ctx.fail("input 0 (lookups): expected a 1-D tensor, got rank %u", lookups.rank());
  if (keys.rank() != 1)
    return ctx.fail("input 1 (keys): expected a 1-D tensor, got rank %u", keys.rank());
  if (values.rank() < 2)
    return ctx.fail("input 2 (values): rank must be >= 2, got %u", values.rank());
  if (keys.dims[0] != values.dims[0])
    return ctx.fail("input 1 (keys) has %u entries but input 2 (values) has %u rows", keys.dims[0],
                    values.dims[0]);
  Dims out = values.dims;
  out[0] = lookups.dims[0];
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, std::move(out)));
  return ctx.setOutputDims(1, Dims{lookups.dims[0]});
}

Status executeHashtableLookup(OpContext& ctx) {
  const Shape& values = ctx.inputShape(2);
  const uint32_t k = ctx.inputShape(0).dims[0];
  const uint32_t n = ctx.inputShape(1).dims[0];
  const int32_t* lookups = ctx.input<int32_t>(0);
  const int32_t* keys = ctx.input<int32_t>(1);
  const size_t row = rowBytes(values);
  const uint8_t* src = ctx.input<uint8_t>(2);
  uint8_t* dst = ctx.output<uint8_t>(0);
  uint8_t* hits = ctx.output<uint8_t>(1);
  for (uint32_t i = 0; i < k; ++i) {
    // Keys are sorted ascending (a documented precondition), so binary search finds the row.
    const int32_t* it = std::lower_bound(keys, keys + n, lookups[i]);
    const bool hit = it != keys + n && *it == lookups[i];
    hits[i] = hit ? 1 : 0;
    if (row == 0) continue;
    if (hit) memcpy(dst + i * row, src + size_t(it - keys) * row, row);
    else memset(dst + i * row, 0, row);
  }
  return kOk;
}

}  // namespace

NN_REGISTER_OPERATION(EMBEDDING_LOOKUP, validateEmbeddingLookup, prepareEmbeddingLookup,
                      executeEmbeddingLookup);
NN_REGISTER_OPERATION(HASHTABLE_LOOKUP, validateHashtableLookup, prepareHashtableLookup,
                      executeHashtableLookup);

}  // namespace nn
