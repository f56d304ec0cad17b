// Arithmetic shared by the recurrent kernels (RNN, SVDF, the LSTM and sequence families) and
// LSH_PROJECTION: batched matrix-vector products, the activations, and float16 <-> float32
// staging so each kernel is written once in float32 (as the NNAPI reference does). The
// activation codes themselves are part of the catalog (spec/ops/recurrent.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "spec/operation.h"
#include "spec/ops/recurrent.h"

namespace nn {
namespace recurrent {

inline float sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }

inline void applyActivation(int32_t act, float* v, size_t n) {
  switch (act) {
    case kActRelu:
      for (size_t i = 0; i < n; ++i) v[i] = std::max(0.f, v[i]);
      break;
    case kActRelu1:
      for (size_t i = 0; i < n; ++i) v[i] = std::min(1.f, std::max(-1.f, v[i]));
      break;
    case kActRelu6:
      for (size_t i = 0; i < n; ++i) v[i] = std::min(6.f, std::max(0.f, v[i]));
      break;
    case kActTanh:
      for (size_t i = 0; i < n; ++i) v[i] = std::tanh(v[i]);
      break;
    case kActSigmoid:
      for (size_t i = 0; i < n; ++i) v[i] = sigmoid(v[i]);
      break;
    default:
      break;
  }
}

inline float dot(const float* a, const float* b, uint32_t n) {
  float s = 0.f;
  for (uint32_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

// out[b * rows + r] += dot(matrix row r, vectors[b]) for every batch b. The matrix is
// [rows, cols] row-major, the vectors are [batch, cols].
inline void matrixBatchVectorMultiplyAccumulate(const float* matrix, uint32_t rows, uint32_t cols,
                                                const float* vectors, uint32_t batch,
                                                float* out) {
  for (uint32_t b = 0; b < batch; ++b) {
    const float* v = vectors + static_cast<size_t>(b) * cols;
    float* o = out + static_cast<size_t>(b) * rows;
    const float* m = matrix;
    for (uint32_t r = 0; r < rows; ++r, m += cols) o[r] += dot(m, v, cols);
  }
}

// Copies `vec` (size n) into each of the `batch` rows of out.
inline void broadcastRows(const float* vec, uint32_t n, uint32_t batch, float* out) {
  for (uint32_t b = 0; b < batch; ++b) std::copy(vec, vec + n, out + static_cast<size_t>(b) * n);
}

// A float32 view of a float input: float32 data is used in place, float16 is converted into
// owned storage. Omitted inputs give nullptr.
class FloatIn {
 public:
  FloatIn() = default;
  FloatIn(const ShapeContext& ctx, uint32_t i) { reset(ctx, i); }
  FloatIn(const FloatIn&) = delete;
  FloatIn& operator=(const FloatIn&) = delete;
  // Moving a vector keeps its heap buffer, so data_ stays valid.
  FloatIn(FloatIn&&) = default;
  void reset(const ShapeContext& ctx, uint32_t i) {
    data_ = nullptr;
    if (ctx.isOmitted(i) || !ctx.hasInputData(i)) return;
    const size_t n = static_cast<size_t>(ctx.inputShape(i).count());
    if (ctx.inputType(i) == OperandType::TENSOR_FLOAT16 ||
        ctx.inputType(i) == OperandType::FLOAT16) {
      const Half* h = ctx.input<Half>(i);
      storage_.resize(n);
      for (size_t k = 0; k < n; ++k) storage_[k] = static_cast<float>(h[k]);
      data_ = storage_.data();
    } else {
      data_ = ctx.input<float>(i);
    }
  }
  const float* get() const { return data_; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  std::vector<float> storage_;
  const float* data_ = nullptr;
};

// A float32 view of a float output. For float16 outputs the kernel writes to staging storage
// and commit() converts it into the output buffer.
class FloatOut {
 public:
  FloatOut(const ShapeContext& ctx, uint32_t i) : ctx_(ctx), index_(i) {
    half_ = ctx.outputShape(i).type == OperandType::TENSOR_FLOAT16;
    if (half_) {
      storage_.assign(static_cast<size_t>(ctx.outputShape(i).count()), 0.f);
      data_ = storage_.data();
    } else {
      data_ = ctx.output<float>(i);
    }
  }
  float* get() const { return data_; }
  void commit() {
    if (!half_) return;
    Half* h = ctx_.output<Half>(index_);
    for (size_t k = 0; k < storage_.size(); ++k) h[k] = static_cast<Half>(storage_[k]);
  }

 private:
  const ShapeContext& ctx_;
  uint32_t index_;
  bool half_ = false;
  std::vector<float> storage_;
  float* data_ = nullptr;
};

}  // namespace recurrent
}  // namespace nn
