// A float32 DEPTHWISE_CONV_2D (the direct kernel, convDepthwiseFloatRowsDirect) and the 1x1
// CONV_2D that alone reads its output (the panel GEMM, panelGemmPreferred), run together in
// rows (depthwise_project.cc): each thread takes a contiguous range of depthwise output rows,
// computes each one into a row buffer that stays in L1 and the 1x1 layer's output row from it
// at once. On a high-resolution map (hand_landmark: 112x112x24 -> 16, the depthwise output
// 1.2 MB) the 1x1 layer otherwise reads the depthwise output back from L3. Same values as the
// two layers run apart (both kernels compute a row from the same values in the same order).
// At 3x3 stride 1 with 24, 40 or 56 channels and at most 16 outputs the row is computed by
// DepthwiseProjectRowFn (isa/conv_isa.h: pixel pairs fill whole vectors where the direct kernel
// leaves half of every third one empty), from a ring of three zero-padded input rows per
// thread, and the stem convolution writing the depthwise input may join the pair (its rows
// computed into that ring: depthwiseProjectStemFusable in expand_depthwise.h).
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
  // Optional: the CONV_2D writing the depthwise layer's input, on the float32 im2col GEMM
  // (stemGemmPreferred: the image models' first layer). With it the pair reads the stem's
  // input and computes each stem output row where the depthwise layer reads it: hand_landmark's
  // 112x112x24 stem output (1.2 MB) is then never written.
  const PackedFloatWeights* stemWeights = nullptr;
  Geometry stem;
  const float* stemBias = nullptr;
};

// Whether the kernels exist for the pair (AVX-512: the direct depthwise kernel and the panel
// GEMM, which the two layers take apart too) and the depthwise output is large enough to gain.
bool depthwiseProjectAvailable(const DepthwiseProject& f);
// Whether the pixel-pair kernel takes the pair (3x3 stride 1, 24, 40 or 56 channels, at most
// 16 outputs; DepthwiseProjectRowFn in isa/conv_isa.h).
bool depthwiseProjectPairsApply(const DepthwiseProject& f);
// Whether f (with f.stem, f.stemWeights and f.stemBias set) can take the stem too: the pixel-pair
// kernel, the stem on the im2col GEMM writing exactly the depthwise layer's input.
bool depthwiseProjectStemAvailable(const DepthwiseProject& f);
// Reads the depthwise layer's input (with a stem: the stem's input), writes the 1x1 layer's
// output.
void depthwiseProjectFloat(const DepthwiseProject& f, const float* input, float* output,
                           ThreadPool* pool, KernelScratch& ks);

}  // namespace conv
}  // namespace nn
