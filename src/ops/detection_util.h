// Helpers shared by the detection operations (ROI_ALIGN, ROI_POOLING, the bounding-box
// family, HEATMAP_MAX_KEYPOINT). Like the NNAPI reference, these operations compute in
// float32: quantized and float16 operands are widened on the way in and rounded on the way
// out.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "spec/ops/common.h"
#include "ops/operation.h"

namespace nn {
namespace detection {

constexpr OperandType kF32 = OperandType::TENSOR_FLOAT32;
constexpr OperandType kF16 = OperandType::TENSOR_FLOAT16;
constexpr OperandType kQ8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr OperandType kQ8S = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr OperandType kQ16A = OperandType::TENSOR_QUANT16_ASYMM;
constexpr OperandType kQ16S = OperandType::TENSOR_QUANT16_SYMM;
constexpr OperandType kI32 = OperandType::TENSOR_INT32;

inline bool isQuant8Type(OperandType t) { return t == kQ8 || t == kQ8S; }

// The scalar type that goes with a float tensor type (FLOAT16 for TENSOR_FLOAT16).
inline OperandType floatScalarFor(OperandType tensorType) {
  return tensorType == kF16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
}

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

inline std::vector<float> inputAsFloat(const OpContext& ctx, uint32_t i) {
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

// Reads a float scalar input that is FLOAT16 or FLOAT32.
inline float floatScalar(const OpContext& ctx, uint32_t i) {
  if (ctx.inputType(i) == OperandType::FLOAT16) return static_cast<float>(ctx.scalar<Half>(i));
  return ctx.scalar<float>(i);
}

// Every input in [first, last] has its value (scalars may come from model inputs and are
// only known at execution).
inline bool haveScalars(const OpContext& ctx, uint32_t first, uint32_t last) {
  for (uint32_t i = first; i <= last && i < ctx.numInputs(); ++i)
    if (!ctx.isOmitted(i) && !ctx.hasInputData(i)) return false;
  return true;
}

// Checks the operand counts and the exact type of every input and output.
inline Status checkSignature(ValidationContext& c, std::initializer_list<OperandType> inputs,
                             std::initializer_list<OperandType> outputs) {
  if (c.numInputs() != inputs.size())
    return c.fail("expected %zu inputs, got %u", inputs.size(), c.numInputs());
  if (c.numOutputs() != outputs.size())
    return c.fail("expected %zu outputs, got %u", outputs.size(), c.numOutputs());
  uint32_t i = 0;
  for (OperandType t : inputs) {
    if (c.isOmitted(i))
      return c.fail("input %u (operand %u) is required but has no value", i,
                    c.inputOperandIndex(i));
    if (c.inputType(i) != t)
      return c.fail("input %u: expected type %s, got %s", i, toString(t),
                    toString(c.inputType(i)));
    ++i;
  }
  i = 0;
  for (OperandType t : outputs) {
    if (c.outputType(i) != t)
      return c.fail("output %u: expected type %s, got %s", i, toString(t),
                    toString(c.outputType(i)));
    ++i;
  }
  return kOk;
}

// A QUANT16 box tensor must use scale 0.125 and zero point 0 (the spec's fixed encoding).
inline Status checkBoxQuant(ValidationContext& c, const Operand& o, const char* what) {
  if (o.type != OperandType::TENSOR_QUANT16_ASYMM && o.type != OperandType::TENSOR_QUANT16_SYMM)
    return kOk;
  if (o.scale != 0.125f || o.zeroPoint != 0)
    return c.fail("%s: a %s box tensor must have scale 0.125 and zeroPoint 0, got %g and %d", what,
                  toString(o.type), o.scale, o.zeroPoint);
  return kOk;
}

inline Status checkRank(OpContext& ctx, uint32_t i, uint32_t rank) {
  if (ctx.inputShape(i).rank() != rank)
    return ctx.fail("input %u: expected rank %u, got shape %s", i, rank,
                    toString(ctx.inputShape(i).dims).c_str());
  return kOk;
}

inline Status checkDim(OpContext& ctx, uint32_t i, uint32_t axis, uint32_t expected,
                       const char* what) {
  const uint32_t got = ctx.inputShape(i).dims[axis];
  if (got != expected)
    return ctx.fail("input %u: dimension %u must equal %s (%u), got %u", i, axis, what, expected,
                    got);
  return kOk;
}

}  // namespace detection
}  // namespace nn
