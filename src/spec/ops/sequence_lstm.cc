// UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM: signatures, the optional-input
// rules of each cell (spec/ops/lstm.h), the linking modes of the auxiliary input, and output
// shapes. The cells run over the sequence in cpu/kernels/sequence_lstm.cc.
#include <initializer_list>
#include <string>

#include "spec/ops/dim_math.h"
#include "spec/operation.h"
#include "spec/ops/lstm.h"
#include "spec/ops/recurrent.h"

namespace nn {
namespace sequence_lstm {

using namespace lstm;  // NOLINT: slot names

namespace {

// Optional inputs that are model inputs may still be omitted at execution; the configuration
// depends on which are present, so shape inference waits until all are bound.
bool anyUnbound(const ShapeContext& ctx, const uint32_t* map) {
  for (uint32_t slot : {kInputToInput, kRecToInput, kCellToInput, kCellToForget, kCellToOutput,
                        kInputGateBias, kProjWeights, kProjBias, kInputLayerNorm,
                        kForgetLayerNorm, kCellLayerNorm, kOutputLayerNorm, kAuxInputToInput,
                        kAuxInputToForget, kAuxInputToCell, kAuxInputToOutput}) {
    const uint32_t i = map[slot];
    if (i == kNone) continue;
    if (!ctx.isOmitted(i) && !ctx.hasInputData(i)) return true;
  }
  return false;
}

// Checks one cell's optional-input combination and shapes against the sequence geometry.
Status configureCell(const ShapeContext& ctx, const uint32_t* map, bool auxSlots, uint32_t batch,
                     uint32_t inputSize, uint32_t auxSize, const char* where, Config* cfg,
                     Sizes* s) {
  auto has = [&](uint32_t slot) { return bound(ctx, map[slot]); };
  std::string err = checkCombination(/*layerNormSlots=*/true, auxSlots, has, cfg, where);
  if (!err.empty()) return ctx.fail("%s", err.c_str());
  const Shape& i2o = ctx.inputShape(map[kInputToOutput]);
  const Shape& r2o = ctx.inputShape(map[kRecToOutput]);
  if (i2o.rank() != 2)
    return ctx.fail("%sinput %u (input-to-output weights): expected rank 2, got %u", where,
                    map[kInputToOutput], i2o.rank());
  if (r2o.rank() != 2)
    return ctx.fail("%sinput %u (recurrent-to-output weights): expected rank 2, got %u", where,
                    map[kRecToOutput], r2o.rank());
  s->batch = batch;
  s->input = inputSize;
  s->cell = i2o.dim(0);
  s->output = r2o.dim(1);
  s->auxInput = auxSize;
  err = checkWeightShapes(
      [&](uint32_t slot) -> const Shape* {
        return has(slot) ? &ctx.inputShape(map[slot]) : nullptr;
      },
      *s, *cfg, where);
  if (!err.empty()) return ctx.fail("%s", err.c_str());
  const Dims hDims{batch, s->output}, cDims{batch, s->cell};
  const Shape& h = ctx.inputShape(map[kOutputStateIn]);
  const Shape& c = ctx.inputShape(map[kCellStateIn]);
  if (h.dims != hDims)
    return ctx.fail("%sinput %u (output state): expected shape %s, got %s", where,
                    map[kOutputStateIn], toString(hDims).c_str(), toString(h.dims).c_str());
  if (c.dims != cDims)
    return ctx.fail("%sinput %u (cell state): expected shape %s, got %s", where,
                    map[kCellStateIn], toString(cDims).c_str(), toString(c.dims).c_str());
  return kOk;
}

Status checkParams(const ShapeContext& ctx, uint32_t act, uint32_t cellClip, uint32_t projClip) {
  if (ctx.hasInputData(act) && !recurrent::isValidActivation(ctx.scalar<int32_t>(act)))
    return ctx.fail("input %u: activation must be 0, 1, 2, 3, 4 or 6, got %d", act,
                    ctx.scalar<int32_t>(act));
  for (uint32_t i : {cellClip, projClip}) {
    if (!ctx.hasInputData(i)) continue;
    const float v = recurrent::floatScalar(ctx, i);
    if (!(v >= 0.f)) return ctx.fail("input %u: clip threshold must be >= 0, got %g", i, v);
  }
  return kOk;
}

// Input types of a float LSTM-style signature: tensors of the input's type, except the given
// INT32 activation, clip scalars of the matching float scalar type and BOOL flags.
Status checkFloatSignature(ValidationContext& c, OperandType t, uint32_t act, uint32_t cellClip,
                           uint32_t projClip, std::initializer_list<uint32_t> bools) {
  const OperandType scalarType =
      t == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
  for (uint32_t i = 0; i < c.numInputs(); ++i) {
    OperandType expected = t;
    if (i == act) expected = OperandType::INT32;
    if (i == cellClip || i == projClip) expected = scalarType;
    for (uint32_t b : bools)
      if (i == b) expected = OperandType::BOOL;
    NN_RETURN_IF_ERROR(c.checkInputType(i, expected));
  }
  for (uint32_t i = 0; i < c.numOutputs(); ++i)
    if (c.outputType(i) != t)
      return c.fail("output %u: expected %s, got %s", i, toString(t), toString(c.outputType(i)));
  int32_t a;
  if (c.constantScalar(act, &a) && !recurrent::isValidActivation(a))
    return c.fail("input %u: activation must be 0 (none), 1 (relu), 2 (relu1), 3 (relu6), "
                  "4 (tanh) or 6 (sigmoid), got %d",
                  act, a);
  for (uint32_t i : {cellClip, projClip}) {
    float v = 0.f;
    bool known;
    if (scalarType == OperandType::FLOAT16) {
      Half h;
      if ((known = c.constantScalar(i, &h))) v = static_cast<float>(h);
    } else {
      known = c.constantScalar(i, &v);
    }
    if (known && !(v >= 0.f))
      return c.fail("input %u: clip threshold must be >= 0 (0 disables clipping), got %g", i, v);
  }
  return kOk;
}

Status checkFloatInput(ValidationContext& c) {
  if (c.isOmitted(0)) return c.fail("input 0 is required but has no value");
  const OperandType t = c.inputType(0);
  if (t != OperandType::TENSOR_FLOAT32 && t != OperandType::TENSOR_FLOAT16)
    return c.fail("input 0: expected TENSOR_FLOAT32 or TENSOR_FLOAT16, got %s", toString(t));
  return kOk;
}

}  // namespace

// ---- UNIDIRECTIONAL_SEQUENCE_LSTM --------------------------------------------------------

namespace uni {

Status configure(const ShapeContext& ctx, Geometry* g) {
  if (anyUnbound(ctx, kMap)) return kDeferred;
  const Shape& input = ctx.inputShape(0);
  if (input.rank() != 3) return ctx.fail("input 0: expected rank 3, got %u", input.rank());
  if (!ctx.hasInputData(kTimeMajor)) return kDeferred;
  g->timeMajor = ctx.scalar<uint8_t>(kTimeMajor) != 0;
  g->maxTime = input.dim(g->timeMajor ? 0 : 1);
  const uint32_t batch = input.dim(g->timeMajor ? 1 : 0);
  NN_RETURN_IF_ERROR(configureCell(ctx, kMap, false, batch, input.dim(2), 0, "", &g->cfg,
                                   &g->sizes));
  return checkParams(ctx, kActivation, kCellClip, kProjClip);
}

namespace {

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(kNumInputs, kNumInputs));
  if (c.numOutputs() != 1 && c.numOutputs() != 3)
    return c.fail("expected 1 output, or 3 with the state outputs, got %u", c.numOutputs());
  c.requireFeatureLevel(c.numOutputs() == 3 ? kFeatureLevel4 : kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkFloatInput(c));
  for (uint32_t i : {18u, 19u, 20u, 21u, 22u, kTimeMajor})
    if (c.isOmitted(i)) return c.fail("input %u is required but has no value", i);
  NN_RETURN_IF_ERROR(checkFloatSignature(c, c.inputType(0), kActivation, kCellClip, kProjClip,
                                         {kTimeMajor}));
  Config cfg;
  const std::string err = checkCombination(
      true, false, [&](uint32_t slot) { return kMap[slot] != kNone && !c.isOmitted(kMap[slot]); },
      &cfg);
  if (!err.empty()) return c.fail("%s", err.c_str());
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  Geometry g;
  const Status s = configure(ctx, &g);
  if (s != kOk) return s;
  const uint32_t B = g.sizes.batch, T = g.maxTime;
  NN_RETURN_IF_ERROR(ctx.setOutputDims(
      kOutput, g.timeMajor ? Dims{T, B, g.sizes.output} : Dims{B, T, g.sizes.output}));
  if (ctx.numOutputs() == 3) {
    NN_RETURN_IF_ERROR(ctx.setOutputDims(kOutputStateOut, {B, g.sizes.output}));
    NN_RETURN_IF_ERROR(ctx.setOutputDims(kCellStateOut, {B, g.sizes.cell}));
  }
  return kOk;
}

}  // namespace
}  // namespace uni

// ---- BIDIRECTIONAL_SEQUENCE_LSTM ---------------------------------------------------------

namespace bi {

Status configure(const ShapeContext& ctx, Geometry* g) {
  if (anyUnbound(ctx, kFwMap) || anyUnbound(ctx, kBwMap)) return kDeferred;
  if (!ctx.isOmitted(kAuxInput) && !ctx.hasInputData(kAuxInput)) return kDeferred;
  if (!ctx.hasInputData(kTimeMajor) || !ctx.hasInputData(kMergeOutputs)) return kDeferred;
  g->timeMajor = ctx.scalar<uint8_t>(kTimeMajor) != 0;
  g->merge = ctx.scalar<uint8_t>(kMergeOutputs) != 0;
  const uint32_t nOut = ctx.numOutputs();
  if (g->merge ? (nOut != 1 && nOut != 5) : (nOut != 2 && nOut != 6))
    return ctx.fail("input 51 (merge_outputs) is %s: expected %s outputs, got %u",
                    g->merge ? "true" : "false", g->merge ? "1 or 5" : "2 or 6", nOut);
  const Shape& input = ctx.inputShape(0);
  if (input.rank() != 3) return ctx.fail("input 0: expected rank 3, got %u", input.rank());
  g->maxTime = input.dim(g->timeMajor ? 0 : 1);
  const uint32_t batch = input.dim(g->timeMajor ? 1 : 0);
  g->hasAux = !ctx.isOmitted(kAuxInput);
  uint32_t auxSize = 0;
  if (g->hasAux) {
    const Shape& aux = ctx.inputShape(kAuxInput);
    if (aux.rank() != 3 || aux.dim(0) != input.dim(0) || aux.dim(1) != input.dim(1))
      return ctx.fail("input 39 (auxiliary input): expected rank 3 with the first two "
                      "dimensions of input 0 (%s), got %s",
                      toString(input.dims).c_str(), toString(aux.dims).c_str());
    auxSize = aux.dim(2);
  }
  const bool auxWeights = bound(ctx, kFwMap[kAuxInputToForget]);
  if (auxWeights && !g->hasAux)
    return ctx.fail("auxiliary weights (40-47) are given but the auxiliary input (39) is omitted");
  g->parallel = g->hasAux && !auxWeights;
  NN_RETURN_IF_ERROR(configureCell(ctx, kFwMap, true, batch, input.dim(2),
                                   auxWeights ? auxSize : 0, "forward cell: ", &g->fw,
                                   &g->fwSizes));
  NN_RETURN_IF_ERROR(configureCell(ctx, kBwMap, true, batch,
                                   g->parallel ? auxSize : input.dim(2),
                                   auxWeights ? auxSize : 0, "backward cell: ", &g->bw,
                                   &g->bwSizes));
  if (g->fw.aux != g->bw.aux)
    return ctx.fail("the forward (40-43) and backward (44-47) auxiliary weights must both have "
                    "values or both be omitted");
  return checkParams(ctx, kActivation, kCellClip, kProjClip);
}

namespace {

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(kNumInputs, kNumInputs));
  const uint32_t nOut = c.numOutputs();
  if (nOut != 1 && nOut != 2 && nOut != 5 && nOut != 6)
    return c.fail("expected 1 or 2 outputs (merged or separate), or 5 or 6 with the state "
                  "outputs, got %u",
                  nOut);
  c.requireFeatureLevel(nOut >= 5 ? kFeatureLevel4 : kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkFloatInput(c));
  for (uint32_t i : {35u, 36u, 37u, 38u, kActivation, kCellClip, kProjClip, kMergeOutputs,
                     kTimeMajor})
    if (c.isOmitted(i)) return c.fail("input %u is required but has no value", i);
  NN_RETURN_IF_ERROR(checkFloatSignature(c, c.inputType(0), kActivation, kCellClip, kProjClip,
                                         {kMergeOutputs, kTimeMajor}));
  uint8_t merge;
  if (c.constantScalar(kMergeOutputs, &merge)) {
    const bool ok = merge ? (nOut == 1 || nOut == 5) : (nOut == 2 || nOut == 6);
    if (!ok)
      return c.fail("input 51 (merge_outputs) is %s: expected %s outputs, got %u",
                    merge ? "true" : "false", merge ? "1 or 5" : "2 or 6", nOut);
  }
  Config fw, bw;
  std::string err = checkCombination(
      true, true, [&](uint32_t slot) { return !c.isOmitted(kFwMap[slot]); }, &fw,
      "forward cell: ");
  if (err.empty())
    err = checkCombination(
        true, true, [&](uint32_t slot) { return !c.isOmitted(kBwMap[slot]); }, &bw,
        "backward cell: ");
  if (!err.empty()) return c.fail("%s", err.c_str());
  if (fw.aux != bw.aux)
    return c.fail("the forward (40-43) and backward (44-47) auxiliary weights must both have "
                  "values or both be omitted; got %d/%d present",
                  fw.aux, bw.aux);
  const bool hasAux = !c.isOmitted(kAuxInput);
  if (fw.aux && !hasAux)
    return c.fail("auxiliary weights (40-47) are given but the auxiliary input (39) is omitted");
  if (hasAux && !fw.aux) c.requireFeatureLevel(kFeatureLevel4);  // parallel linking
  return kOk;
}

Status inferShapes(ShapeContext& ctx) {
  Geometry g;
  const Status s = configure(ctx, &g);
  if (s != kOk) return s;
  const uint32_t B = g.fwSizes.batch, T = g.maxTime;
  const uint32_t fwO = g.fwSizes.output, bwO = g.bwSizes.output;
  auto seqDims = [&](uint32_t last) { return g.timeMajor ? Dims{T, B, last} : Dims{B, T, last}; };
  uint32_t merged = fwO;
  if (g.merge && !dim_math::sumDim({fwO, bwO}, &merged))
    return ctx.fail("output 0: merged outputs %u + %u do not fit a 32-bit dimension", fwO, bwO);
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, seqDims(merged)));
  uint32_t next = 1;
  if (!g.merge) NN_RETURN_IF_ERROR(ctx.setOutputDims(next++, seqDims(bwO)));
  if (ctx.numOutputs() > next) {
    NN_RETURN_IF_ERROR(ctx.setOutputDims(next, {B, fwO}));
    NN_RETURN_IF_ERROR(ctx.setOutputDims(next + 1, {B, g.fwSizes.cell}));
    NN_RETURN_IF_ERROR(ctx.setOutputDims(next + 2, {B, bwO}));
    NN_RETURN_IF_ERROR(ctx.setOutputDims(next + 3, {B, g.bwSizes.cell}));
  }
  return kOk;
}

}  // namespace
}  // namespace bi
}  // namespace sequence_lstm

// CIFG, peephole, projection and layer-normalization inputs of each cell, and the auxiliary
// input with its weights; the combination rules live in spec/ops/lstm.h.
NN_DEFINE_OPERATION_SPEC_OPTIONAL(UNIDIRECTIONAL_SEQUENCE_LSTM, sequence_lstm::uni::validate,
                                  sequence_lstm::uni::inferShapes,
                                  {1, 5, 9, 10, 11, 12, 16, 17, 24, 25, 26, 27});
NN_DEFINE_OPERATION_SPEC_OPTIONAL(BIDIRECTIONAL_SEQUENCE_LSTM, sequence_lstm::bi::validate,
                                  sequence_lstm::bi::inferShapes,
                                  {1,  5,  9,  10, 11, 12, 16, 17, 18, 22, 26, 27, 28, 29, 33, 34,
                                   39, 40, 41, 42, 43, 44, 45, 46, 47, 53, 54, 55, 56, 57, 58, 59,
                                   60});

}  // namespace nn
