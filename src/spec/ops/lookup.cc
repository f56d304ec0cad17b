// EMBEDDING_LOOKUP and HASHTABLE_LOOKUP: signatures and output shapes (one values row per
// lookup; HASHTABLE_LOOKUP also has one hit flag per lookup).
#include "spec/operation.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

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

Status inferEmbeddingLookup(ShapeContext& ctx) {
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

Status inferHashtableLookup(ShapeContext& ctx) {
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

}  // namespace

NN_DEFINE_OPERATION_SPEC(EMBEDDING_LOOKUP, validateEmbeddingLookup, inferEmbeddingLookup);
NN_DEFINE_OPERATION_SPEC(HASHTABLE_LOOKUP, validateHashtableLookup, inferHashtableLookup);

}  // namespace nn
