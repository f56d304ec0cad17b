// Float32 staging shared by the detection kernels (ROI_ALIGN, ROI_POOLING, the bounding-box
// family, HEATMAP_MAX_KEYPOINT). Like the NNAPI reference, these operations compute in
// float32: quantized and float16 operands are widened on the way in and rounded on the way
// out. Their catalog-level helpers are spec/ops/detection.h.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "spec/operation.h"
#include "spec/ops/detection.h"

namespace nn {
namespace detection {

// Element i of a tensor of any numeric type, as float (dequantized with scale/zeroPoint).
inline float elementAsFloat(const Shape& s, const void* data, size_t i) {
  switch (s.type) {
    case OperandType::TENSOR_FLOAT32:
      return static_cast<const float*>(data)[i];
    case OperandType::TENSOR_FLOAT16:
      return static_cast<float>(static_cast<const Half*>(data)[i]);
    case OperandType::TENSOR_QUANT8_ASYMM:
      return (static_cast<int32_t>(static_cast<const uint8_t*>(data)[i]) - s.zeroPoint) * s.scale;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return (static_cast<int32_t>(static_cast<const int8_t*>(data)[i]) - s.zeroPoint) * s.scale;
    case OperandType::TENSOR_QUANT16_ASYMM:
      return (static_cast<int32_t>(static_cast<const uint16_t*>(data)[i]) - s.zeroPoint) * s.scale;
    case OperandType::TENSOR_QUANT16_SYMM:
      return (static_cast<int32_t>(static_cast<const int16_t*>(data)[i]) - s.zeroPoint) * s.scale;
    case OperandType::TENSOR_INT32:
      return static_cast<float>(static_cast<const int32_t*>(data)[i]);
    default:
      return 0.f;
  }
}

inline std::vector<float> inputAsFloat(const ShapeContext& ctx, uint32_t i) {
  const Shape& s = ctx.inputShape(i);
  std::vector<float> v(static_cast<size_t>(s.count()));
  for (size_t k = 0; k < v.size(); ++k) v[k] = elementAsFloat(s, ctx.inputData(i), k);
  return v;
}

template <typename T>
inline T quantizeRounded(float v, float scale, int32_t zeroPoint) {
  const float r = std::round(v / scale + static_cast<float>(zeroPoint));
  const float lo = static_cast<float>(std::numeric_limits<T>::min());
  const float hi = static_cast<float>(std::numeric_limits<T>::max());
  // NaN compares false both ways and lands on lo.
  return static_cast<T>(r >= lo ? (r <= hi ? r : hi) : lo);
}

// Stores `v` (float values) into a tensor of `s.type` (quantized with round-to-nearest,
// ties away from zero, then saturated, as the reference does).
inline void storeFloats(const Shape& s, const float* v, size_t n, void* out) {
  switch (s.type) {
    case OperandType::TENSOR_FLOAT32:
      for (size_t k = 0; k < n; ++k) static_cast<float*>(out)[k] = v[k];
      break;
    case OperandType::TENSOR_FLOAT16:
      for (size_t k = 0; k < n; ++k) static_cast<Half*>(out)[k] = static_cast<Half>(v[k]);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM:
      for (size_t k = 0; k < n; ++k)
        static_cast<uint8_t*>(out)[k] = quantizeRounded<uint8_t>(v[k], s.scale, s.zeroPoint);
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      for (size_t k = 0; k < n; ++k)
        static_cast<int8_t*>(out)[k] = quantizeRounded<int8_t>(v[k], s.scale, s.zeroPoint);
      break;
    case OperandType::TENSOR_QUANT16_ASYMM:
      for (size_t k = 0; k < n; ++k)
        static_cast<uint16_t*>(out)[k] = quantizeRounded<uint16_t>(v[k], s.scale, s.zeroPoint);
      break;
    case OperandType::TENSOR_QUANT16_SYMM:
      for (size_t k = 0; k < n; ++k)
        static_cast<int16_t*>(out)[k] = quantizeRounded<int16_t>(v[k], s.scale, s.zeroPoint);
      break;
    default:
      break;
  }
}

}  // namespace detection
}  // namespace nn
