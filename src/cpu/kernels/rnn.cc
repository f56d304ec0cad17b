// RNN kernel: one step of the basic recurrent cell, computed in float32 (float16 operands are
// staged), as the NNAPI reference does. Shapes are checked by spec/ops/rnn.cc.
#include <cstring>

#include "cpu/kernel.h"
#include "cpu/kernels/recurrent_util.h"

namespace nn {
namespace {

constexpr uint32_t kInput = 0, kWeights = 1, kRecurrentWeights = 2, kBias = 3, kStateIn = 4,
                   kActivation = 5;
constexpr uint32_t kStateOut = 0, kOutput = 1;

Status execute(OpContext& ctx) {
  const int32_t act =
      ctx.isOmitted(kActivation) ? recurrent::kActNone : ctx.scalar<int32_t>(kActivation);
  if (!recurrent::isValidActivation(act)) return ctx.fail("input 5: invalid activation %d", act);
  const uint32_t batch = ctx.inputShape(kInput).dim(0);
  const uint32_t inputSize = ctx.inputShape(kInput).dim(1);
  const uint32_t units = ctx.inputShape(kWeights).dim(0);

  recurrent::FloatIn input(ctx, kInput), weights(ctx, kWeights), rec(ctx, kRecurrentWeights),
      bias(ctx, kBias), state(ctx, kStateIn);
  recurrent::FloatOut out(ctx, kOutput);
  float* o = out.get();
  recurrent::broadcastRows(bias.get(), units, batch, o);
  recurrent::matrixBatchVectorMultiplyAccumulate(weights.get(), units, inputSize, input.get(),
                                                 batch, o);
  recurrent::matrixBatchVectorMultiplyAccumulate(rec.get(), units, units, state.get(), batch, o);
  recurrent::applyActivation(act, o, static_cast<size_t>(batch) * units);
  out.commit();
  // The new hidden state is the output.
  const size_t bytes = ctx.outputShape(kOutput).bytes();
  if (bytes) memcpy(ctx.outputData(kStateOut), ctx.outputData(kOutput), bytes);
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(RNN, execute);

}  // namespace nn
