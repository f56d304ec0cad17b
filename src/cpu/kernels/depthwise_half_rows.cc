// Driver of the by-channel-group float16 depthwise kernel (depthwise_half_rows.h).
#include "cpu/kernels/depthwise_half_rows.h"

#include <algorithm>

#include "cpu/kernels/conv_fast.h"

namespace nn {
namespace conv {

bool halfDepthwiseChannelRowsPreferred(const Geometry& g) {
  // Narrow maps, one run per row. Measured on hand_landmark_full/lite (relaxed, each layer's
  // time interleaved in one process against depthwise_half_avx512fp16.cc, min of 300): 7x7
  // 5x5 and 3x3 stride 1 0.43-0.56 on one thread, 0.43-0.5 on two; 14x14 stride 1 0.69-0.92
  // (two threads 0.75-0.95); 14x14 -> 7x7 stride 2 0.61-0.63 (two threads 0.84-1.03). Not:
  // 28x28 -> 14x14 stride 2 1.0-1.15 (two threads 1.15-1.23), 28x28 stride 1 0.88-1.03, and
  // 56- and 112-wide maps 1.3-1.6 (there one group's input no longer stays in L1 from row
  // to row, and the whole input is read once per group from L2).
  if (g.outW > kHalfDwRowMaxRun || (g.p.strideW != 1 && g.outW > 8)) return false;
  // The shapes isa/depthwise_half_rows_avx512fp16.cc has register forms for.
  return (g.filterW == 3 || g.filterW == 5) && (g.p.strideW == 1 || g.p.strideW == 2) &&
         g.p.dilationW == 1;
}

void halfDepthwiseChannelRows(const Geometry& g, const DepthwiseHalfArgs& a, ThreadPool* pool) {
  const uint32_t rows = g.batches * g.outH;
  const uint32_t groups = (g.outC + kHalfDwLanes - 1) / kHalfDwLanes;
  ThreadPool* p = depthwisePool(pool, g);
  const size_t threads = p != nullptr ? static_cast<size_t>(p->numThreads()) : 1;
  if (threads <= 1 || rows < 2) {
    isa_avx512fp16::depthwiseHalfChannelRows(a, 0, rows, 0, groups);
    return;
  }
  // Each thread takes the share of the input its core wrote: the channels of its weight tiles
  // where the producing 1x1 convolution split tiles, else its rows. The producer's input
  // channel count is not known here: inverted bottlenecks expand by 6 (as depthwise_small.cc).
  const bool channelSplit = panelGemmSplitsTiles(g.inH * g.inW, g.outC,
                                                 std::max<uint32_t>(1, g.outC / 6), kHalfTileN,
                                                 threads);
  const uint32_t tiles = (g.outC + kHalfTileN - 1) / kHalfTileN;
  const size_t slots = std::min<size_t>(threads, channelSplit ? tiles : rows);
  runSlots(p, slots, slots, [&](size_t s, size_t, size_t) {
    if (channelSplit) {
      const uint32_t perTile = kHalfTileN / kHalfDwLanes;
      const uint32_t t0 = static_cast<uint32_t>(tiles * s / slots);
      const uint32_t t1 = static_cast<uint32_t>(tiles * (s + 1) / slots);
      isa_avx512fp16::depthwiseHalfChannelRows(a, 0, rows, t0 * perTile,
                                               std::min(groups, t1 * perTile));
    } else {
      isa_avx512fp16::depthwiseHalfChannelRows(a, static_cast<uint32_t>(rows * s / slots),
                                               static_cast<uint32_t>(rows * (s + 1) / slots), 0,
                                               groups);
    }
  });
}

}  // namespace conv
}  // namespace nn
