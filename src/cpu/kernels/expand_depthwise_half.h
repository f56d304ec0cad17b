// A relaxed model's float16 1x1 expansion and the 3x3 float16 DEPTHWISE_CONV_2D that alone reads
// its output, run together in row bands (expand_depthwise_half.cc), as the float32 pair of
// expand_depthwise.h: each thread takes a range of depthwise output rows and computes the
// expansion rows each one's window needs into a ring of three float16 rows in its own caches,
// then the depthwise row from them, so the expansion's output (hand_landmark's 112x112x64, 1.6 MB
// in float16) is never written out and read back. Same bits as the two layers run apart: each
// row of either layer is computed by the kernel the layer takes alone (gemmHalfPanels,
// depthwiseHalfRows), whose rows do not depend on the others; a thread whose range starts
// inside another's window computes the shared expansion row again, with the same bits.
#pragma once

#include <cstdint>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {

struct ExpandDepthwiseHalf {
  Geometry expand, depthwise;
  const PackedHalfWeights* weights = nullptr;  // the expansion's (wide layout)
  const float* expandBias = nullptr;
  const PackedHalfDepthwise* depthwiseWeights = nullptr;
};

// Whether the pair qualifies (both layers' float16 kernels given, 3x3 depthwise at stride 2,
// dilation 1, at least kHalfDwMinChannels channels, the expansion's output 1 MB or more on a map
// at least 48 wide, as the float32 pair).
bool expandDepthwiseHalfAvailable(const ExpandDepthwiseHalf& f);
// Reads the expansion's input (float32 `in` or float16 `inHalf`), writes the depthwise layer's
// float16 output; `pool` may be null.
void expandDepthwiseHalf(const ExpandDepthwiseHalf& f, const float* in, const Half* inHalf,
                         Half* out, ThreadPool* pool, KernelScratch& ks);

}  // namespace conv
}  // namespace nn
