// The float16 1x1 convolution for at most 16 output channels on float16 data
// (gemm_half_small_avx512fp16.cc): face_detection_full_range's 32 -> 8 and 32 / 48 -> 12
// layers on 96x96 and 48x48 maps. Same include rules as conv_isa.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/gemm_half_isa.h"

namespace nn {

constexpr uint32_t kHalfSmallMaxN = 16;  // two groups of 8 columns
constexpr uint32_t kHalfSmallMaxK = 64;  // k a multiple of 4
namespace isa_avx512fp16 {
// Rows [rowBegin, rowEnd) of g (g.ah and g.ch set, g.lda == g.k, g.packed in the narrow layout,
// n <= kHalfSmallMaxN, k a multiple of 4 up to kHalfSmallMaxK). One 32-lane vector per row and
// group of 8 columns holds column c's products of inputs 4j + i (lane 4c + i), summed over j in
// float16; four rows' vectors are then reduced to the 8 columns of each row by two rounds of
// pairwise float16 adds, the float16 bias added and the result clamped: each output is the
// float16 sum of its k products in a fixed order (k / 4 terms per lane, then a tree of 4).
void gemmHalfSmallN(const GemmHalfArgs& g, uint32_t rowBegin, uint32_t rowEnd);
}  // namespace isa_avx512fp16

}  // namespace nn
