// The float16 depthwise convolution of relaxed models for fewer than 16 channels at stride 1
// (isa/depthwise_half_narrow_avx512fp16.cc: several output pixels per 32-lane vector). Such
// layers (face_detection_full_range's 8- and 12-channel bottlenecks) stayed float32 before:
// the by-pixel float16 kernel fills a quarter of its vectors with 8 channels. With this kernel
// their input (the narrow 1x1 before them) is stored in float16 too (graph_fusion.cc).
#pragma once

#include <cstdint>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/isa/depthwise_half_narrow_isa.h"
#include "cpu/thread_pool.h"

namespace nn {
namespace conv {

// The shape rule, for the graph pass (before any kernel exists) and the layer: channels in
// [kHalfDwNarrowMinChannels, kHalfDwNarrowMaxChannels], stride 1 and dilation 1 both ways,
// filter sides at most kHalfDwNarrowMaxFilter.
bool halfDepthwiseNarrowShape(uint32_t channels, uint32_t filterH, uint32_t filterW,
                              int32_t strideH, int32_t strideW, int32_t dilationH,
                              int32_t dilationW);
bool halfDepthwiseNarrowPreferred(const Geometry& g);
// Runs it on `a` (float16 or float32 output), rows split over the pool's threads.
void halfDepthwiseNarrow(const Geometry& g, const DepthwiseHalfArgs& a, ThreadPool* pool);

}  // namespace conv
}  // namespace nn
