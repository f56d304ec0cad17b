// LSTM: one time step of a long short-term memory cell with the optional CIFG (coupled input
// and forget gates), peephole connections, projection layer, cell/projection clipping and
// (feature level 3) layer normalization. Computed in float32 (float16 operands are staged), in
// the NNAPI reference's order of operations. The scratch-buffer output receives the gate values
// in the reference's layout: [input,] cell, forget, output gate, each [batch, num_units].
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "ops/common.h"
#include "ops/operation.h"
#include "ops/recurrent_util.h"

namespace nn {
namespace {

enum : uint32_t {
  kInput = 0,
  kInputToInput = 1,
  kInputToForget = 2,
  kInputToCell = 3,
  kInputToOutput = 4,
  kRecToInput = 5,
  kRecToForget = 6,
  kRecToCell = 7,
  kRecToOutput = 8,
  kCellToInput = 9,
  kCellToForget = 10,
  kCellToOutput = 11,
  kInputGateBias = 12,
  kForgetGateBias = 13,
  kCellBias = 14,
  kOutputGateBias = 15,
  kProjWeights = 16,
  kProjBias = 17,
  kOutputStateIn = 18,
  kCellStateIn = 19,
  kActivation = 20,
  kCellClip = 21,
  kProjClip = 22,
  kInputLayerNorm = 23,
  kForgetLayerNorm = 24,
  kCellLayerNorm = 25,
  kOutputLayerNorm = 26,
};
enum : uint32_t { kScratch = 0, kOutputStateOut = 1, kCellStateOut = 2, kOutput = 3 };

constexpr uint32_t kRequired[] = {kInput,          kInputToForget, kInputToCell,   kInputToOutput,
                                  kRecToForget,    kRecToCell,     kRecToOutput,   kForgetGateBias,
                                  kCellBias,       kOutputGateBias, kOutputStateIn, kCellStateIn,
                                  kActivation,     kCellClip,      kProjClip};

constexpr float kLayerNormEpsilon = 1e-8f;

// Which optional features the present inputs select.
struct Config {
  bool cifg = false, peephole = false, projection = false, projectionBias = false,
       layerNorm = false;
};

// Checks the optional-input rules of the spec; `has(i)` tells whether input i has a value.
// Returns an empty string when the combination is legal, else what is wrong.
template <typename Has>
std::string checkCombination(uint32_t numInputs, Has has, Config* cfg) {
  for (uint32_t i : kRequired)
    if (!has(i)) return formatString("input %u is required but has no value", i);
  cfg->cifg = !has(kInputToInput);
  if (has(kRecToInput) != !cfg->cifg || has(kInputGateBias) != !cfg->cifg)
    return formatString(
        "the input-to-input weights (1), recurrent-to-input weights (5) and input gate bias (12) "
        "must all have values or all be omitted (CIFG); got %d/%d/%d present",
        has(kInputToInput), has(kRecToInput), has(kInputGateBias));
  if (has(kCellToForget) != has(kCellToOutput))
    return formatString(
        "the cell-to-forget (10) and cell-to-output (11) weights must both have values or both "
        "be omitted; got %d/%d present",
        has(kCellToForget), has(kCellToOutput));
  cfg->peephole = has(kCellToOutput);
  if (cfg->cifg && has(kCellToInput))
    return "the cell-to-input weights (9) must be omitted when CIFG is used (inputs 1, 5, 12 "
           "omitted)";
  if (!cfg->cifg && has(kCellToInput) != cfg->peephole)
    return formatString(
        "without CIFG the cell-to-input weights (9) must be present exactly when the other "
        "peephole weights (10, 11) are; got %d, peephole %d",
        has(kCellToInput), cfg->peephole);
  cfg->projection = has(kProjWeights);
  cfg->projectionBias = has(kProjBias);
  if (cfg->projectionBias && !cfg->projection)
    return "the projection bias (17) may only have a value when the projection weights (16) do";
  cfg->layerNorm = false;
  if (numInputs == 27) {
    const bool f = has(kForgetLayerNorm), c = has(kCellLayerNorm), o = has(kOutputLayerNorm);
    if (f != c || f != o)
      return formatString(
          "the forget/cell/output layer normalization weights (24-26) must all have values or "
          "all be omitted; got %d/%d/%d present",
          f, c, o);
    if (cfg->cifg && has(kInputLayerNorm))
      return "the input layer normalization weights (23) must be omitted when CIFG is used";
    if (!cfg->cifg && has(kInputLayerNorm) != f)
      return formatString(
          "without CIFG the four layer normalization weights (23-26) must all have values or "
          "all be omitted; got input %d, others %d",
          has(kInputLayerNorm), f);
    cfg->layerNorm = f;
  }
  return std::string();
}

Status validateLstm(ValidationContext& c) {
  const uint32_t n = c.numInputs();
  if (n != 23 && n != 27) return c.fail("expected 23 or 27 inputs, got %u", n);
  if (n == 27) c.requireFeatureLevel(kFeatureLevel3);
  NN_RETURN_IF_ERROR(c.checkOutputCount(4));
  if (c.isOmitted(kInput)) return c.fail("input 0 is required but has no value");
  const OperandType t = c.inputType(kInput);
  OperandType scalarType = OperandType::FLOAT32;
  if (t == OperandType::TENSOR_FLOAT16) {
    c.requireFeatureLevel(kFeatureLevel3);
    scalarType = OperandType::FLOAT16;
  } else if (t != OperandType::TENSOR_FLOAT32) {
    return c.fail("input 0: expected TENSOR_FLOAT32 or TENSOR_FLOAT16, got %s", toString(t));
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (i == kActivation) {
      NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::INT32));
    } else if (i == kCellClip || i == kProjClip) {
      NN_RETURN_IF_ERROR(c.checkInputType(i, scalarType));
    } else {
      NN_RETURN_IF_ERROR(c.checkInputType(i, t));
    }
  }
  NN_RETURN_IF_ERROR(c.checkOutputTypes({t, t, t, t}));

  Config cfg;
  const std::string err =
      checkCombination(n, [&](uint32_t i) { return !c.isOmitted(i); }, &cfg);
  if (!err.empty()) return c.fail("%s", err.c_str());

  int32_t act;
  if (c.constantScalar(kActivation, &act) && !recurrent::isValidActivation(act))
    return c.fail("input 20: activation must be 0 (none), 1 (relu), 2 (relu1), 3 (relu6), "
                  "4 (tanh) or 6 (sigmoid), got %d",
                  act);
  for (uint32_t i : {kCellClip, kProjClip}) {
    float clip = 0.f;
    bool known = false;
    if (scalarType == OperandType::FLOAT16) {
      Half h;
      if ((known = c.constantScalar(i, &h))) clip = static_cast<float>(h);
    } else {
      known = c.constantScalar(i, &clip);
    }
    if (known && !(clip >= 0.f))
      return c.fail("input %u (%s clip) must be >= 0 (0 disables clipping), got %g", i,
                    i == kCellClip ? "cell" : "projection", clip);
  }
  return kOk;
}

struct LstmDims {
  uint32_t batch, input, cell, output;
};

Status lstmConfig(OpContext& ctx, Config* cfg, LstmDims* d) {
  const uint32_t n = ctx.numInputs();
  // A model input may still be omitted at execution (setInput with no buffer), which changes
  // the configuration and the scratch size: decide only once every input is bound.
  for (uint32_t i : {kInputToInput, kRecToInput, kCellToInput, kCellToForget, kCellToOutput,
                     kInputGateBias, kProjWeights, kProjBias, kInputLayerNorm, kForgetLayerNorm,
                     kCellLayerNorm, kOutputLayerNorm})
    if (i < n && !ctx.isOmitted(i) && !ctx.hasInputData(i)) return kDeferred;
  const std::string err = checkCombination(
      n, [&](uint32_t i) { return !ctx.isOmitted(i); }, cfg);
  if (!err.empty()) return ctx.fail("%s", err.c_str());

  const Shape& input = ctx.inputShape(kInput);
  if (input.rank() != 2) return ctx.fail("input 0: expected rank 2, got %u", input.rank());
  const Shape& i2o = ctx.inputShape(kInputToOutput);
  const Shape& r2o = ctx.inputShape(kRecToOutput);
  if (i2o.rank() != 2) return ctx.fail("input 4: expected rank 2, got %u", i2o.rank());
  if (r2o.rank() != 2) return ctx.fail("input 8: expected rank 2, got %u", r2o.rank());
  d->batch = input.dim(0);
  d->input = input.dim(1);
  d->cell = i2o.dim(0);
  d->output = r2o.dim(1);
  const uint32_t B = d->batch, I = d->input, C = d->cell, O = d->output;

  struct Expect {
    uint32_t index;
    Dims dims;
    const char* what;
  };
  const Expect expects[] = {
      {kInputToInput, {C, I}, "input-to-input weights"},
      {kInputToForget, {C, I}, "input-to-forget weights"},
      {kInputToCell, {C, I}, "input-to-cell weights"},
      {kInputToOutput, {C, I}, "input-to-output weights"},
      {kRecToInput, {C, O}, "recurrent-to-input weights"},
      {kRecToForget, {C, O}, "recurrent-to-forget weights"},
      {kRecToCell, {C, O}, "recurrent-to-cell weights"},
      {kRecToOutput, {C, O}, "recurrent-to-output weights"},
      {kCellToInput, {C}, "cell-to-input weights"},
      {kCellToForget, {C}, "cell-to-forget weights"},
      {kCellToOutput, {C}, "cell-to-output weights"},
      {kInputGateBias, {C}, "input gate bias"},
      {kForgetGateBias, {C}, "forget gate bias"},
      {kCellBias, {C}, "cell bias"},
      {kOutputGateBias, {C}, "output gate bias"},
      {kProjWeights, {O, C}, "projection weights"},
      {kProjBias, {O}, "projection bias"},
      {kOutputStateIn, {B, O}, "output state"},
      {kCellStateIn, {B, C}, "cell state"},
      {kInputLayerNorm, {C}, "input layer normalization weights"},
      {kForgetLayerNorm, {C}, "forget layer normalization weights"},
      {kCellLayerNorm, {C}, "cell layer normalization weights"},
      {kOutputLayerNorm, {C}, "output layer normalization weights"},
  };
  for (const Expect& e : expects) {
    if (e.index >= n || ctx.isOmitted(e.index)) continue;
    const Shape& s = ctx.inputShape(e.index);
    if (s.dims != e.dims)
      return ctx.fail("input %u (%s): expected shape %s, got %s", e.index, e.what,
                      toString(e.dims).c_str(), toString(s.dims).c_str());
  }
  if (!cfg->projection && O != C)
    return ctx.fail("without projection weights the output size (%u, from input 8) must equal "
                    "the number of cells (%u)",
                    O, C);
  for (uint32_t i : {kActivation, kCellClip, kProjClip})
    if (!ctx.hasInputData(i)) return kDeferred;
  const int32_t act = ctx.scalar<int32_t>(kActivation);
  if (!recurrent::isValidActivation(act)) return ctx.fail("input 20: invalid activation %d", act);
  for (uint32_t i : {kCellClip, kProjClip}) {
    const float clip = recurrent::floatScalar(ctx, i);
    if (!(clip >= 0.f)) return ctx.fail("input %u: clip threshold must be >= 0, got %g", i, clip);
  }
  return kOk;
}

Status prepareLstm(OpContext& ctx) {
  Config cfg;
  LstmDims d;
  const Status s = lstmConfig(ctx, &cfg, &d);
  if (s != kOk) return s;
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kScratch, {d.batch, d.cell * (cfg.cifg ? 3u : 4u)}));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kOutputStateOut, {d.batch, d.output}));
  NN_RETURN_IF_ERROR(ctx.setOutputDims(kCellStateOut, {d.batch, d.cell}));
  return ctx.setOutputDims(kOutput, {d.batch, d.output});
}

// Per batch row: v = (v - mean) / sqrt(variance + eps), then v = v * weights + bias.
void layerNormalize(float* v, uint32_t n, uint32_t batch, const float* weights, const float* bias) {
  for (uint32_t b = 0; b < batch; ++b) {
    float* x = v + static_cast<size_t>(b) * n;
    float sum = 0.f;
    for (uint32_t i = 0; i < n; ++i) sum += x[i];
    const float mean = sum / n;
    float sq = 0.f;
    for (uint32_t i = 0; i < n; ++i) sq += (x[i] - mean) * (x[i] - mean);
    const float inv = 1.f / std::sqrt(sq / n + kLayerNormEpsilon);
    for (uint32_t i = 0; i < n; ++i) x[i] = (x[i] - mean) * inv * weights[i] + bias[i];
  }
}

// v[b, i] += w[i] * c[b, i]
void peepholeAccumulate(float* v, const float* w, const float* c, uint32_t n, uint32_t batch) {
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t i = 0; i < n; ++i)
      v[static_cast<size_t>(b) * n + i] += w[i] * c[static_cast<size_t>(b) * n + i];
}

void clip(float* v, size_t n, float limit) {
  for (size_t i = 0; i < n; ++i) v[i] = std::min(limit, std::max(-limit, v[i]));
}

Status executeLstm(OpContext& ctx) {
  Config cfg;
  LstmDims d;
  NN_RETURN_IF_ERROR(lstmConfig(ctx, &cfg, &d));
  const uint32_t B = d.batch, I = d.input, C = d.cell, O = d.output;
  const size_t BC = static_cast<size_t>(B) * C;
  const int32_t act = ctx.scalar<int32_t>(kActivation);
  const float cellClip = recurrent::floatScalar(ctx, kCellClip);
  const float projClip = recurrent::floatScalar(ctx, kProjClip);
  const uint32_t n = ctx.numInputs();

  using recurrent::FloatIn;
  auto in = [&](uint32_t i) { return i < n ? FloatIn(ctx, i) : FloatIn(); };
  const FloatIn x = in(kInput), wxi = in(kInputToInput), wxf = in(kInputToForget),
                wxc = in(kInputToCell), wxo = in(kInputToOutput), whi = in(kRecToInput),
                whf = in(kRecToForget), whc = in(kRecToCell), who = in(kRecToOutput),
                wci = in(kCellToInput), wcf = in(kCellToForget), wco = in(kCellToOutput),
                bi = in(kInputGateBias), bf = in(kForgetGateBias), bc = in(kCellBias),
                bo = in(kOutputGateBias), wproj = in(kProjWeights), bproj = in(kProjBias),
                hPrev = in(kOutputStateIn), cPrev = in(kCellStateIn),
                lni = in(kInputLayerNorm), lnf = in(kForgetLayerNorm), lnc = in(kCellLayerNorm),
                lno = in(kOutputLayerNorm);

  recurrent::FloatOut scratch(ctx, kScratch), hOut(ctx, kOutputStateOut),
      cOut(ctx, kCellStateOut), out(ctx, kOutput);
  float* inputGate = cfg.cifg ? nullptr : scratch.get();
  float* cellGate = scratch.get() + (cfg.cifg ? 0 : BC);
  float* forgetGate = cellGate + BC;
  float* outputGate = cellGate + 2 * BC;
  float* cNew = cOut.get();

  // Gate pre-activations: bias (or zero when layer normalization adds it later) + W x + R h.
  auto initGate = [&](float* g, const FloatIn& bias) {
    if (cfg.layerNorm)
      std::fill(g, g + BC, 0.f);
    else
      recurrent::broadcastRows(bias.get(), C, B, g);
  };
  if (!cfg.cifg) initGate(inputGate, bi);
  initGate(forgetGate, bf);
  initGate(cellGate, bc);
  initGate(outputGate, bo);
  using recurrent::matrixBatchVectorMultiplyAccumulate;
  if (!cfg.cifg) matrixBatchVectorMultiplyAccumulate(wxi.get(), C, I, x.get(), B, inputGate);
  matrixBatchVectorMultiplyAccumulate(wxf.get(), C, I, x.get(), B, forgetGate);
  matrixBatchVectorMultiplyAccumulate(wxc.get(), C, I, x.get(), B, cellGate);
  matrixBatchVectorMultiplyAccumulate(wxo.get(), C, I, x.get(), B, outputGate);
  if (!cfg.cifg) matrixBatchVectorMultiplyAccumulate(whi.get(), C, O, hPrev.get(), B, inputGate);
  matrixBatchVectorMultiplyAccumulate(whf.get(), C, O, hPrev.get(), B, forgetGate);
  matrixBatchVectorMultiplyAccumulate(whc.get(), C, O, hPrev.get(), B, cellGate);
  matrixBatchVectorMultiplyAccumulate(who.get(), C, O, hPrev.get(), B, outputGate);

  auto sigmoidInPlace = [&](float* g) {
    recurrent::applyActivation(recurrent::kActSigmoid, g, BC);
  };
  if (!cfg.cifg) {
    if (cfg.peephole) peepholeAccumulate(inputGate, wci.get(), cPrev.get(), C, B);
    if (cfg.layerNorm) layerNormalize(inputGate, C, B, lni.get(), bi.get());
    sigmoidInPlace(inputGate);
  }
  if (cfg.peephole) peepholeAccumulate(forgetGate, wcf.get(), cPrev.get(), C, B);
  if (cfg.layerNorm) layerNormalize(forgetGate, C, B, lnf.get(), bf.get());
  sigmoidInPlace(forgetGate);

  if (cfg.layerNorm) layerNormalize(cellGate, C, B, lnc.get(), bc.get());
  for (size_t k = 0; k < BC; ++k) cNew[k] = forgetGate[k] * cPrev.get()[k];
  recurrent::applyActivation(act, cellGate, BC);
  if (cfg.cifg) {
    // The coupled input gate is 1 - forget gate; the reference leaves it in the forget slot.
    for (size_t k = 0; k < BC; ++k) {
      forgetGate[k] = 1.f - forgetGate[k];
      cNew[k] += cellGate[k] * forgetGate[k];
    }
  } else {
    for (size_t k = 0; k < BC; ++k) cNew[k] += cellGate[k] * inputGate[k];
  }
  if (cellClip > 0.f) clip(cNew, BC, cellClip);

  if (cfg.peephole) peepholeAccumulate(outputGate, wco.get(), cNew, C, B);
  if (cfg.layerNorm) layerNormalize(outputGate, C, B, lno.get(), bo.get());
  sigmoidInPlace(outputGate);
  std::copy(cNew, cNew + BC, cellGate);
  recurrent::applyActivation(act, cellGate, BC);
  for (size_t k = 0; k < BC; ++k) outputGate[k] *= cellGate[k];

  float* o = out.get();
  const size_t BO = static_cast<size_t>(B) * O;
  if (cfg.projection) {
    if (cfg.projectionBias)
      recurrent::broadcastRows(bproj.get(), O, B, o);
    else
      std::fill(o, o + BO, 0.f);
    matrixBatchVectorMultiplyAccumulate(wproj.get(), O, C, outputGate, B, o);
    if (projClip > 0.f) clip(o, BO, projClip);
  } else {
    std::copy(outputGate, outputGate + BO, o);
  }
  std::copy(o, o + BO, hOut.get());

  scratch.commit();
  hOut.commit();
  cOut.commit();
  out.commit();
  return kOk;
}

}  // namespace

NN_REGISTER_OPERATION(LSTM, validateLstm, prepareLstm, executeLstm);

}  // namespace nn

namespace nn {
// The CIFG, peephole, projection and layer-normalization inputs; checkCombination decides
// which combinations are legal.
NN_OPTIONAL_INPUTS(LSTM, {1, 5, 9, 10, 11, 12, 16, 17, 23, 24, 25, 26});
}  // namespace nn
