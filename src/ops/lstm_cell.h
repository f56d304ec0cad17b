// The float LSTM cell shared by LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and
// BIDIRECTIONAL_SEQUENCE_LSTM: the optional-input rules, the per-cell shape checks and one
// time step, computed in float32 in the NNAPI reference's order of operations.
//
// The ops number their inputs differently; they all address a cell's tensors through the
// logical slots below (the LSTM operation's own input numbering, extended by the auxiliary
// input weights of the bidirectional op).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "spec/ops/common.h"
#include "ops/operation.h"
#include "ops/recurrent_util.h"

namespace nn {
namespace lstm {

enum Slot : uint32_t {
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
  kAuxInputToInput = 27,
  kAuxInputToForget = 28,
  kAuxInputToCell = 29,
  kAuxInputToOutput = 30,
  kNumSlots = 31,
};

// Slots every cell needs (the op's own required scalars are checked by the op).
constexpr uint32_t kRequiredTensorSlots[] = {
    kInputToForget, kInputToCell, kInputToOutput,  kRecToForget,   kRecToCell,
    kRecToOutput,   kForgetGateBias, kCellBias,    kOutputGateBias};

constexpr float kLayerNormEpsilon = 1e-8f;

// Which optional features the present inputs select.
struct Config {
  bool cifg = false, peephole = false, projection = false, projectionBias = false,
       layerNorm = false, aux = false;
};

// Checks the optional-input rules of the spec; `has(slot)` tells whether a slot has a value.
// `layerNormSlots`: the op's signature has the layer normalization inputs; `auxSlots`: it has
// auxiliary input weights. Returns an empty string when legal, else what is wrong. Messages
// name logical LSTM slots; `where` prefixes them (e.g. "forward cell: ").
template <typename Has>
std::string checkCombination(bool layerNormSlots, bool auxSlots, Has has, Config* cfg,
                             const char* where = "") {
  for (uint32_t i : kRequiredTensorSlots)
    if (!has(i)) return formatString("%sLSTM input %u is required but has no value", where, i);
  cfg->cifg = !has(kInputToInput);
  if (has(kRecToInput) != !cfg->cifg || has(kInputGateBias) != !cfg->cifg)
    return formatString(
        "%sthe input-to-input weights (1), recurrent-to-input weights (5) and input gate bias "
        "(12) must all have values or all be omitted (CIFG); got %d/%d/%d present",
        where, has(kInputToInput), has(kRecToInput), has(kInputGateBias));
  if (has(kCellToForget) != has(kCellToOutput))
    return formatString(
        "%sthe cell-to-forget (10) and cell-to-output (11) weights must both have values or "
        "both be omitted; got %d/%d present",
        where, has(kCellToForget), has(kCellToOutput));
  cfg->peephole = has(kCellToOutput);
  if (cfg->cifg && has(kCellToInput))
    return formatString(
        "%sthe cell-to-input weights (9) must be omitted when CIFG is used (inputs 1, 5, 12 "
        "omitted)",
        where);
  if (!cfg->cifg && has(kCellToInput) != cfg->peephole)
    return formatString(
        "%swithout CIFG the cell-to-input weights (9) must be present exactly when the other "
        "peephole weights (10, 11) are; got %d, peephole %d",
        where, has(kCellToInput), cfg->peephole);
  cfg->projection = has(kProjWeights);
  cfg->projectionBias = has(kProjBias);
  if (cfg->projectionBias && !cfg->projection)
    return formatString(
        "%sthe projection bias (17) may only have a value when the projection weights (16) do",
        where);
  cfg->layerNorm = false;
  if (layerNormSlots) {
    const bool f = has(kForgetLayerNorm), c = has(kCellLayerNorm), o = has(kOutputLayerNorm);
    if (f != c || f != o)
      return formatString(
          "%sthe forget/cell/output layer normalization weights must all have values or all "
          "be omitted; got %d/%d/%d present",
          where, f, c, o);
    if (cfg->cifg && has(kInputLayerNorm))
      return formatString(
          "%sthe input layer normalization weights must be omitted when CIFG is used", where);
    if (!cfg->cifg && has(kInputLayerNorm) != f)
      return formatString(
          "%swithout CIFG the four layer normalization weights must all have values or all be "
          "omitted; got input %d, others %d",
          where, has(kInputLayerNorm), f);
    cfg->layerNorm = f;
  }
  cfg->aux = false;
  if (auxSlots) {
    const bool f = has(kAuxInputToForget), c = has(kAuxInputToCell),
               o = has(kAuxInputToOutput);
    if (f != c || f != o)
      return formatString(
          "%sthe auxiliary input-to-forget/cell/output weights must all have values or all be "
          "omitted; got %d/%d/%d present",
          where, f, c, o);
    if (cfg->cifg && has(kAuxInputToInput))
      return formatString(
          "%sthe auxiliary input-to-input weights must be omitted when CIFG is used", where);
    if (!cfg->cifg && has(kAuxInputToInput) != f)
      return formatString(
          "%swithout CIFG the four auxiliary input weights must all have values or all be "
          "omitted; got input %d, others %d",
          where, has(kAuxInputToInput), f);
    cfg->aux = f;
  }
  return std::string();
}

struct Sizes {
  uint32_t batch = 0, input = 0, cell = 0, output = 0, auxInput = 0;
};

// Checks the weight shapes of one cell. `shapeOf(slot)` returns the Shape of a present slot
// or nullptr. `s` holds the sizes derived from the input and the input-to-output/
// recurrent-to-output weights; batch-dependent state shapes are checked by the caller.
template <typename ShapeOf>
std::string checkWeightShapes(ShapeOf shapeOf, const Sizes& s, const Config& cfg,
                              const char* where = "") {
  const uint32_t I = s.input, C = s.cell, O = s.output, A = s.auxInput;
  struct Expect {
    uint32_t slot;
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
      {kInputLayerNorm, {C}, "input layer normalization weights"},
      {kForgetLayerNorm, {C}, "forget layer normalization weights"},
      {kCellLayerNorm, {C}, "cell layer normalization weights"},
      {kOutputLayerNorm, {C}, "output layer normalization weights"},
      {kAuxInputToInput, {C, A}, "auxiliary input-to-input weights"},
      {kAuxInputToForget, {C, A}, "auxiliary input-to-forget weights"},
      {kAuxInputToCell, {C, A}, "auxiliary input-to-cell weights"},
      {kAuxInputToOutput, {C, A}, "auxiliary input-to-output weights"},
  };
  for (const Expect& e : expects) {
    const Shape* sh = shapeOf(e.slot);
    if (sh == nullptr) continue;
    if (sh->dims != e.dims)
      return formatString("%s%s: expected shape %s, got %s", where, e.what,
                          toString(e.dims).c_str(), toString(sh->dims).c_str());
  }
  if (!cfg.projection && O != C)
    return formatString(
        "%swithout projection weights the output size (%u, from the recurrent-to-output "
        "weights) must equal the number of cells (%u)",
        where, O, C);
  return std::string();
}

struct Params {
  int32_t activation = recurrent::kActTanh;
  float cellClip = 0.f, projClip = 0.f;
};

// float32 data of a cell's tensors by slot; nullptr for absent ones.
struct Tensors {
  const float* t[kNumSlots] = {};
  const float* operator[](uint32_t slot) const { return t[slot]; }
};

// Per batch row: v = (v - mean) / sqrt(variance + eps), then v = v * weights + bias.
inline void layerNormalize(float* v, uint32_t n, uint32_t batch, const float* weights,
                           const float* bias) {
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
inline void peepholeAccumulate(float* v, const float* w, const float* c, uint32_t n,
                               uint32_t batch) {
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t i = 0; i < n; ++i)
      v[static_cast<size_t>(b) * n + i] += w[i] * c[static_cast<size_t>(b) * n + i];
}

inline void clip(float* v, size_t n, float limit) {
  for (size_t i = 0; i < n; ++i) v[i] = std::min(limit, std::max(-limit, v[i]));
}

// Scratch floats one step needs: the gate values, [input,] cell, forget, output gate, each
// [batch, cell] (the LSTM op's scratch-buffer layout).
inline size_t scratchSize(const Config& cfg, const Sizes& s) {
  return static_cast<size_t>(s.batch) * s.cell * (cfg.cifg ? 3u : 4u);
}

// One time step. x is [batch, input], aux [batch, auxInput] (or null when cfg.aux is false),
// hPrev [batch, output], cPrev [batch, cell]. Writes out [batch, output] (which is also the
// new output state), cOut [batch, cell] and the gates into scratch. cOut may alias cPrev and
// out may alias hPrev: the previous state is fully read before either is written.
inline void step(const Config& cfg, const Sizes& s, const Params& p, const Tensors& w,
                 const float* x, const float* aux, const float* hPrev, const float* cPrev,
                 float* out, float* cOut, float* scratch) {
  const uint32_t B = s.batch, I = s.input, C = s.cell, O = s.output, A = s.auxInput;
  const size_t BC = static_cast<size_t>(B) * C;
  float* inputGate = cfg.cifg ? nullptr : scratch;
  float* cellGate = scratch + (cfg.cifg ? 0 : BC);
  float* forgetGate = cellGate + BC;
  float* outputGate = cellGate + 2 * BC;

  // Gate pre-activations: bias (or zero when layer normalization adds it later) + W x +
  // W_aux aux + R h.
  auto initGate = [&](float* g, const float* bias) {
    if (cfg.layerNorm)
      std::fill(g, g + BC, 0.f);
    else
      recurrent::broadcastRows(bias, C, B, g);
  };
  if (!cfg.cifg) initGate(inputGate, w[kInputGateBias]);
  initGate(forgetGate, w[kForgetGateBias]);
  initGate(cellGate, w[kCellBias]);
  initGate(outputGate, w[kOutputGateBias]);
  using recurrent::matrixBatchVectorMultiplyAccumulate;
  if (!cfg.cifg) matrixBatchVectorMultiplyAccumulate(w[kInputToInput], C, I, x, B, inputGate);
  matrixBatchVectorMultiplyAccumulate(w[kInputToForget], C, I, x, B, forgetGate);
  matrixBatchVectorMultiplyAccumulate(w[kInputToCell], C, I, x, B, cellGate);
  matrixBatchVectorMultiplyAccumulate(w[kInputToOutput], C, I, x, B, outputGate);
  if (cfg.aux && aux != nullptr) {
    if (!cfg.cifg)
      matrixBatchVectorMultiplyAccumulate(w[kAuxInputToInput], C, A, aux, B, inputGate);
    matrixBatchVectorMultiplyAccumulate(w[kAuxInputToForget], C, A, aux, B, forgetGate);
    matrixBatchVectorMultiplyAccumulate(w[kAuxInputToCell], C, A, aux, B, cellGate);
    matrixBatchVectorMultiplyAccumulate(w[kAuxInputToOutput], C, A, aux, B, outputGate);
  }
  if (!cfg.cifg) matrixBatchVectorMultiplyAccumulate(w[kRecToInput], C, O, hPrev, B, inputGate);
  matrixBatchVectorMultiplyAccumulate(w[kRecToForget], C, O, hPrev, B, forgetGate);
  matrixBatchVectorMultiplyAccumulate(w[kRecToCell], C, O, hPrev, B, cellGate);
  matrixBatchVectorMultiplyAccumulate(w[kRecToOutput], C, O, hPrev, B, outputGate);

  auto sigmoidInPlace = [&](float* g) {
    recurrent::applyActivation(recurrent::kActSigmoid, g, BC);
  };
  if (!cfg.cifg) {
    if (cfg.peephole) peepholeAccumulate(inputGate, w[kCellToInput], cPrev, C, B);
    if (cfg.layerNorm) layerNormalize(inputGate, C, B, w[kInputLayerNorm], w[kInputGateBias]);
    sigmoidInPlace(inputGate);
  }
  if (cfg.peephole) peepholeAccumulate(forgetGate, w[kCellToForget], cPrev, C, B);
  if (cfg.layerNorm) layerNormalize(forgetGate, C, B, w[kForgetLayerNorm], w[kForgetGateBias]);
  sigmoidInPlace(forgetGate);

  if (cfg.layerNorm) layerNormalize(cellGate, C, B, w[kCellLayerNorm], w[kCellBias]);
  float* cNew = cOut;
  for (size_t k = 0; k < BC; ++k) cNew[k] = forgetGate[k] * cPrev[k];
  recurrent::applyActivation(p.activation, cellGate, BC);
  if (cfg.cifg) {
    // The coupled input gate is 1 - forget gate; the reference leaves it in the forget slot.
    for (size_t k = 0; k < BC; ++k) {
      forgetGate[k] = 1.f - forgetGate[k];
      cNew[k] += cellGate[k] * forgetGate[k];
    }
  } else {
    for (size_t k = 0; k < BC; ++k) cNew[k] += cellGate[k] * inputGate[k];
  }
  if (p.cellClip > 0.f) clip(cNew, BC, p.cellClip);

  if (cfg.peephole) peepholeAccumulate(outputGate, w[kCellToOutput], cNew, C, B);
  if (cfg.layerNorm) layerNormalize(outputGate, C, B, w[kOutputLayerNorm], w[kOutputGateBias]);
  sigmoidInPlace(outputGate);
  std::copy(cNew, cNew + BC, cellGate);
  recurrent::applyActivation(p.activation, cellGate, BC);
  for (size_t k = 0; k < BC; ++k) outputGate[k] *= cellGate[k];

  const size_t BO = static_cast<size_t>(B) * O;
  if (cfg.projection) {
    if (cfg.projectionBias)
      recurrent::broadcastRows(w[kProjBias], O, B, out);
    else
      std::fill(out, out + BO, 0.f);
    matrixBatchVectorMultiplyAccumulate(w[kProjWeights], O, C, outputGate, B, out);
    if (p.projClip > 0.f) clip(out, BO, p.projClip);
  } else {
    std::copy(outputGate, outputGate + BO, out);
  }
}

}  // namespace lstm
}  // namespace nn
