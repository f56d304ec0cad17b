// Float16 arithmetic for relaxed models (ANeuralNetworksModel_relaxComputationFloat32
// toFloat16) and TENSOR_FLOAT16 operands where the processor has AVX512-FP16: the 1x1
// convolution's GEMM (gemm_half.cc, isa/gemm_half_avx512fp16.cc) and, for relaxed models, the
// depthwise convolution (isa/depthwise_half_avx512fp16.cc). The GEMM reads float32 or float16
// data, rounds its inputs to float16, multiplies in float16 and adds up in float32 (see
// gemm_half_isa.h for the error bound); float16 data comes from the CPU driver's graph pass
// that stores relaxed models' temporaries between these layers in float16 (graph_fusion.h).
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/isa/gemm_half_isa.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {

// Whether this processor and NNAPI_CPU_ISA (below `avx512fp16` it is capped away) have the
// float16 GEMM.
bool halfGemmAvailable();
// Whether the operation may compute in float16: its model is relaxed or its data is
// TENSOR_FLOAT16 (then widened to float32 around the kernels, the arithmetic stays float16).
bool halfArithmeticAllowed(const OpContext& ctx);
// A 1x1 CONV_2D the float16 GEMM takes when halfArithmeticAllowed and halfGemmAvailable: where
// panelGemmPreferred would take the float32 one, and the float16 one measured faster (more than
// 48 output channels filling 32-lane vectors to 3/4 or more, k >= 12; 8..48 output channels,
// the narrow kernel, k >= 64 with float32 data on both sides, else as halfGemmShapePreferred).
bool halfGemmPreferred(const OpContext& ctx, const Geometry& g);
// The shape part of halfGemmPreferred for a 1x1 stride-1 unpadded convolution with n output
// and k input channels with float16 data (the graph pass that stores tensors in float16 asks
// before any kernel exists).
bool halfGemmShapePreferred(uint32_t n, uint32_t k);
// The least k the narrow kernel (8..48 output channels) takes with float16 data.
constexpr uint32_t kHalfNarrowMinK = 24;

// The float16 depthwise convolution (depth multiplier 1, NHWC, float16 input; float16 output, or
// float32 (`outF` instead of `out`, then summed in float32) where the next layer has no float16
// kernel; only
// in relaxed models, whose temporaries between such layers the CPU driver stores in float16,
// graph_fusion.h). Where halfGemmAvailable(); taken for at least kHalfDwMinChannels channels
// (with fewer most of each 32-lane vector would be empty: the float32 kernel does as well),
// and for fewer at stride 1 by the kernel that puts several pixels in a vector
// (depthwise_half_narrow.h).
constexpr uint32_t kHalfDwMinChannels = 16;
struct PackedHalfDepthwise {
  uint32_t channels = 0, taps = 0;
  std::vector<uint16_t> filter;  // [taps][channels rounded up to 32], zero past
  std::vector<uint16_t> bias;    // [channels rounded up to 32]
};
// filter [taps][channels] (the DEPTHWISE_CONV_2D filter [1][H][W][C]), bias [channels] or null.
void packHalfDepthwise(const float* filter, const float* bias, uint32_t taps, uint32_t channels,
                       PackedHalfDepthwise* out);
bool halfDepthwisePreferred(const OpContext& ctx, const Geometry& g);
// The float16 depthwise kernels' arguments for `g`: window, channels and activation range
// (data pointers left null).
DepthwiseHalfArgs halfDepthwiseArgs(const Geometry& g);
void halfDepthwise(const Geometry& g, const Half* in, const PackedHalfDepthwise& w, Half* out,
                   float* outF, ThreadPool* pool);
// A DEPTHWISE_CONV_2D's float16 filter as its init packed it (depthwise_conv2d.cc), where its
// execution takes halfDepthwise; else null. `ctx` after init, g its geometry.
const PackedHalfDepthwise* preparedHalfDepthwise(const OpContext& ctx, const Geometry& g);

// Weights W[n][k] (row-major, k contiguous) rounded to float16 and packed in kHalfTileN-column
// tiles, or up to kHalfNarrowMaxN columns for the narrow kernel (gemm_half_isa.h).
struct PackedHalfWeights {
  uint32_t n = 0, k = 0;
  std::vector<uint16_t> data;
  // Also in the small-n kernel's layout where the shape fits it (halfGemmSmallShape,
  // gemm_half_small_isa.h), else empty.
  std::vector<uint16_t> small;
};
void packHalfWeights(const float* w, uint32_t n, uint32_t k, PackedHalfWeights* out);
void packHalfWeights(const Half* w, uint32_t n, uint32_t k, PackedHalfWeights* out);

// c[m][n] = clamp(bias + a[m][k] * W^T) with row r of a at a + r * lda, in float16 arithmetic;
// `pool` may be null; scratch from `ks` (grown once, then nothing is allocated). Only where
// halfGemmAvailable().
void halfGemmFloat(uint32_t m, const float* a, size_t lda, const PackedHalfWeights& w,
                   const float* bias, int32_t activation, float* c, ThreadPool* pool,
                   KernelScratch& ks);
// halfGemmFloat with float16 data on either side: input from `ah` when not null (else `a`),
// output to `ch` when not null (else `c`), same row strides.
void halfGemmMixed(uint32_t m, const float* a, const Half* ah, size_t lda,
                   const PackedHalfWeights& w, const float* bias, int32_t activation, float* c,
                   Half* ch, ThreadPool* pool, KernelScratch& ks);

}  // namespace conv
}  // namespace nn
