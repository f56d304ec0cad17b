// Arithmetic shared by many operations: fused activations, padding, and the fixed-point
// requantization that the NNAPI reference (and so the conformance vectors) encodes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "spec/operation.h"

namespace nn {


// ---- fused activation ------------------------------------------------------------------

bool isValidFusedActivation(int32_t code);
void activationRangeFloat(int32_t activation, float* outMin, float* outMax);
// Clamp bounds in the quantized domain of `output`, for uint8 ([0,255]) or int8 ([-128,127]).
void activationRangeQuantized(int32_t activation, const Shape& output, int32_t* outMin,
                              int32_t* outMax);

// ---- padding ---------------------------------------------------------------------------

constexpr int32_t kPaddingSame = 1;
constexpr int32_t kPaddingValid = 2;

// Explicit head/tail padding for an implicit padding code (ABI.md 1.4).
void implicitPadding(uint32_t inSize, uint32_t stride, uint32_t dilation, uint32_t filterSize,
                     int32_t paddingCode, uint32_t* head, uint32_t* tail);
// Output size of a windowed op; returns false when the window does not fit (negative size).
bool windowOutputSize(uint32_t inSize, uint32_t filterSize, uint32_t stride, uint32_t dilation,
                      uint32_t padHead, uint32_t padTail, uint32_t* out);

// ---- fixed-point requantization (gemmlowp semantics) -----------------------------------

inline int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  const bool overflow = a == b && a == std::numeric_limits<int32_t>::min();
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int32_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  const int32_t high = static_cast<int32_t>((ab + nudge) / (1ll << 31));
  return overflow ? std::numeric_limits<int32_t>::max() : high;
}

// Round-half-away-from-zero division by 2^exponent. Computed in 64 bits so that any exponent
// is defined (scales from hostile models can ask for shifts of 32 and more; the quotient is
// then 0): identical to the 32-bit formula for exponents up to 31.
inline int32_t roundingDivideByPOT(int32_t x, int exponent) {
  if (exponent <= 0) return x;
  if (exponent > 62) return 0;
  const int64_t wide = x;
  const int64_t mask = (int64_t{1} << exponent) - 1;
  const int64_t remainder = wide & mask;
  const int64_t threshold = (mask >> 1) + (wide < 0 ? 1 : 0);
  return static_cast<int32_t>((wide >> exponent) + (remainder > threshold ? 1 : 0));
}

// x * 2^leftShift saturated to int32 (no signed overflow, whatever the shift).
inline int32_t saturatingShiftLeft(int32_t x, int leftShift) {
  if (leftShift <= 0 || x == 0) return x;
  if (leftShift >= 31) return x > 0 ? std::numeric_limits<int32_t>::max()
                                    : std::numeric_limits<int32_t>::min();
  const int64_t v = static_cast<int64_t>(x) * (int64_t{1} << leftShift);
  if (v > std::numeric_limits<int32_t>::max()) return std::numeric_limits<int32_t>::max();
  if (v < std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}

// x * multiplier * 2^shift, where multiplier is Q31 and shift may be positive (left) or
// negative (right).
inline int32_t multiplyByQuantizedMultiplier(int32_t x, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  return roundingDivideByPOT(
      saturatingRoundingDoublingHighMul(saturatingShiftLeft(x, left), multiplier), right);
}
inline int32_t multiplyByQuantizedMultiplierSmallerThanOne(int32_t x, int32_t multiplier,
                                                           int rightShift) {
  return roundingDivideByPOT(saturatingRoundingDoublingHighMul(x, multiplier), rightShift);
}
inline int32_t multiplyByQuantizedMultiplierGreaterThanOne(int32_t x, int32_t multiplier,
                                                           int leftShift) {
  return saturatingRoundingDoublingHighMul(saturatingShiftLeft(x, leftShift), multiplier);
}

// Decomposes a real multiplier into Q31 + signed shift. Returns false for a negative or
// non-finite value.
bool quantizeMultiplier(double realMultiplier, int32_t* quantized, int* shift);
// For 0 <= m < 1: right shift >= 0.
bool quantizeMultiplierSmallerThanOne(double realMultiplier, int32_t* quantized, int* rightShift);
// For m > 1: left shift >= 0.
bool quantizeMultiplierGreaterThanOne(double realMultiplier, int32_t* quantized, int* leftShift);
// input.scale * filter.scale / output.scale with the product taken in float, as the
// reference does. Fails if the bias scale disagrees with input*filter scale.
bool convolutionMultiplier(const Shape& input, const Shape& filter, const Shape& bias,
                           const Shape& output, double* multiplier);

// Multiplier/shift used by the reference for input rescaling with a left shift (ADD/SUB style).
// Integer bits of the 32-bit fixed-point value used in LOGISTIC/TANH/SOFTMAX style kernels.
int32_t calculateInputRadius(int inputIntegerBits, int inputLeftShift);

// ---- misc ------------------------------------------------------------------------------

inline float quantizedToFloat(int32_t q, float scale, int32_t zeroPoint) {
  return static_cast<float>(q - zeroPoint) * scale;
}
template <typename T>
inline T saturateCast(int32_t v) {
  return static_cast<T>(std::min<int32_t>(std::max<int32_t>(v, std::numeric_limits<T>::min()),
                                          std::numeric_limits<T>::max()));
}
// Index of a 4-D NHWC element.
inline size_t offset4(const Dims& d, uint32_t b, uint32_t h, uint32_t w, uint32_t c) {
  return ((static_cast<size_t>(b) * d[1] + h) * d[2] + w) * d[3] + c;
}

}  // namespace nn
