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
// The float32-sum form below takes k up to this (its zero-padded copy of a short row block is on
// the stack); the small-n layout is packed for these shapes too.
constexpr uint32_t kHalfSmallWideMaxK = 512;
constexpr uint32_t kHalfSmallWideMaxN = 96;
static inline bool halfGemmSmallWideShape(uint32_t n, uint32_t k) {
  return n > 0 && n <= kHalfSmallWideMaxN && k > 0 && k <= kHalfSmallWideMaxK;
}
// Where it is taken (float16 input): up to 48 columns (the narrow kernel's shapes), and 65-96
// with k >= 128, where the 64-column tiles leave a partly empty second tile
// (nnapi_bench_direct --half, one thread, "float16 data": 14x14x480->80 0.96x and 14x14x240->80
// 0.90x the 64-column kernel's time, 14x14x288->64 1.16x, 56x56x16->96 2.5x).
static inline bool halfGemmSmallWidePreferred(uint32_t n, uint32_t k) {
  return halfGemmSmallWideShape(n, k) && (n <= kHalfSmallMaxN || (n > 64 && k >= 128));
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
// The same layout with float32 sums, for float16 input (g.ah) and any k up to
// kHalfSmallWideMaxK (halfGemmSmallWideShape): each lane sums at most 16 quads' products in
// float16 (a block of 64 terms of k), two rows' lanes are added pairwise in float16, widened,
// added pairwise again in float32 and into float32 totals over the blocks; the float32 bias is
// added and the clamp applied in float32 (as the narrow kernel does with its float32 sums). The
// output is float32 (g.c) or rounded once to float16 (g.ch). With g.residual the ADD is applied
// as the float16 ADD kernel does it to a float32 convolution output: clamp(addMin, addMax,
// conv + res) summed in float32 (res g.rf or g.rh, g.resC <= n channels, the others +0), then
// rounded once for a float16 output. g.roundConv is not supported.
void gemmHalfSmallNFloat(const GemmHalfArgs& g, uint32_t rowBegin, uint32_t rowEnd);
}  // namespace isa_avx512fp16

}  // namespace nn
