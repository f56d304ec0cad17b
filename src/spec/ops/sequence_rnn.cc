// UNIDIRECTIONAL_SEQUENCE_RNN and BIDIRECTIONAL_SEQUENCE_RNN: signatures, geometry and
// output shapes. The cells run in cpu/kernels/sequence_rnn.cc.
#include <initializer_list>

#include "spec/operation.h"
#include "spec/ops/recurrent.h"

namespace nn {
namespace sequence_rnn {
namespace {

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
Status checkCell(const ShapeContext& ctx, uint32_t w, uint32_t r, uint32_t bias, uint32_t state,
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

}  // namespace

// ---- UNIDIRECTIONAL_SEQUENCE_RNN ---------------------------------------------------------

namespace uni {

Status configure(const ShapeContext& ctx, Geometry* g) {
  const Shape& input = ctx.inputShape(kInput);
  if (input.rank() != 3) return ctx.fail("input 0: expected rank 3, got %u", input.rank());
  if (!ctx.hasInputData(kTimeMajor)) return kDeferred;
  const int32_t tm = ctx.scalar<int32_t>(kTimeMajor);
  if (tm != 0 && tm != 1) return ctx.fail("input 6 (timeMajor) must be 0 or 1, got %d", tm);
  g->timeMajor = tm == 1;
  g->T = input.dim(g->timeMajor ? 0 : 1);
  g->B = input.dim(g->timeMajor ? 1 : 0);
  NN_RETURN_IF_ERROR(
      checkCell(ctx, kWeights, kRecurrent, kBias, kState, g->B, input.dim(2), "", &g->U));
  if (ctx.hasInputData(kActivation) &&
      !recurrent::isValidActivation(ctx.scalar<int32_t>(kActivation)))
    return ctx.fail("input 5: invalid activation %d", ctx.scalar<int32_t>(kActivation));
  return kOk;
}

namespace {

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

Status inferShapes(ShapeContext& ctx) {
  Geometry g;
  const Status s = configure(ctx, &g);
  if (s != kOk) return s;
  const uint32_t T = g.T, B = g.B, U = g.U;
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, g.timeMajor ? Dims{T, B, U} : Dims{B, T, U}));
  if (ctx.numOutputs() == 2) NN_RETURN_IF_ERROR(ctx.setOutputDims(1, {B, U}));
  return kOk;
}

}  // namespace
}  // namespace uni

// ---- BIDIRECTIONAL_SEQUENCE_RNN ----------------------------------------------------------

namespace bi {

Status configure(const ShapeContext& ctx, Geometry* g) {
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

namespace {

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

Status inferShapes(ShapeContext& ctx) {
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

}  // namespace
}  // namespace bi
}  // namespace sequence_rnn

NN_DEFINE_OPERATION_SPEC(UNIDIRECTIONAL_SEQUENCE_RNN, sequence_rnn::uni::validate,
                         sequence_rnn::uni::inferShapes);
// The auxiliary input and its weights (see the linking modes in the kernel).
NN_DEFINE_OPERATION_SPEC_OPTIONAL(BIDIRECTIONAL_SEQUENCE_RNN, sequence_rnn::bi::validate,
                                  sequence_rnn::bi::inferShapes, {9, 10, 11});

}  // namespace nn
