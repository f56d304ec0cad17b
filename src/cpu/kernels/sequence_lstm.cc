// UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM kernels: the LSTM cell of
// cpu/kernels/lstm_cell.h unrolled over the time dimension of a 3-D input (time-major
// [T, B, I] or batch-major [B, T, I]). The bidirectional op runs a second cell from the last
// time step to the first, optionally fed by an auxiliary input (cross linking: both cells see
// input and aux input through separate weights; parallel linking, feature level 4: the
// backward cell reads the aux input instead of the input) and optionally merges both outputs
// along the last axis. Float16 operands are computed in float32 throughout, as the NNAPI
// reference does; the state carried between steps stays float32.
#include <algorithm>
#include <memory>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/lstm_cell.h"
#include "cpu/kernels/recurrent_util.h"
#include "spec/ops/lstm.h"

namespace nn {
namespace sequence_lstm {

using namespace lstm;  // NOLINT: slot names

namespace {

Params readParams(const ShapeContext& ctx, uint32_t act, uint32_t cellClip, uint32_t projClip) {
  Params p;
  p.activation = ctx.scalar<int32_t>(act);
  p.cellClip = recurrent::floatScalar(ctx, cellClip);
  p.projClip = recurrent::floatScalar(ctx, projClip);
  return p;
}

// Stages a cell's weight tensors as float32.
void stageCell(const ShapeContext& ctx, const uint32_t* map, recurrent::FloatIn* staged,
               Tensors* w) {
  for (uint32_t slot = 0; slot < kNumSlots; ++slot) {
    if (slot == kInput || slot == kActivation || slot == kCellClip || slot == kProjClip)
      continue;
    if (!bound(ctx, map[slot])) continue;
    staged[slot].reset(ctx, map[slot]);
    w->t[slot] = staged[slot].get();
  }
}

// Runs one cell over the whole sequence. input is [T, B, I] or [B, T, I] (aux likewise with
// the aux size); the cell's output of step t, batch b lands at
// out[row(t, b) * outStride + outOffset] with row = t * B + b (time-major) or b * T + t.
void runSequence(const Config& cfg, const Sizes& s, const Params& p, const Tensors& w,
                 const float* input, const float* aux, bool timeMajor, uint32_t maxTime,
                 bool forward, float* out, uint32_t outStride, uint32_t outOffset,
                 float* hFinal, float* cFinal) {
  const uint32_t B = s.batch, I = s.input, O = s.output, A = s.auxInput, T = maxTime;
  std::vector<float> h(w[kOutputStateIn], w[kOutputStateIn] + static_cast<size_t>(B) * O);
  std::vector<float> c(w[kCellStateIn], w[kCellStateIn] + static_cast<size_t>(B) * s.cell);
  std::vector<float> scratch(scratchSize(cfg, s));
  std::vector<float> x, a;
  const bool useAux = cfg.aux && aux != nullptr;
  if (!timeMajor) {
    x.resize(static_cast<size_t>(B) * I);
    if (useAux) a.resize(static_cast<size_t>(B) * A);
  }
  auto row = [&](uint32_t t, uint32_t b) {
    return timeMajor ? static_cast<size_t>(t) * B + b : static_cast<size_t>(b) * T + t;
  };
  for (uint32_t k = 0; k < T; ++k) {
    const uint32_t t = forward ? k : T - 1 - k;
    const float* xt;
    const float* at = nullptr;
    if (timeMajor) {
      xt = input + static_cast<size_t>(t) * B * I;
      if (useAux) at = aux + static_cast<size_t>(t) * B * A;
    } else {
      for (uint32_t b = 0; b < B; ++b) {
        std::copy_n(input + row(t, b) * I, I, x.data() + static_cast<size_t>(b) * I);
        if (useAux) std::copy_n(aux + row(t, b) * A, A, a.data() + static_cast<size_t>(b) * A);
      }
      xt = x.data();
      if (useAux) at = a.data();
    }
    step(cfg, s, p, w, xt, at, h.data(), c.data(), h.data(), c.data(), scratch.data());
    for (uint32_t b = 0; b < B; ++b)
      std::copy_n(h.data() + static_cast<size_t>(b) * O, O,
                  out + row(t, b) * outStride + outOffset);
  }
  if (hFinal) std::copy(h.begin(), h.end(), hFinal);
  if (cFinal) std::copy(c.begin(), c.end(), cFinal);
}

}  // namespace

namespace uni {
namespace {

Status execute(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(configure(ctx, &g));
  const Params p = readParams(ctx, kActivation, kCellClip, kProjClip);
  recurrent::FloatIn staged[kNumSlots];
  Tensors w;
  stageCell(ctx, kMap, staged, &w);
  const recurrent::FloatIn input(ctx, 0);
  recurrent::FloatOut out(ctx, kOutput);
  std::vector<float> hFinal, cFinal;
  const bool states = ctx.numOutputs() == 3;
  std::unique_ptr<recurrent::FloatOut> hOut, cOut;
  if (states) {
    hOut = std::make_unique<recurrent::FloatOut>(ctx, kOutputStateOut);
    cOut = std::make_unique<recurrent::FloatOut>(ctx, kCellStateOut);
  }
  runSequence(g.cfg, g.sizes, p, w, input.get(), nullptr, g.timeMajor, g.maxTime,
              /*forward=*/true, out.get(), g.sizes.output, 0, states ? hOut->get() : nullptr,
              states ? cOut->get() : nullptr);
  out.commit();
  if (states) {
    hOut->commit();
    cOut->commit();
  }
  return kOk;
}

}  // namespace
}  // namespace uni

namespace bi {
namespace {

Status execute(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(configure(ctx, &g));
  const Params p = readParams(ctx, kActivation, kCellClip, kProjClip);
  recurrent::FloatIn fwStaged[kNumSlots], bwStaged[kNumSlots];
  Tensors fwW, bwW;
  stageCell(ctx, kFwMap, fwStaged, &fwW);
  stageCell(ctx, kBwMap, bwStaged, &bwW);
  const recurrent::FloatIn input(ctx, 0);
  recurrent::FloatIn aux;
  if (g.hasAux) aux.reset(ctx, kAuxInput);

  const uint32_t fwO = g.fwSizes.output, bwO = g.bwSizes.output;
  std::vector<std::unique_ptr<recurrent::FloatOut>> outs;
  for (uint32_t i = 0; i < ctx.numOutputs(); ++i)
    outs.push_back(std::make_unique<recurrent::FloatOut>(ctx, i));
  const uint32_t stateBase = g.merge ? 1 : 2;
  const bool states = ctx.numOutputs() > stateBase;
  auto state = [&](uint32_t k) { return states ? outs[stateBase + k]->get() : nullptr; };

  float* fwOut = outs[0]->get();
  const uint32_t fwStride = g.merge ? fwO + bwO : fwO;
  runSequence(g.fw, g.fwSizes, p, fwW, input.get(), g.parallel ? nullptr : aux.get(),
              g.timeMajor, g.maxTime, /*forward=*/true, fwOut, fwStride, 0, state(0), state(1));
  const float* bwInput = g.parallel ? aux.get() : input.get();
  if (g.merge) {
    runSequence(g.bw, g.bwSizes, p, bwW, bwInput, g.parallel ? nullptr : aux.get(),
                g.timeMajor, g.maxTime, /*forward=*/false, fwOut, fwStride, fwO, state(2),
                state(3));
  } else {
    runSequence(g.bw, g.bwSizes, p, bwW, bwInput, g.parallel ? nullptr : aux.get(),
                g.timeMajor, g.maxTime, /*forward=*/false, outs[1]->get(), bwO, 0, state(2),
                state(3));
  }
  for (auto& o : outs) o->commit();
  return kOk;
}

}  // namespace
}  // namespace bi
}  // namespace sequence_lstm

NN_DEFINE_CPU_KERNEL(UNIDIRECTIONAL_SEQUENCE_LSTM, sequence_lstm::uni::execute);
NN_DEFINE_CPU_KERNEL(BIDIRECTIONAL_SEQUENCE_LSTM, sequence_lstm::bi::execute);

}  // namespace nn
