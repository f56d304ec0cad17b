// UNIDIRECTIONAL_SEQUENCE_RNN and BIDIRECTIONAL_SEQUENCE_RNN: the basic RNN cell
//   h_t = activation(x_t W^T + aux_t W_aux^T + h_{t-1} R^T + bias)
// unrolled over a time-major [T, B, I] or batch-major [B, T, I] input. The bidirectional op
// runs a second cell from the last step to the first; an auxiliary input either feeds both
// cells through their own weights (cross linking) or, without aux weights (feature level 4,
// parallel linking), replaces the backward cell's input. Float16 operands are computed in
// float32 and the hidden state carried between steps stays float32, as in the reference.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "spec/ops/common.h"
#include "ops/operation.h"
#include "ops/recurrent_util.h"

namespace nn {
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

Status checkFloatTypes(ValidationContext& c, std::initializer_list<uint32_t> tensorInputs,
                       uint32_t actInput, std::initializer_list<uint32_t> flagInputs,
                       OperandType flagType) {
  if (c.isOmitted(0)) return c.fail("input 0 is required but has no value");
  const OperandType t = c.inputType(0);
  if (t != OperandType::TENSOR_FLOAT32 && t != OperandType::TENSOR_FLOAT16)
    return c.fail("input 0: expected TENSOR_FLOAT32 or TENSOR_FLOAT16, got %s", toString(t));
  for (uint32_t i : tensorInputs) NN_RETURN_IF_ERROR(c.checkInputType(i, t));
  NN_RETURN_IF_ERROR(c.checkInputType(actInput, OperandType::INT32));
  for (uint32_t i : flagInputs) NN_RETURN_IF_ERROR(c.checkInputType(i, flagType));
  for (uint32_t i = 0; i < c.numOutputs(); ++i)
    if (c.outputType(i) != t)
      return c.fail("output %u: expected %s, got %s", i, toString(t), toString(c.outputType(i)));
  int32_t act;
  if (c.constantScalar(actInput, &act) && !recurrent::isValidActivation(act))
    return c.fail("input %u: activation must be 0 (none), 1 (relu), 2 (relu1), 3 (relu6), "
                  "4 (tanh) or 6 (sigmoid), got %d",
                  actInput, act);
  return kOk;
}

// Checks weights [units, inputSize], recurrent [units, units], bias [units] and hidden state
// [batch, units] of one cell; returns units through *units.
Status checkCell(OpContext& ctx, uint32_t w, uint32_t r, uint32_t bias, uint32_t state,
                 uint32_t batch, uint32_t inputSize, const char* where, uint32_t* units) {
  const Shape& ws = ctx.inputShape(w);
  if (ws.rank() != 2)
    return ctx.fail("%sinput %u (weights): expected rank 2, got %u", where, w, ws.rank());
  const uint32_t U = ws.dim(0);
  *units = U;
  auto expect = [&](uint32_t i, const Dims& d, const char* what) -> Status {
    if (ctx.inputShape(i).dims != d)
      return ctx.fail("%sinput %u (%s): expected shape %s, got %s", where, i, what,
                      toString(d).c_str(), toString(ctx.inputShape(i).dims).c_str());
    return kOk;
  };
  NN_RETURN_IF_ERROR(expect(w, {U, inputSize}, "weights"));
  NN_RETURN_IF_ERROR(expect(r, {U, U}, "recurrent weights"));
  NN_RETURN_IF_ERROR(expect(bias, {U}, "bias"));
  return expect(state, {batch, U}, "hidden state");
}

// ---- UNIDIRECTIONAL_SEQUENCE_RNN ---------------------------------------------------------

namespace uni {

constexpr uint32_t kInput = 0, kWeights = 1, kRecurrent = 2, kBias = 3, kState = 4,
                   kActivation = 5, kTimeMajor = 6;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(7, 7));
  if (c.numOutputs() != 1 && c.numOutputs() != 2)
    return c.fail("expected 1 output, or 2 with the hidden state output, got %u", c.numOutputs());
  c.requireFeatureLevel(c.numOutputs() == 2 ? kFeatureLevel4 : kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkFloatTypes(c, {kWeights, kRecurrent, kBias, kState}, kActivation,
                                     {kTimeMajor}, OperandType::INT32));
  NN_RETURN_IF_ERROR(c.checkInputRank(kInput, 3));
  int32_t tm;
  if (c.constantScalar(kTimeMajor, &tm) && tm != 0 && tm != 1)
    return c.fail("input 6 (timeMajor) must be 0 or 1, got %d", tm);
  return kOk;
}

Status configure(OpContext& ctx, bool* timeMajor, uint32_t* T, uint32_t* B, uint32_t* U) {
  const Shape& input = ctx.inputShape(kInput);
  if (input.rank() != 3) return ctx.fail("input 0: expected rank 3, got %u", input.rank());
  if (!ctx.hasInputData(kTimeMajor)) return kDeferred;
  const int32_t tm = ctx.scalar<int32_t>(kTimeMajor);
  if (tm != 0 && tm != 1) return ctx.fail("input 6 (timeMajor) must be 0 or 1, got %d", tm);
  *timeMajor = tm == 1;
  *T = input.dim(*timeMajor ? 0 : 1);
  *B = input.dim(*timeMajor ? 1 : 0);
  NN_RETURN_IF_ERROR(
      checkCell(ctx, kWeights, kRecurrent, kBias, kState, *B, input.dim(2), "", U));
  if (ctx.hasInputData(kActivation) &&
      !recurrent::isValidActivation(ctx.scalar<int32_t>(kActivation)))
    return ctx.fail("input 5: invalid activation %d", ctx.scalar<int32_t>(kActivation));
  return kOk;
}

Status prepare(OpContext& ctx) {
  bool timeMajor;
  uint32_t T, B, U;
  const Status s = configure(ctx, &timeMajor, &T, &B, &U);
  if (s != kOk) return s;
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, timeMajor ? Dims{T, B, U} : Dims{B, T, U}));
  if (ctx.numOutputs() == 2) NN_RETURN_IF_ERROR(ctx.setOutputDims(1, {B, U}));
  return kOk;
}

Status execute(OpContext& ctx) {
  bool timeMajor;
  uint32_t T, B, U;
  NN_RETURN_IF_ERROR(configure(ctx, &timeMajor, &T, &B, &U));
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
  runSequence(cell, ctx.scalar<int32_t>(kActivation), input.get(), nullptr, timeMajor, T, B,
              /*forward=*/true, out.get(), U, 0, hOut ? hOut->get() : nullptr);
  out.commit();
  if (hOut) hOut->commit();
  return kOk;
}

}  // namespace uni

// ---- BIDIRECTIONAL_SEQUENCE_RNN ----------------------------------------------------------

namespace bi {

constexpr uint32_t kInput = 0, kFwWeights = 1, kFwRecurrent = 2, kFwBias = 3, kFwState = 4,
                   kBwWeights = 5, kBwRecurrent = 6, kBwBias = 7, kBwState = 8, kAuxInput = 9,
                   kFwAuxWeights = 10, kBwAuxWeights = 11, kActivation = 12, kTimeMajor = 13,
                   kMergeOutputs = 14;

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(15, 15));
  const uint32_t nOut = c.numOutputs();
  if (nOut < 1 || nOut > 4)
    return c.fail("expected 1 or 2 outputs (merged or separate), or 3 or 4 with the hidden "
                  "state outputs, got %u",
                  nOut);
  c.requireFeatureLevel(nOut >= 3 ? kFeatureLevel4 : kFeatureLevel3);
  for (uint32_t i = 0; i <= kBwState; ++i)
    if (c.isOmitted(i)) return c.fail("input %u is required but has no value", i);
  NN_RETURN_IF_ERROR(checkFloatTypes(
      c,
      {kFwWeights, kFwRecurrent, kFwBias, kFwState, kBwWeights, kBwRecurrent, kBwBias, kBwState,
       kAuxInput, kFwAuxWeights, kBwAuxWeights},
      kActivation, {kTimeMajor, kMergeOutputs}, OperandType::BOOL));
  NN_RETURN_IF_ERROR(c.checkInputRank(kInput, 3));
  uint8_t merge;
  if (c.constantScalar(kMergeOutputs, &merge)) {
    const bool ok = merge ? (nOut == 1 || nOut == 3) : (nOut == 2 || nOut == 4);
    if (!ok)
      return c.fail("input 14 (mergeOutputs) is %s: expected %s outputs, got %u",
                    merge ? "true" : "false", merge ? "1 or 3" : "2 or 4", nOut);
  }
  const bool aux = !c.isOmitted(kAuxInput), fwAux = !c.isOmitted(kFwAuxWeights),
             bwAux = !c.isOmitted(kBwAuxWeights);
  if (fwAux != bwAux)
    return c.fail("the forward (10) and backward (11) auxiliary weights must both have values "
                  "or both be omitted; got %d/%d present",
                  fwAux, bwAux);
  if (fwAux && !aux)
    return c.fail("auxiliary weights (10, 11) are given but the auxiliary input (9) is omitted");
  if (aux && !fwAux) c.requireFeatureLevel(kFeatureLevel4);  // parallel linking
  return kOk;
}

struct Geometry {
  bool timeMajor = true, merge = false, hasAux = false, parallel = false;
  uint32_t T = 0, B = 0, fwU = 0, bwU = 0, auxSize = 0;
};

Status configure(OpContext& ctx, Geometry* g) {
  for (uint32_t i : {kAuxInput, kFwAuxWeights, kBwAuxWeights})
    if (!ctx.isOmitted(i) && !ctx.hasInputData(i)) return kDeferred;
  if (!ctx.hasInputData(kTimeMajor) || !ctx.hasInputData(kMergeOutputs)) return kDeferred;
  g->timeMajor = ctx.scalar<uint8_t>(kTimeMajor) != 0;
  g->merge = ctx.scalar<uint8_t>(kMergeOutputs) != 0;
  const uint32_t nOut = ctx.numOutputs();
  if (g->merge ? (nOut != 1 && nOut != 3) : (nOut != 2 && nOut != 4))
    return ctx.fail("input 14 (mergeOutputs) is %s: expected %s outputs, got %u",
                    g->merge ? "true" : "false", g->merge ? "1 or 3" : "2 or 4", nOut);
  const Shape& input = ctx.inputShape(kInput);
  if (input.rank() != 3) return ctx.fail("input 0: expected rank 3, got %u", input.rank());
  g->T = input.dim(g->timeMajor ? 0 : 1);
  g->B = input.dim(g->timeMajor ? 1 : 0);
  g->hasAux = !ctx.isOmitted(kAuxInput);
  const bool auxWeights = !ctx.isOmitted(kFwAuxWeights);
  if (auxWeights != !ctx.isOmitted(kBwAuxWeights))
    return ctx.fail("the forward (10) and backward (11) auxiliary weights must both have "
                    "values or both be omitted");
  if (auxWeights && !g->hasAux)
    return ctx.fail("auxiliary weights (10, 11) are given but the auxiliary input (9) is omitted");
  g->parallel = g->hasAux && !auxWeights;
  if (g->hasAux) {
    const Shape& aux = ctx.inputShape(kAuxInput);
    if (aux.rank() != 3 || aux.dim(0) != input.dim(0) || aux.dim(1) != input.dim(1))
      return ctx.fail("input 9 (auxiliary input): expected rank 3 with the first two "
                      "dimensions of input 0 (%s), got %s",
                      toString(input.dims).c_str(), toString(aux.dims).c_str());
    g->auxSize = aux.dim(2);
  }
  NN_RETURN_IF_ERROR(checkCell(ctx, kFwWeights, kFwRecurrent, kFwBias, kFwState, g->B,
                               input.dim(2), "forward cell: ", &g->fwU));
  NN_RETURN_IF_ERROR(checkCell(ctx, kBwWeights, kBwRecurrent, kBwBias, kBwState, g->B,
                               g->parallel ? g->auxSize : input.dim(2), "backward cell: ",
                               &g->bwU));
  if (auxWeights) {
    const Dims fw{g->fwU, g->auxSize}, bw{g->bwU, g->auxSize};
    if (ctx.inputShape(kFwAuxWeights).dims != fw)
      return ctx.fail("input 10 (forward auxiliary weights): expected shape %s, got %s",
                      toString(fw).c_str(), toString(ctx.inputShape(kFwAuxWeights).dims).c_str());
    if (ctx.inputShape(kBwAuxWeights).dims != bw)
      return ctx.fail("input 11 (backward auxiliary weights): expected shape %s, got %s",
                      toString(bw).c_str(), toString(ctx.inputShape(kBwAuxWeights).dims).c_str());
  }
  if (ctx.hasInputData(kActivation) &&
      !recurrent::isValidActivation(ctx.scalar<int32_t>(kActivation)))
    return ctx.fail("input 12: invalid activation %d", ctx.scalar<int32_t>(kActivation));
  return kOk;
}

Status prepare(OpContext& ctx) {
  Geometry g;
  const Status s = configure(ctx, &g);
  if (s != kOk) return s;
  auto seqDims = [&](uint32_t last) {
    return g.timeMajor ? Dims{g.T, g.B, last} : Dims{g.B, g.T, last};
  };
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, seqDims(g.merge ? g.fwU + g.bwU : g.fwU)));
  uint32_t next = 1;
  if (!g.merge) NN_RETURN_IF_ERROR(ctx.setOutputDims(next++, seqDims(g.bwU)));
  if (ctx.numOutputs() > next) {
    NN_RETURN_IF_ERROR(ctx.setOutputDims(next, {g.B, g.fwU}));
    NN_RETURN_IF_ERROR(ctx.setOutputDims(next + 1, {g.B, g.bwU}));
  }
  return kOk;
}

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

}  // namespace bi

}  // namespace

NN_REGISTER_OPERATION(UNIDIRECTIONAL_SEQUENCE_RNN, uni::validate, uni::prepare, uni::execute);
NN_REGISTER_OPERATION(BIDIRECTIONAL_SEQUENCE_RNN, bi::validate, bi::prepare, bi::execute);

// The auxiliary input and its weights (see the linking modes above).
NN_OPTIONAL_INPUTS(BIDIRECTIONAL_SEQUENCE_RNN, {9, 10, 11});

}  // namespace nn
