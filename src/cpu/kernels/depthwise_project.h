// A float32 DEPTHWISE_CONV_2D (the direct kernel, convDepthwiseFloatRowsDirect) and the 1x1
// CONV_2D that alone reads its output (the panel GEMM, panelGemmPreferred), run together in
// rows (depthwise_project.cc): each thread takes a contiguous range of depthwise output rows,
// computes each one into a row buffer that stays in L1 and the 1x1 layer's output row from it
// at once. On a high-resolution map (hand_landmark: 112x112x24 -> 16, the depthwise output
// 1.2 MB) the 1x1 layer otherwise reads the depthwise output back from L3. Same values as the
// two layers run apart (both kernels compute a row from the same values in the same order).
#pragma once

#include <cstdint>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {

struct DepthwiseProject {
  Geometry depthwise, project;
  const float* depthwiseFilter = nullptr;  // [kh][kw][channels], float32
  const float* depthwiseBias = nullptr;
  const PackedFloatWeights* weights = nullptr;  // the 1x1 layer's, packed for the panel GEMM
  const float* projectBias = nullptr;
};

// Whether the kernels exist for the pair (AVX-512: the direct depthwise kernel and the panel
// GEMM, which the two layers take apart too) and the depthwise output is large enough to gain.
bool depthwiseProjectAvailable(const DepthwiseProject& f);
// Reads the depthwise layer's input, writes the 1x1 layer's output.
void depthwiseProjectFloat(const DepthwiseProject& f, const float* input, float* output,
                           ThreadPool* pool, KernelScratch& ks);

}  // namespace conv
}  // namespace nn
