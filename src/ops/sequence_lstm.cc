// UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM: the LSTM cell of lstm_cell.h
// unrolled over the time dimension of a 3-D input (time-major [T, B, I] or batch-major
// [B, T, I]). The bidirectional op runs a second cell from the last time step to the first,
// optionally fed by an auxiliary input (cross linking: both cells see input and aux input
// through separate weights; parallel linking, feature level 4: the backward cell reads the
// aux input instead of the input) and optionally merges both outputs along the last axis.
// Float16 operands are computed in float32 throughout, as the NNAPI reference does; the state
// carried between steps stays float32.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "spec/ops/common.h"
#include "ops/lstm_cell.h"
#include "ops/operation.h"
#include "ops/recurrent_util.h"

namespace nn {
namespace {

using namespace lstm;  // NOLINT: slot names

constexpr uint32_t kNone = UINT32_MAX;

// ---- shared helpers ---------------------------------------------------------------------

bool bound(const OpContext& ctx, uint32_t index) {
  return index != kNone && index < ctx.numInputs() && !ctx.isOmitted(index);
}

// Optional inputs that are model inputs may still be omitted at execution; the configuration
// depends on which are present, so shape inference waits until all are bound.
bool anyUnbound(const OpContext& ctx, const uint32_t* map) {
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
Status configureCell(OpContext& ctx, const uint32_t* map, bool auxSlots, uint32_t batch,
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

Status checkParams(OpContext& ctx, uint32_t act, uint32_t cellClip, uint32_t projClip) {
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

Params readParams(const OpContext& ctx, uint32_t act, uint32_t cellClip, uint32_t projClip) {
  Params p;
  p.activation = ctx.scalar<int32_t>(act);
  p.cellClip = recurrent::floatScalar(ctx, cellClip);
  p.projClip = recurrent::floatScalar(ctx, projClip);
  return p;
}

// Stages a cell's weight tensors as float32.
void stageCell(const OpContext& ctx, const uint32_t* map, recurrent::FloatIn* staged,
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

// ---- UNIDIRECTIONAL_SEQUENCE_LSTM --------------------------------------------------------

namespace uni {

constexpr uint32_t kNumInputs = 28, kTimeMajor = 23;
constexpr uint32_t kOutput = 0, kOutputStateOut = 1, kCellStateOut = 2;

// Logical slot -> op input: 0..22 are the LSTM numbering, the layer norm weights follow the
// time-major flag.
constexpr uint32_t kMap[kNumSlots] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                      11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                      22, 24, 25, 26, 27, kNone, kNone, kNone, kNone};

Status validate(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(kNumInputs, kNumInputs));
  if (c.numOutputs() != 1 && c.numOutputs() != 3)
    return c.fail("expected 1 output, or 3 with the state outputs, got %u", c.numOutputs());
  c.requireFeatureLevel(c.numOutputs() == 3 ? kFeatureLevel4 : kFeatureLevel3);
  NN_RETURN_IF_ERROR(checkFloatInput(c));
  for (uint32_t i : {18u, 19u, 20u, 21u, 22u, kTimeMajor})
    if (c.isOmitted(i)) return c.fail("input %u is required but has no value", i);
  NN_RETURN_IF_ERROR(checkFloatSignature(c, c.inputType(0), 20, 21, 22, {kTimeMajor}));
  Config cfg;
  const std::string err = checkCombination(
      true, false, [&](uint32_t slot) { return kMap[slot] != kNone && !c.isOmitted(kMap[slot]); },
      &cfg);
  if (!err.empty()) return c.fail("%s", err.c_str());
  return kOk;
}

struct Geometry {
  Config cfg;
  Sizes sizes;
  bool timeMajor = true;
  uint32_t maxTime = 0;
};

Status configure(OpContext& ctx, Geometry* g) {
  if (anyUnbound(ctx, kMap)) return kDeferred;
  const Shape& input = ctx.inputShape(0);
  if (input.rank() != 3) return ctx.fail("input 0: expected rank 3, got %u", input.rank());
  if (!ctx.hasInputData(kTimeMajor)) return kDeferred;
  g->timeMajor = ctx.scalar<uint8_t>(kTimeMajor) != 0;
  g->maxTime = input.dim(g->timeMajor ? 0 : 1);
  const uint32_t batch = input.dim(g->timeMajor ? 1 : 0);
  NN_RETURN_IF_ERROR(configureCell(ctx, kMap, false, batch, input.dim(2), 0, "", &g->cfg,
                                   &g->sizes));
  return checkParams(ctx, 20, 21, 22);
}

Status prepare(OpContext& ctx) {
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

Status execute(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(configure(ctx, &g));
  const Params p = readParams(ctx, 20, 21, 22);
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

}  // namespace uni

// ---- BIDIRECTIONAL_SEQUENCE_LSTM ---------------------------------------------------------

namespace bi {

constexpr uint32_t kNumInputs = 61;
constexpr uint32_t kAuxInput = 39, kActivation = 48, kCellClip = 49, kProjClip = 50,
                   kMergeOutputs = 51, kTimeMajor = 52;

constexpr uint32_t kFwMap[kNumSlots] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                        11, 12, 13, 14, 15, 16, 17, 35, 36, 48, 49,
                                        50, 53, 54, 55, 56, 40, 41, 42, 43};
constexpr uint32_t kBwMap[kNumSlots] = {0,  18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                                        28, 29, 30, 31, 32, 33, 34, 37, 38, 48, 49,
                                        50, 57, 58, 59, 60, 44, 45, 46, 47};

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

struct Geometry {
  Config fw, bw;
  Sizes fwSizes, bwSizes;
  bool timeMajor = true, merge = false, hasAux = false, parallel = false;
  uint32_t maxTime = 0;
};

Status configure(OpContext& ctx, Geometry* g) {
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

Status prepare(OpContext& ctx) {
  Geometry g;
  const Status s = configure(ctx, &g);
  if (s != kOk) return s;
  const uint32_t B = g.fwSizes.batch, T = g.maxTime;
  const uint32_t fwO = g.fwSizes.output, bwO = g.bwSizes.output;
  auto seqDims = [&](uint32_t last) { return g.timeMajor ? Dims{T, B, last} : Dims{B, T, last}; };
  NN_RETURN_IF_ERROR(ctx.setOutputDims(0, seqDims(g.merge ? fwO + bwO : fwO)));
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

}  // namespace bi

}  // namespace

NN_REGISTER_OPERATION(UNIDIRECTIONAL_SEQUENCE_LSTM, uni::validate, uni::prepare, uni::execute);
NN_REGISTER_OPERATION(BIDIRECTIONAL_SEQUENCE_LSTM, bi::validate, bi::prepare, bi::execute);

// CIFG, peephole, projection and layer-normalization inputs of each cell, and the auxiliary
// input with its weights; the combination rules live in lstm_cell.h.
NN_OPTIONAL_INPUTS(UNIDIRECTIONAL_SEQUENCE_LSTM, {1, 5, 9, 10, 11, 12, 16, 17, 24, 25, 26, 27});
NN_OPTIONAL_INPUTS(BIDIRECTIONAL_SEQUENCE_LSTM,
                   {1,  5,  9,  10, 11, 12, 16, 17, 18, 22, 26, 27, 28, 29, 33, 34, 39,
                    40, 41, 42, 43, 44, 45, 46, 47, 53, 54, 55, 56, 57, 58, 59, 60});

}  // namespace nn
