// The float LSTM cell's time step shared by the LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and
// BIDIRECTIONAL_SEQUENCE_LSTM kernels, computed in float32 in the NNAPI reference's order of
// operations. The cell's tensors are addressed through the logical slots of spec/ops/lstm.h,
// which also holds the optional-input rules and shape checks.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "cpu/kernels/recurrent_util.h"
#include "spec/ops/lstm.h"

namespace nn {
namespace lstm {

constexpr float kLayerNormEpsilon = 1e-8f;

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
