// SLICE and SPLIT: signatures and shapes. Kernels: cpu/kernels/slice_split.cc.
#include "spec/operation.h"
#include "spec/ops/shape_util.h"
#include "spec/ops/slice_split.h"

namespace nn {
namespace {

using namespace shape_ops;

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

Status inferSlice(ShapeContext& ctx) {
  std::vector<uint32_t> begin;
  Dims out;
  NN_RETURN_IF_ERROR(slice_split::resolveSliceBox(ctx, &begin, &out));
  return ctx.setOutputDims(0, std::move(out));
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

// Every output: the input's shape with the split axis divided by the number of outputs.
Status inferSplit(ShapeContext& ctx) {
  uint32_t axis = 0, piece = 0;
  NN_RETURN_IF_ERROR(slice_split::resolveSplit(ctx, &axis, &piece));
  Dims out = ctx.inputShape(0).dims;
  out[axis] = piece;
  for (uint32_t o = 0; o < ctx.numOutputs(); ++o) NN_RETURN_IF_ERROR(ctx.setOutputDims(o, out));
  return kOk;
}

}  // namespace

NN_DEFINE_OPERATION_SPEC(SLICE, validateSlice, inferSlice);
NN_DEFINE_OPERATION_SPEC(SPLIT, validateSplit, inferSplit);

}  // namespace nn
