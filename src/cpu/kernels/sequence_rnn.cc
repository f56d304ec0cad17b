// UNIDIRECTIONAL_SEQUENCE_RNN and BIDIRECTIONAL_SEQUENCE_RNN kernels: the basic RNN cell
//   h_t = activation(x_t W^T + aux_t W_aux^T + h_{t-1} R^T + bias)
// unrolled over a time-major [T, B, I] or batch-major [B, T, I] input. The bidirectional op
// runs a second cell from the last step to the first; an auxiliary input either feeds both
// cells through their own weights (cross linking) or, without aux weights (feature level 4,
// parallel linking), replaces the backward cell's input. Float16 operands are computed in
// float32 and the hidden state carried between steps stays float32, as in the reference.
#include <algorithm>
#include <memory>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/recurrent_util.h"
#include "spec/ops/recurrent.h"

namespace nn {
namespace sequence_rnn {
namespace {

struct Cell {
  const float* weights = nullptr;    // [units, input]
  const float* recurrent = nullptr;  // [units, units]
  const float* bias = nullptr;       // [units]
  const float* state = nullptr;      // [batch, units]
  const float* auxWeights = nullptr; // [units, aux] or null
  uint32_t units = 0, input = 0, aux = 0;
};

// Runs one cell over the sequence; step t, batch b lands at out[row(t, b) * stride + offset].
void runSequence(const Cell& cell, int32_t act, const float* input, const float* aux,
                 bool timeMajor, uint32_t T, uint32_t B, bool forward, float* out,
                 uint32_t stride, uint32_t offset, float* hFinal) {
  const uint32_t U = cell.units, I = cell.input, A = cell.aux;
  const bool useAux = cell.auxWeights != nullptr && aux != nullptr;
  std::vector<float> h(cell.state, cell.state + static_cast<size_t>(B) * U);
  std::vector<float> next(static_cast<size_t>(B) * U);
  std::vector<float> x(static_cast<size_t>(B) * I), a(useAux ? static_cast<size_t>(B) * A : 0);
  auto row = [&](uint32_t t, uint32_t b) {
    return timeMajor ? static_cast<size_t>(t) * B + b : static_cast<size_t>(b) * T + t;
  };
  for (uint32_t k = 0; k < T; ++k) {
    const uint32_t t = forward ? k : T - 1 - k;
    for (uint32_t b = 0; b < B; ++b) {
      std::copy_n(input + row(t, b) * I, I, x.data() + static_cast<size_t>(b) * I);
      if (useAux) std::copy_n(aux + row(t, b) * A, A, a.data() + static_cast<size_t>(b) * A);
    }
    recurrent::broadcastRows(cell.bias, U, B, next.data());
    recurrent::matrixBatchVectorMultiplyAccumulate(cell.weights, U, I, x.data(), B, next.data());
    if (useAux)
      recurrent::matrixBatchVectorMultiplyAccumulate(cell.auxWeights, U, A, a.data(), B,
                                                     next.data());
    recurrent::matrixBatchVectorMultiplyAccumulate(cell.recurrent, U, U, h.data(), B,
                                                   next.data());
    recurrent::applyActivation(act, next.data(), next.size());
    h.swap(next);
    for (uint32_t b = 0; b < B; ++b)
      std::copy_n(h.data() + static_cast<size_t>(b) * U, U, out + row(t, b) * stride + offset);
  }
  if (hFinal) std::copy(h.begin(), h.end(), hFinal);
}

}  // namespace

namespace uni {
namespace {

Status execute(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(configure(ctx, &g));
  const uint32_t U = g.U;
  recurrent::FloatIn input(ctx, kInput), w(ctx, kWeights), r(ctx, kRecurrent), bias(ctx, kBias),
      state(ctx, kState);
  Cell cell;
  cell.weights = w.get();
  cell.recurrent = r.get();
  cell.bias = bias.get();
  cell.state = state.get();
  cell.units = U;
  cell.input = ctx.inputShape(kInput).dim(2);
  recurrent::FloatOut out(ctx, 0);
  std::unique_ptr<recurrent::FloatOut> hOut;
  if (ctx.numOutputs() == 2) hOut = std::make_unique<recurrent::FloatOut>(ctx, 1);
  runSequence(cell, ctx.scalar<int32_t>(kActivation), input.get(), nullptr, g.timeMajor, g.T,
              g.B, /*forward=*/true, out.get(), U, 0, hOut ? hOut->get() : nullptr);
  out.commit();
  if (hOut) hOut->commit();
  return kOk;
}

}  // namespace
}  // namespace uni

namespace bi {
namespace {

Status execute(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(configure(ctx, &g));
  using recurrent::FloatIn;
  FloatIn input(ctx, kInput), fwW(ctx, kFwWeights), fwR(ctx, kFwRecurrent), fwB(ctx, kFwBias),
      fwH(ctx, kFwState), bwW(ctx, kBwWeights), bwR(ctx, kBwRecurrent), bwB(ctx, kBwBias),
      bwH(ctx, kBwState), aux(ctx, kAuxInput), fwA(ctx, kFwAuxWeights), bwA(ctx, kBwAuxWeights);
  const uint32_t inputSize = ctx.inputShape(kInput).dim(2);
  Cell fw{fwW.get(), fwR.get(), fwB.get(), fwH.get(), fwA.get(), g.fwU, inputSize, g.auxSize};
  Cell bw{bwW.get(), bwR.get(), bwB.get(), bwH.get(), bwA.get(), g.bwU,
          g.parallel ? g.auxSize : inputSize, g.auxSize};
  std::vector<std::unique_ptr<recurrent::FloatOut>> outs;
  for (uint32_t i = 0; i < ctx.numOutputs(); ++i)
    outs.push_back(std::make_unique<recurrent::FloatOut>(ctx, i));
  const uint32_t stateBase = g.merge ? 1 : 2;
  const bool states = ctx.numOutputs() > stateBase;
  const int32_t act = ctx.scalar<int32_t>(kActivation);
  const float* crossAux = g.parallel ? nullptr : aux.get();

  const uint32_t fwStride = g.merge ? g.fwU + g.bwU : g.fwU;
  runSequence(fw, act, input.get(), crossAux, g.timeMajor, g.T, g.B, /*forward=*/true,
              outs[0]->get(), fwStride, 0, states ? outs[stateBase]->get() : nullptr);
  const float* bwInput = g.parallel ? aux.get() : input.get();
  float* bwOut = g.merge ? outs[0]->get() : outs[1]->get();
  runSequence(bw, act, bwInput, crossAux, g.timeMajor, g.T, g.B, /*forward=*/false, bwOut,
              g.merge ? fwStride : g.bwU, g.merge ? g.fwU : 0,
              states ? outs[stateBase + 1]->get() : nullptr);
  for (auto& o : outs) o->commit();
  return kOk;
}

}  // namespace
}  // namespace bi
}  // namespace sequence_rnn

NN_DEFINE_CPU_KERNEL(UNIDIRECTIONAL_SEQUENCE_RNN, sequence_rnn::uni::execute);
NN_DEFINE_CPU_KERNEL(BIDIRECTIONAL_SEQUENCE_RNN, sequence_rnn::bi::execute);

}  // namespace nn
