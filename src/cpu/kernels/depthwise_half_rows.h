// The float16 depthwise convolution by channel group (isa/depthwise_half_rows_avx512fp16.cc):
// which layers take it and its split over threads.
#pragma once

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/isa/gemm_half_isa.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {

// Whether the by-channel-group kernel takes a float16-output depthwise layer of this geometry
// (its filter width and stride, output rows of any width).
bool halfDepthwiseChannelRowsPreferred(const Geometry& g);
// Runs it on `a` (a.out set, a.outF null), split over the pool's threads as the float16 GEMM
// that produced the input split its output (conv_fast.h, splitPanelGemm).
void halfDepthwiseChannelRows(const Geometry& g, const DepthwiseHalfArgs& a, ThreadPool* pool);

}  // namespace conv
}  // namespace nn
