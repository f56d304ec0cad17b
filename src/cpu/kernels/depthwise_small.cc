// Driver of the narrow-map float32 depthwise kernel (isa/depthwise_small_avx512.cc): which
// shapes take it and how they are split over threads.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/conv_fast.h"

namespace nn {
namespace conv {
namespace {

// 16-channel blocks per work unit: 64 channels, the row kernel's sweep width (kDwChunk), so a
// unit's input columns stay in L1 while its runs slide over them.
constexpr uint32_t kGroupBlocks = 4;

bool smallMapEnabled() {
  // Read once: lets a benchmark or a suspected bug compare against the row kernel / XNNPACK.
  static const bool enabled = [] {
    const char* v = getenv("NNAPI_CPU_DW_SMALL_MAP");
    return v == nullptr || strcmp(v, "0") != 0;
  }();
  return enabled;
}

}  // namespace

bool smallMapDepthwiseAvailable(const Geometry& g) {
  if (convIsaKernels().depthwiseFloatSmallMap == nullptr) return false;
  return g.p.depthMultiplier == 1 && g.p.dilationH == 1 && g.p.dilationW == 1 &&
         (g.filterW == 3 || g.filterW == 5) && (g.p.strideW == 1 || g.p.strideW == 2) &&
         g.inC == g.outC;
}

bool smallMapDepthwisePreferred(const Geometry& g) {
  // Narrow maps: there most pixels are edge pixels (7 wide, 5x5: 4 of 7), which the row
  // kernel takes one at a time and XNNPACK too. Measured on hand_landmark_full (time of each
  // operation, min of 200, one thread) against what ran before: 7x7x1152 5x5 0.37x and
  // 7x7x1152 3x3 0.6x (XNNPACK), 14x14x672 5x5 stride 2 0.55x (XNNPACK), 14x14x480-672 5x5
  // 0.6x (row kernel); 3x3 on 14 columns about 1.05x (XNNPACK) and 5x5 on 28 columns 0.9-1.0x
  // (row kernel), so 3x3 stops at 8 columns and 5x5 at 16. pose_landmark_full/heavy: 8x8x864
  // 5x5 and 3x3 0.5x, 16x16x384-528 5x5 0.65x; but 3x3 stride 2 (16->8, 12->6, 8->4 columns)
  // 1.2-1.6x and maps of at most 4 columns (4x4 and 2x2, 1-3 us each) 1.2-1.8x XNNPACK's time,
  // so those stay there.
  if (!smallMapEnabled() || !smallMapDepthwiseAvailable(g) || g.outW <= 4) return false;
  return g.filterW == 5 ? g.outW <= 16 : g.p.strideW == 1 && g.outW <= 8;
}

void smallMapDepthwiseFloat(const Geometry& g, const float* input, const float* filter,
                            const float* bias, float* output, ThreadPool* pool) {
  ConvDepthwiseFloatArgs a{};
  setFloatArgs(g, input, filter, bias, output, &a);
  a.channels = g.outC;
  a.dilationH = a.dilationW = 1;
  a.depthMultiplier = 1;
  const uint32_t blocks = (g.outC + 15) / 16;
  const size_t groups = (blocks + kGroupBlocks - 1) / kGroupBlocks;
  const size_t units = static_cast<size_t>(g.batches) * g.outH * groups;
  ConvDepthwiseFloatUnitsFn* run = convIsaKernels().depthwiseFloatSmallMap;
  // One contiguous share per thread, cut the way a 1x1 convolution producing this input
  // splits its output (panelGemmSplitsTiles, conv_fast.h), so each thread reads mostly what its
  // own core wrote. The producer's input channel count is not known here: inverted bottlenecks
  // expand by 6 (MobileNetV2/V3, BlazePose), so k = outC / 6 stands in for it. Row-major units in 8 slots taken in any order measured 1.0-1.15x
  // faster on 2 threads than on 1 for 7x7x1152 5x5 (~25 us against 26.5), channel shares
  // ~20 us; a channel split after a row-split producer (28x28x240 stride 2) was slower on 2
  // threads than on 1.
  const size_t threads = pool != nullptr ? static_cast<size_t>(pool->numThreads()) : 1;
  const bool channelSplit =
      panelGemmSplitsTiles(g.inH * g.inW, g.outC, std::max<uint32_t>(1, g.outC / 6), 32, threads);
  runSlots(pool, units, std::min(units, threads), [&](size_t begin, size_t end, size_t) {
    run(a, kGroupBlocks, !channelSplit, begin, end);
  });
}

}  // namespace conv
}  // namespace nn
