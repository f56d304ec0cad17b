// The first convolution of image models (at most 4 input channels, a window larger than 1x1:
// stemGemmPreferred, conv_fast.h) in a relaxed model whose output the CPU driver stores in
// float16 (graph_fusion.h): the float32 im2col GEMM computes each output row into scratch and
// rounds it to float16 there, so that the layers after the stem start their float16 chain
// from it instead of the first depthwise layer reading float32 and writing float32.
#pragma once

#include <cstdint>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {

// The shape part, for the graph pass before any kernel exists: `outC` output and `inC` input
// channels, a filterH x filterW window, dilation as given; only where the processor has the
// float16 kernels (halfGemmAvailable) and the im2col GEMM.
bool halfStemShapePreferred(uint32_t outC, uint32_t inC, uint32_t filterH, uint32_t filterW,
                            int32_t dilationH, int32_t dilationW);
// A CONV_2D of a relaxed model, NHWC, float32 input and float16 output, of that shape.
bool halfStemPreferred(const OpContext& ctx, const Geometry& g);
// stemGemmFloat with the output rounded to float16.
void stemGemmHalfOut(const Geometry& g, const float* input, const PackedFloatWeights& w,
                     const float* bias, Half* output, ThreadPool* pool, KernelScratch& ks);

}  // namespace conv
}  // namespace nn
