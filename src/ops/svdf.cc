// SVDF: one step of a rank-r singular-value-decomposition filter.
//
// num_filters = num_units * rank feature filters each produce one activation per step; the
// state keeps the last memory_size activations of every filter (laid out [batch, filter,
// memory_size], newest last). Each filter's memory is weighted by its time filter, the rank
// filters of a unit are summed, bias and activation are applied, then the memory shifts left
// by one. The state size is memory_size * num_filters per batch, as in the NNAPI reference and
// its conformance vectors.
#include <algorithm>
#include <cstring>
#include <vector>

#include "spec/ops/common.h"
#include "ops/operation.h"
#include "ops/recurrent_util.h"

namespace nn {
namespace {

constexpr uint32_t kInput = 0, kWeightsFeature = 1, kWeightsTime = 2, kBias = 3, kStateIn = 4,
                   kRank = 5, kActivation = 6;
constexpr uint32_t kStateOut = 0, kOutput = 1;

Status validateSvdf(ValidationContext& c) {
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

struct SvdfDims {
  uint32_t batch, inputSize, numFilters, rank, units, memory;
};

Status svdfDims(OpContext& ctx, SvdfDims* d) {
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

Status prepareSvdf(OpContext& ctx) {
  SvdfDims d;
  const Status s = svdfDims(ctx, &d);
  if (s != kOk) return s;
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kStateOut, {d.batch, d.memory * d.numFilters}));
  return ctx.setOutputDims(kOutput, {d.batch, d.units});
}

Status executeSvdf(OpContext& ctx) {
  SvdfDims d;
  NN_RETURN_IF_ERROR(svdfDims(ctx, &d));
  const int32_t act =
      ctx.isOmitted(kActivation) ? recurrent::kActNone : ctx.scalar<int32_t>(kActivation);
  if (!recurrent::isValidActivation(act)) return ctx.fail("input 6: invalid activation %d", act);

  recurrent::FloatIn input(ctx, kInput), wf(ctx, kWeightsFeature), wt(ctx, kWeightsTime),
      bias(ctx, kBias), stateIn(ctx, kStateIn);
  recurrent::FloatOut stateOut(ctx, kStateOut), out(ctx, kOutput);
  const size_t stateCount = static_cast<size_t>(d.batch) * d.memory * d.numFilters;
  float* state = stateOut.get();
  if (stateCount) std::copy(stateIn.get(), stateIn.get() + stateCount, state);

  // Feature filtering: the newest memory slot of every (batch, filter) gets the activation.
  std::vector<float> scratch(static_cast<size_t>(d.batch) * d.numFilters, 0.f);
  recurrent::matrixBatchVectorMultiplyAccumulate(wf.get(), d.numFilters, d.inputSize, input.get(),
                                                 d.batch, scratch.data());
  for (size_t i = 0; i < scratch.size(); ++i) state[i * d.memory + d.memory - 1] = scratch[i];

  // Time filtering, rank reduction, bias and activation.
  for (size_t i = 0; i < scratch.size(); ++i)
    scratch[i] = recurrent::dot(wt.get() + (i % d.numFilters) * d.memory, state + i * d.memory,
                                d.memory);
  float* o = out.get();
  for (uint32_t b = 0; b < d.batch; ++b) {
    for (uint32_t u = 0; u < d.units; ++u) {
      float sum = bias ? bias.get()[u] : 0.f;
      const float* s = scratch.data() + static_cast<size_t>(b) * d.numFilters + u * d.rank;
      for (uint32_t r = 0; r < d.rank; ++r) sum += s[r];
      o[static_cast<size_t>(b) * d.units + u] = sum;
    }
  }
  recurrent::applyActivation(act, o, static_cast<size_t>(d.batch) * d.units);

  // Age the memory: drop the oldest slot, clear the newest.
  for (size_t i = 0; i < scratch.size(); ++i) {
    float* m = state + i * d.memory;
    std::copy(m + 1, m + d.memory, m);
    m[d.memory - 1] = 0.f;
  }
  stateOut.commit();
  out.commit();
  return kOk;
}

}  // namespace

NN_REGISTER_OPERATION(SVDF, validateSvdf, prepareSvdf, executeSvdf);

}  // namespace nn

namespace nn {
NN_OPTIONAL_INPUTS(SVDF, {3, 6});  // bias; the activation defaults to none
}  // namespace nn
