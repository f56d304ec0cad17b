// Float16 values as the kernels store them (uint16_t bit patterns), for the float16 kernel
// tests: rounding a float to float16 bits and widening them back.
#pragma once

#include <cstdint>
#include <cstring>

#include "spec/operation.h"  // nn::Half

namespace nn {
namespace half_bits {

inline uint16_t bitsOf(Half h) {
  uint16_t b;
  std::memcpy(&b, &h, sizeof b);
  return b;
}
inline Half halfOf(uint16_t b) {
  Half h;
  std::memcpy(&h, &b, sizeof h);
  return h;
}
// float -> float16 bits, rounded to nearest even.
inline uint16_t narrow(float f) { return bitsOf(static_cast<Half>(f)); }
// float16 bits -> float (exact).
inline float widen(uint16_t b) { return static_cast<float>(halfOf(b)); }

}  // namespace half_bits
}  // namespace nn
