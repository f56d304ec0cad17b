// What the recurrent operations (RNN, SVDF, the LSTM and sequence families) and
// LSH_PROJECTION share at the catalog level: the activation codes they accept and reading a
// FLOAT16/FLOAT32 scalar. The arithmetic lives in cpu/kernels/recurrent_util.h.
#pragma once

#include <cstdint>

#include "spec/operation.h"

namespace nn {
namespace recurrent {

// Activation codes of the recurrent ops. They extend FuseCode with the TFLite codes the
// reference implementation also understands (TANH = 4, SIGMOID = 6); 5 (sign bit) is not
// an activation function the reference can apply.
enum Activation : int32_t {
  kActNone = 0,
  kActRelu = 1,
  kActRelu1 = 2,
  kActRelu6 = 3,
  kActTanh = 4,
  kActSigmoid = 6,
};

inline bool isValidActivation(int32_t code) {
  return (code >= 0 && code <= 4) || code == kActSigmoid;
}

inline bool isFloatTensor(OperandType t) {
  return t == OperandType::TENSOR_FLOAT32 || t == OperandType::TENSOR_FLOAT16;
}

// Reads a FLOAT32 or FLOAT16 scalar as float.
inline float floatScalar(const ShapeContext& ctx, uint32_t i) {
  if (ctx.inputType(i) == OperandType::FLOAT16) return static_cast<float>(ctx.scalar<Half>(i));
  return ctx.scalar<float>(i);
}

}  // namespace recurrent

// ---- SVDF (spec/ops/svdf.cc) ------------------------------------------------------------

namespace svdf {

constexpr uint32_t kInput = 0, kWeightsFeature = 1, kWeightsTime = 2, kBias = 3, kStateIn = 4,
                   kRank = 5, kActivation = 6;
constexpr uint32_t kStateOut = 0, kOutput = 1;

struct Sizes {
  uint32_t batch, inputSize, numFilters, rank, units, memory;
};

// Checks the operand shapes against each other and derives the sizes; kDeferred while the
// rank is not known. The kernel calls it again: a bias bound at execution is only checked
// once it has data.
Status resolveSizes(const ShapeContext& ctx, Sizes* s);

}  // namespace svdf

// ---- LSH_PROJECTION (spec/ops/lsh_projection.cc) ----------------------------------------

namespace lsh {

constexpr int32_t kSparseDeprecated = 1;
constexpr int32_t kDense = 2;
constexpr int32_t kSparse = 3;

constexpr uint32_t kHash = 0, kInput = 1, kWeight = 2, kType = 3;

// A weight bound at execution may still turn out omitted, so it is checked once it has data
// (by inferShapes, and again by the kernel).
Status checkWeight(const ShapeContext& ctx);

}  // namespace lsh

// ---- UNIDIRECTIONAL_SEQUENCE_RNN / BIDIRECTIONAL_SEQUENCE_RNN (spec/ops/sequence_rnn.cc) --

namespace sequence_rnn {

namespace uni {

constexpr uint32_t kInput = 0, kWeights = 1, kRecurrent = 2, kBias = 3, kState = 4,
                   kActivation = 5, kTimeMajor = 6;

struct Geometry {
  bool timeMajor = true;
  uint32_t T = 0, B = 0, U = 0;  // max time, batch, units
};

// Checks the shapes and derives the geometry; kDeferred while the time-major flag is unknown.
Status configure(const ShapeContext& ctx, Geometry* g);

}  // namespace uni

namespace bi {

constexpr uint32_t kInput = 0, kFwWeights = 1, kFwRecurrent = 2, kFwBias = 3, kFwState = 4,
                   kBwWeights = 5, kBwRecurrent = 6, kBwBias = 7, kBwState = 8, kAuxInput = 9,
                   kFwAuxWeights = 10, kBwAuxWeights = 11, kActivation = 12, kTimeMajor = 13,
                   kMergeOutputs = 14;

struct Geometry {
  bool timeMajor = true, merge = false, hasAux = false, parallel = false;
  uint32_t T = 0, B = 0, fwU = 0, bwU = 0, auxSize = 0;
};

// Checks the shapes and the linking mode and derives the geometry; kDeferred while a flag or
// an optional auxiliary operand is not bound yet.
Status configure(const ShapeContext& ctx, Geometry* g);

}  // namespace bi

}  // namespace sequence_rnn

}  // namespace nn
