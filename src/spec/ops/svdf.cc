// SVDF: one step of a rank-r singular-value-decomposition filter. Signature and shapes; the
// kernel (and what the state holds) is described in cpu/kernels/svdf.cc.
#include "spec/operation.h"
#include "spec/ops/recurrent.h"

namespace nn {
namespace svdf {

Status resolveSizes(const ShapeContext& ctx, Sizes* d) {
  if (!ctx.hasInputData(kRank)) return kDeferred;
  const int32_t rank = ctx.scalar<int32_t>(kRank);
  if (rank < 1) return ctx.fail("input 5 (rank) must be >= 1, got %d", rank);
  const Shape& input = ctx.inputShape(kInput);
  const Shape& wf = ctx.inputShape(kWeightsFeature);
  const Shape& wt = ctx.inputShape(kWeightsTime);
  const Shape& state = ctx.inputShape(kStateIn);
  if (input.rank() != 2) return ctx.fail("input 0: expected rank 2, got %u", input.rank());
  if (wf.rank() != 2) return ctx.fail("input 1: expected rank 2, got %u", wf.rank());
  if (wt.rank() != 2) return ctx.fail("input 2: expected rank 2, got %u", wt.rank());
  if (state.rank() != 2) return ctx.fail("input 4: expected rank 2, got %u", state.rank());
  d->batch = input.dim(0);
  d->inputSize = input.dim(1);
  d->numFilters = wf.dim(0);
  d->rank = static_cast<uint32_t>(rank);
  if (d->numFilters % d->rank != 0)
    return ctx.fail("input 1 (weights_feature): %u filters is not a multiple of rank %u",
                    d->numFilters, d->rank);
  d->units = d->numFilters / d->rank;
  d->memory = wt.dim(1);
  if (wf.dim(1) != d->inputSize)
    return ctx.fail("input 1 (weights_feature): expected [%u, %u], got %s", d->numFilters,
                    d->inputSize, toString(wf.dims).c_str());
  if (wt.dim(0) != d->numFilters)
    return ctx.fail("input 2 (weights_time): expected %u rows (num_units * rank), got %u",
                    d->numFilters, wt.dim(0));
  if (d->memory < 1) return ctx.fail("input 2 (weights_time): memory size must be >= 1, got 0");
  // A bias bound at execution may still turn out omitted; it is checked again in execute.
  if (!ctx.isOmitted(kBias) && ctx.hasInputData(kBias)) {
    const Shape& bias = ctx.inputShape(kBias);
    if (bias.rank() != 1 || bias.dim(0) != d->units)
      return ctx.fail("input 3 (bias): expected [%u], got %s", d->units,
                      toString(bias.dims).c_str());
  }
  const uint64_t stateSize = static_cast<uint64_t>(d->memory) * d->numFilters;
  if (state.dim(0) != d->batch || state.dim(1) != stateSize)
    return ctx.fail("input 4 (state): expected [%u, %llu] (batch, memory_size * num_filters), "
                    "got %s",
                    d->batch, static_cast<unsigned long long>(stateSize),
                    toString(state.dims).c_str());
  if (!ctx.isOmitted(kActivation) && ctx.hasInputData(kActivation) &&
      !recurrent::isValidActivation(ctx.scalar<int32_t>(kActivation)))
    return ctx.fail("input 6: invalid activation %d", ctx.scalar<int32_t>(kActivation));
  return kOk;
}

namespace {

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(7, 7));
  NN_RETURN_IF_ERROR(c.checkOutputCount(2));
  for (uint32_t i : {kInput, kWeightsFeature, kWeightsTime, kStateIn, kRank})
    if (c.isOmitted(i)) return c.fail("input %u is required but has no value", i);
  const OperandType t = c.inputType(kInput);
  if (t == OperandType::TENSOR_FLOAT16) {
    c.requireFeatureLevel(kFeatureLevel3);
  } else if (t != OperandType::TENSOR_FLOAT32) {
    return c.fail("input 0: expected TENSOR_FLOAT32 or TENSOR_FLOAT16, got %s", toString(t));
  }
  NN_RETURN_IF_ERROR(
      c.checkInputTypes({t, t, t, t, t, OperandType::INT32, OperandType::INT32}));
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t, t}));
  NN_RETURN_IF_ERROR(c.checkInputRank(kInput, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(kWeightsFeature, 2));
  NN_RETURN_IF_ERROR(c.checkInputRank(kWeightsTime, 2));
  if (!c.isOmitted(kBias)) NN_RETURN_IF_ERROR(c.checkInputRank(kBias, 1));
  NN_RETURN_IF_ERROR(c.checkInputRank(kStateIn, 2));
  int32_t v;
  if (c.constantScalar(kRank, &v) && v < 1) return c.fail("input 5 (rank) must be >= 1, got %d", v);
  if (c.constantScalar(kActivation, &v) && !recurrent::isValidActivation(v))
    return c.fail("input 6: activation must be 0 (none), 1 (relu), 2 (relu1), 3 (relu6), "
                  "4 (tanh) or 6 (sigmoid), got %d",
                  v);
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  Sizes d;
  const Status s = resolveSizes(ctx, &d);
  if (s != kOk) return s;
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kStateOut, {d.batch, d.memory * d.numFilters}));
  return ctx.setOutputDims(kOutput, {d.batch, d.units});
}

}  // namespace
}  // namespace svdf

// The bias may be omitted, and the activation (it then defaults to none).
NN_DEFINE_OPERATION_SPEC_OPTIONAL(SVDF, svdf::validate, svdf::inferShapes, {3, 6});

}  // namespace nn
