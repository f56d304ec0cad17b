// Checked arithmetic for output dimensions computed from operand values (paddings, block
// sizes, multiples, strides, scale factors). Every shape rule that adds or multiplies
// dimensions goes through these, so a hostile value yields an error naming the operation
// instead of a wrapped 32-bit dimension (a silently wrong shape) or a huge allocation.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>

namespace nn {
namespace dim_math {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

// Saturating uint64 add / multiply: the result never wraps, so a later range check sees it.
inline uint64_t addSat(uint64_t a, uint64_t b) { return a > kSaturated - b ? kSaturated : a + b; }
inline uint64_t mulSat(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kSaturated / b ? kSaturated : a * b;
}

// Narrows to a 32-bit dimension; false when it does not fit.
inline bool toDim(uint64_t v, uint32_t* out) {
  if (v > std::numeric_limits<uint32_t>::max()) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}
// in + before + after (paddings must already be checked >= 0).
inline bool paddedDim(uint32_t in, int64_t before, int64_t after, uint32_t* out) {
  if (before < 0 || after < 0) return false;
  return toDim(addSat(addSat(in, uint64_t(before)), uint64_t(after)), out);
}
// The product of the factors (dimension times block sizes / multiples).
inline bool productDim(std::initializer_list<uint64_t> factors, uint32_t* out) {
  uint64_t p = 1;
  for (uint64_t f : factors) p = mulSat(p, f);
  return toDim(p, out);
}
// The sum of the terms (e.g. concatenated extents).
inline bool sumDim(std::initializer_list<uint64_t> terms, uint32_t* out) {
  uint64_t s = 0;
  for (uint64_t t : terms) s = addSat(s, t);
  return toDim(s, out);
}
// Output extent of a strided window: (span / stride) + 1 for span >= 0.
inline bool stridedDim(uint64_t span, uint64_t stride, uint32_t* out) {
  if (stride == 0) return false;
  return toDim(span / stride + 1, out);
}

}  // namespace dim_math
}  // namespace nn
