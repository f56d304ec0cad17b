// The LSTM family at the catalog level: the float LSTM cell's optional-input rules and weight
// shape checks shared by LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM,
// and each operation's geometry resolver (defined in its spec file, called again by its
// kernel), plus what the two integer LSTMs share with their kernel. The float cell's time step
// is cpu/kernels/lstm_cell.h.
//
// The float ops number their inputs differently; they all address a cell's tensors through
// the logical slots below (the LSTM operation's own input numbering, extended by the
// auxiliary input weights of the bidirectional op).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "spec/operation.h"
#include "spec/ops/recurrent.h"

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
inline constexpr uint32_t kRequiredTensorSlots[] = {
    kInputToForget, kInputToCell, kInputToOutput,  kRecToForget,   kRecToCell,
    kRecToOutput,   kForgetGateBias, kCellBias,    kOutputGateBias};

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

}  // namespace lstm

// ---- LSTM (spec/ops/lstm.cc) ------------------------------------------------------------

namespace lstm_op {

enum : uint32_t { kScratch = 0, kOutputStateOut = 1, kCellStateOut = 2, kOutput = 3 };

// Checks the optional-input combination, the shapes and the scalars; kDeferred while an
// optional input or a scalar is not bound yet (the configuration depends on which are
// present).
Status configure(const ShapeContext& ctx, lstm::Config* cfg, lstm::Sizes* d);

}  // namespace lstm_op

// ---- UNIDIRECTIONAL_SEQUENCE_LSTM / BIDIRECTIONAL_SEQUENCE_LSTM (spec/ops/sequence_lstm.cc)

namespace sequence_lstm {

constexpr uint32_t kNone = UINT32_MAX;

// The op input behind a logical slot has a value.
inline bool bound(const ShapeContext& ctx, uint32_t index) {
  return index != kNone && index < ctx.numInputs() && !ctx.isOmitted(index);
}

namespace uni {

constexpr uint32_t kNumInputs = 28, kTimeMajor = 23;
constexpr uint32_t kActivation = 20, kCellClip = 21, kProjClip = 22;
constexpr uint32_t kOutput = 0, kOutputStateOut = 1, kCellStateOut = 2;

// Logical slot -> op input: 0..22 are the LSTM numbering, the layer norm weights follow the
// time-major flag.
inline constexpr uint32_t kMap[lstm::kNumSlots] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                                   11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                                   22, 24, 25, 26, 27, kNone, kNone, kNone,
                                                   kNone};

struct Geometry {
  lstm::Config cfg;
  lstm::Sizes sizes;
  bool timeMajor = true;
  uint32_t maxTime = 0;
};

Status configure(const ShapeContext& ctx, Geometry* g);

}  // namespace uni

namespace bi {

constexpr uint32_t kNumInputs = 61;
constexpr uint32_t kAuxInput = 39, kActivation = 48, kCellClip = 49, kProjClip = 50,
                   kMergeOutputs = 51, kTimeMajor = 52;

inline constexpr uint32_t kFwMap[lstm::kNumSlots] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                                     11, 12, 13, 14, 15, 16, 17, 35, 36, 48, 49,
                                                     50, 53, 54, 55, 56, 40, 41, 42, 43};
inline constexpr uint32_t kBwMap[lstm::kNumSlots] = {0,  18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                                                     28, 29, 30, 31, 32, 33, 34, 37, 38, 48, 49,
                                                     50, 57, 58, 59, 60, 44, 45, 46, 47};

struct Geometry {
  lstm::Config fw, bw;
  lstm::Sizes fwSizes, bwSizes;
  bool timeMajor = true, merge = false, hasAux = false, parallel = false;
  uint32_t maxTime = 0;
};

Status configure(const ShapeContext& ctx, Geometry* g);

}  // namespace bi

}  // namespace sequence_lstm

// ---- QUANTIZED_16BIT_LSTM / QUANTIZED_LSTM (spec/ops/quantized_lstm.cc) ------------------

namespace quantized_lstm {

// log2(x) when x is (within 1e-3 in the exponent) a power of two, as the reference checks it.
inline bool checkedLog2(float x, int* log2) {
  const float xLog2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(xLog2);
  *log2 = static_cast<int>(rounded);
  return std::abs(xLog2 - rounded) < 1e-3f;
}

// QUANTIZED_16BIT_LSTM operands.
namespace q16 {

enum : uint32_t {
  kInput = 0,
  kInputToInput = 1,  // 1..4: input-to-{input, forget, cell, output}
  kRecToInput = 5,    // 5..8: recurrent-to-{input, forget, cell, output}
  kInputGateBias = 9, // 9..12: {input, forget, cell, output} gate bias
  kPrevCellState = 13,
  kPrevOutput = 14,
};
enum : uint32_t { kCellStateOut = 0, kOutput = 1 };

}  // namespace q16

// QUANTIZED_LSTM operands.
namespace ql {

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
  kPrevOutput = 18,
  kPrevCellState = 19,
  kInputLayerNorm = 20,
  kForgetLayerNorm = 21,
  kCellLayerNorm = 22,
  kOutputLayerNorm = 23,
  kCellClip = 24,
  kProjClip = 25,
  kInputIntermediateScale = 26,
  kForgetIntermediateScale = 27,
  kCellIntermediateScale = 28,
  kOutputIntermediateScale = 29,
  kHiddenStateZeroPoint = 30,
  kHiddenStateScale = 31,
};
enum : uint32_t { kOutputStateOut = 0, kCellStateOut = 1, kOutput = 2 };
constexpr uint32_t kNoInput = UINT32_MAX;

inline constexpr uint32_t kOptional[] = {kInputToInput,    kRecToInput,    kCellToInput,
                                  kCellToForget,    kCellToOutput,  kInputGateBias,
                                  kProjWeights,     kProjBias,      kInputLayerNorm,
                                  kForgetLayerNorm, kCellLayerNorm, kOutputLayerNorm};

inline bool has(const ShapeContext& ctx, uint32_t i) { return !ctx.isOmitted(i); }

struct Sizes {
  uint32_t batch, input, units, output;
};

// Checks shapes, the optional-input combination and the cell state scale; kDeferred while an
// optional input is not bound yet.
Status configure(const ShapeContext& ctx, Sizes* s);

}  // namespace ql

}  // namespace quantized_lstm

}  // namespace nn
