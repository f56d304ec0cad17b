// The last pass of a relaxed model's inverted bottleneck run as one parallel region
// (block_half.h): the 1x1 projection's partial sums over the threads' shares of the hidden
// channels added up, with bias, clamp and the residual ADD (block_half_avx512fp16.cc). Same
// include rules as conv_isa.h: plain declarations and trivial structs only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nn {

constexpr uint32_t kBlockHalfMaxParts = 8;

// For rows [rowBegin, rowEnd) of n columns:
//   c = clamp(convMin, convMax, bias[j] + sum over p of partial[p][r][j]) (float32 sums),
//   rounded to float16 where `roundConv` (the projection's own output tensor is float16);
//   with a residual (rh or rf not null, rows of n): out = clamp(addMin, addMax, c + res) in
//   float32 as the float16 ADD kernel sums, else out = c; out float16 bits (`oh`, rounded once)
//   or float32 (`of`). The clamps propagate NaN. Where out and the residual are the same
//   memory each element is read before it is written.
struct BlockReduceHalfArgs {
  uint32_t n, parts;
  const float* partial[kBlockHalfMaxParts];
  const float* bias;  // [n] or null
  float convMin, convMax;
  bool roundConv;
  const uint16_t* rh;
  const float* rf;
  float addMin, addMax;
  uint16_t* oh;
  float* of;
};

namespace isa_avx512fp16 {
void reduceBlockHalf(const BlockReduceHalfArgs& a, size_t rowBegin, size_t rowEnd);
}  // namespace isa_avx512fp16

}  // namespace nn
