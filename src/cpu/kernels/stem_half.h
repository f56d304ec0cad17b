// The first convolution of image models (at most 4 input channels, a window larger than 1x1)
// in relaxed models on processors with the float16 kernels (halfGemmAvailable):
// - up to 32 output channels: computed in float16 (isa/stem_half_avx512fp16.cc: all output
//   channels of a pixel in one 32-lane vector, each output row's window rows rounded into a
//   zero-padded copy in L1), writing float16 where the CPU driver stores the output in float16
//   (graph_fusion.h: then the first depthwise layer starts the float16 chain), else float32
//   (from kHalfStemFloatOutMinK taps);
// - more channels, float16 output: the float32 im2col GEMM (stemGemmPreferred, conv_fast.h)
//   rounding each output row.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {

// The shape part, for the graph pass before any kernel exists (output may be float16): `outC`
// output and `inC` input channels, a filterH x filterW window, dilation as given.
bool halfStemShapePreferred(uint32_t outC, uint32_t inC, uint32_t filterH, uint32_t filterW,
                            int32_t dilationH, int32_t dilationW);
// A CONV_2D of a relaxed model, NHWC, float32 input, float16 output, of that shape.
bool halfStemPreferred(const OpContext& ctx, const Geometry& g);
// stemGemmFloat with the output rounded to float16.
void stemGemmHalfOut(const Geometry& g, const float* input, const PackedFloatWeights& w,
                     const float* bias, Half* output, ThreadPool* pool, KernelScratch& ks);

// The float16 kernel: a relaxed model's stem of that shape with at most 32 output channels,
// float32 input, float16 or float32 output, constant float32 filter.
// With a float32 output from filterH * filterW * inC = kHalfStemFloatOutMinK only.
constexpr uint32_t kHalfStemFloatOutMinK = 48;
bool halfStemKernelPreferred(const OpContext& ctx, const Geometry& g);
struct PackedHalfStem {
  uint32_t n = 0, filterH = 0, filterW = 0, channels = 0;
  std::vector<uint16_t> w;  // [filterH][filterW * channels][32] float16 bits, zero past n
};
// filter [n][filterH][filterW][channels] (OHWI).
void packHalfStem(const float* filter, uint32_t n, uint32_t filterH, uint32_t filterW,
                  uint32_t channels, PackedHalfStem* out);
// Output float16 `out`, or float32 `outF` when `out` is null; `bias` may be null.
void halfStemConv(const Geometry& g, const float* in, const PackedHalfStem& w, const float* bias,
                  Half* out, float* outF, ThreadPool* pool, KernelScratch& ks);

}  // namespace conv
}  // namespace nn
