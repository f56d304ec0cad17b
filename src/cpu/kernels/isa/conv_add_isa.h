// A 1x1 CONV_2D with few input channels and the ADD that alone reads its output: in float16
// arithmetic with AVX512-FP16 (conv_add_half_avx512fp16.cc) for relaxed models, in float32 with
// AVX-512 (conv_add_float_avx512.cc) otherwise; driver and rules in conv_add.h. Same include
// rules as conv_isa.h: plain declarations and trivial structs only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nn {

// out[r][c] = clampAdd(res[r][c] + clampConv(bias[c] + sum_j x[r][j] * w[j][c])) for pixels
// r of [rowBegin, rowEnd): x rounded to float16, the k products summed in one float16
// accumulator per output starting from the float16 bias (k is at most kConvAddMaxK, so the
// float16 sum stays within a few float16 ulps of the float32 one), the residual added in
// float16, the output rounded once from that float16 value (widened exactly for a float32
// output).
constexpr uint32_t kConvAddMaxK = 16;
constexpr uint32_t kConvAddMaxN = 128;
constexpr uint32_t kConvAddLanes = 32;
struct ConvAddHalfArgs {
  uint32_t n, k;             // output and input channels
  const float* xf;           // [pixels][k] float32, or
  const uint16_t* xh;        // [pixels][k] float16 bits
  const uint16_t* w;         // [k][n rounded up to kConvAddLanes], float16 bits, zero past n
  const uint16_t* bias;      // [n rounded up to kConvAddLanes], float16 bits
  float convMin, convMax;    // the CONV_2D's fused activation
  const float* rf;           // residual [pixels][n] float32, or
  const uint16_t* rh;        // float16 bits
  float outMin, outMax;      // the ADD's fused activation
  float* of;                 // output [pixels][n] float32, or
  uint16_t* oh;              // float16 bits
};
namespace isa_avx512fp16 {
void convAddHalfRows(const ConvAddHalfArgs& a, size_t rowBegin, size_t rowEnd);
}  // namespace isa_avx512fp16

// out[r][c] = clampAdd(res[r][c] + clampConv(bias[c] + sum_j x[r][j] * w[j][c])) in float32 for
// pixels r of [rowBegin, rowEnd): each sum starts from the bias and adds the k products in
// order with FMAs, as the panel GEMM computes the CONV_2D alone, and the residual add is the
// ADD's, so the pair gives the bits of the two layers run apart.
// With at most kConvAddFloatMaxK inputs only: face_detection_full_range's 96x96x8 -> 32 pair
// took 57 us against 42 + 51 apart (one thread, per-operation profile), where the CONV_2D's
// 1.2 MB output left L2 before the ADD read it back; its 48x48x16 -> 64 pair (590 KB, in L2)
// took 47 us against 28 + 14, the panel GEMM faster on the longer sums.
constexpr uint32_t kConvAddFloatMaxK = 8;
constexpr uint32_t kConvAddFloatLanes = 16;
struct ConvAddFloatArgs {
  uint32_t n, k;             // output and input channels (k <= kConvAddFloatMaxK, n <= kConvAddMaxN)
  const float* x;            // [pixels][k]
  const float* w;            // [k][n rounded up to kConvAddFloatLanes], zero past n
  const float* bias;         // [n rounded up to kConvAddFloatLanes], zero past n
  float convMin, convMax;    // the CONV_2D's fused activation
  const float* res;          // residual [pixels][n]
  float outMin, outMax;      // the ADD's fused activation
  float* out;                // [pixels][n]
};
namespace isa_avx512 {
void convAddFloatRows(const ConvAddFloatArgs& a, size_t rowBegin, size_t rowEnd);
}  // namespace isa_avx512

}  // namespace nn
