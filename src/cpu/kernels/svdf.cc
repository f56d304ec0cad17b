// SVDF kernel: one step of a rank-r singular-value-decomposition filter.
//
// num_filters = num_units * rank feature filters each produce one activation per step; the
// state keeps the last memory_size activations of every filter (laid out [batch, filter,
// memory_size], newest last). Each filter's memory is weighted by its time filter, the rank
// filters of a unit are summed, bias and activation are applied, then the memory shifts left
// by one. The state size is memory_size * num_filters per batch, as in the NNAPI reference and
// its conformance vectors.
#include <algorithm>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/recurrent_util.h"
#include "spec/ops/recurrent.h"

namespace nn {
namespace {

using namespace svdf;  // NOLINT: the operand numbering

Status execute(OpContext& ctx) {
  // Also checks a bias that was bound only now (see resolveSizes).
  Sizes d;
  NN_RETURN_IF_ERROR(resolveSizes(ctx, &d));
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

NN_DEFINE_CPU_KERNEL(SVDF, execute);

}  // namespace nn
