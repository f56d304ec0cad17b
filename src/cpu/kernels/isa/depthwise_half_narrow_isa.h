// The float16 depthwise convolution for fewer than kHalfDwMinChannels (16) channels at stride
// 1 (depthwise_half_narrow_avx512fp16.cc): one 32-lane vector holds floor(32 / channels)
// neighbouring output pixels, so an 8-channel layer fills its vectors (the by-pixel kernel,
// depthwiseHalfRows, would leave 24 of 32 lanes empty). Same include rules as conv_isa.h.
#pragma once

#include <cstdint>

#include "cpu/kernels/isa/gemm_half_isa.h"

namespace nn {

constexpr uint32_t kHalfDwNarrowMinChannels = 4;
constexpr uint32_t kHalfDwNarrowMaxChannels = 15;
constexpr uint32_t kHalfDwNarrowMaxFilter = 7;  // filterH and filterW
constexpr uint32_t kHalfDwNarrowMaxTaps = kHalfDwNarrowMaxFilter * kHalfDwNarrowMaxFilter;
namespace isa_avx512fp16 {
// Output rows [rowBegin, rowEnd) of the batches * outH rows of `a` (stride 1, dilation 1 in
// both directions, channels in [kHalfDwNarrowMinChannels, kHalfDwNarrowMaxChannels], filter
// sides at most kHalfDwNarrowMaxFilter, filter packed as for depthwiseHalfRows). Each output
// value's taps inside the input are summed in filter order in one float16 accumulator starting from
// the bias, as depthwiseHalfRows does for a float16 output; a float32 output (`outF`) is that
// float16 result widened.
void depthwiseHalfNarrowRows(const DepthwiseHalfArgs& a, uint32_t rowBegin, uint32_t rowEnd);
}  // namespace isa_avx512fp16

}  // namespace nn
