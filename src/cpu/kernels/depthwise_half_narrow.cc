// Driver of the narrow-channel float16 depthwise kernel (depthwise_half_narrow.h).
#include "cpu/kernels/depthwise_half_narrow.h"

#include "cpu/kernels/conv_fast.h"

namespace nn {
namespace conv {

bool halfDepthwiseNarrowShape(uint32_t channels, uint32_t filterH, uint32_t filterW,
                              int32_t strideH, int32_t strideW, int32_t dilationH,
                              int32_t dilationW) {
  return channels >= kHalfDwNarrowMinChannels && channels <= kHalfDwNarrowMaxChannels &&
         strideH == 1 && strideW == 1 && dilationH == 1 && dilationW == 1 && filterH > 0 &&
         filterW > 0 && filterH <= kHalfDwNarrowMaxFilter && filterW <= kHalfDwNarrowMaxFilter;
}

bool halfDepthwiseNarrowPreferred(const Geometry& g) {
  return g.inC == g.outC && g.p.depthMultiplier == 1 && !g.p.nchw &&
         halfDepthwiseNarrowShape(g.inC, g.filterH, g.filterW, g.p.strideH, g.p.strideW,
                                  g.p.dilationH, g.p.dilationW);
}

void halfDepthwiseNarrow(const Geometry& g, const DepthwiseHalfArgs& a, ThreadPool* pool) {
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  ThreadPool* p = depthwisePool(pool, g);
  if (p == nullptr || p->numThreads() <= 1 || rows < 2) {
    isa_avx512fp16::depthwiseHalfNarrowRows(a, 0, static_cast<uint32_t>(rows));
    return;
  }
  p->parallelFor(rows, 1, [&](size_t b, size_t e) {
    isa_avx512fp16::depthwiseHalfNarrowRows(a, static_cast<uint32_t>(b), static_cast<uint32_t>(e));
  });
}

}  // namespace conv
}  // namespace nn
