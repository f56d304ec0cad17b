// The float16 1x1 convolution for at most 48 output channels and k up to 64 on float16 data
// (gemm_half_small_avx512fp16.cc): face_detection_full_range's 32 -> 8 and 32 / 48 -> 12
// layers on 96x96 and 48x48 maps, BlazeFace's 24- to 42-channel 1x1 layers before their
// residual ADDs. Same include rules as conv_isa.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/gemm_half_isa.h"

namespace nn {

constexpr uint32_t kHalfSmallMaxN = 48;  // six groups of 8 columns
constexpr uint32_t kHalfSmallMaxK = 64;
// The small-n weight layout: [ceil(k / 4)][ceil(n / 8)][32] float16 bits, lane 4c + i of
// group v's vector for quad j = the weight of column 8v + c and input 4j + i, zero past n and
// k. Static (internal linkage), see gemm_half_isa.h.
static inline bool halfGemmSmallShape(uint32_t n, uint32_t k) {
  return n > 0 && n <= kHalfSmallMaxN && k > 0 && k <= kHalfSmallMaxK;
}
static inline size_t halfGemmSmallElems(uint32_t n, uint32_t k) {
  return static_cast<size_t>((k + 3) / 4) * ((n + 7) / 8) * 32;
}
namespace isa_avx512fp16 {
// Rows [rowBegin, rowEnd) of g (g.ah and g.ch set, g.lda == g.k, g.small set,
// halfGemmSmallShape(n, k)). One 32-lane vector per row and group of 8 columns holds column c's
// products of inputs 4j + i (lane 4c + i), summed over j in float16; four rows' vectors are then
// reduced to the 8 columns of each row by two rounds of pairwise float16 adds, the float16 bias
// added and the result clamped: each output is the float16 sum of its k products in a fixed
// order (ceil(k / 4) terms per lane, then a tree of 4). With g.residual (g.rh set: a float16
// shortcut of g.resC <= n channels, the columns past it read as +0) the output is the residual
// ADD's: clamp(addMin, addMax, conv + res) in float16, which is the float16 ADD kernel's
// result for the convolution's float16 output (a sum of two float16 values is exact in float32,
// so rounding it once equals the float16 addition; the clamp bounds are float16 values).
void gemmHalfSmallN(const GemmHalfArgs& g, uint32_t rowBegin, uint32_t rowEnd);
}  // namespace isa_avx512fp16

}  // namespace nn
