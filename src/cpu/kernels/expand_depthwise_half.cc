// The float16 expansion + depthwise band fusion (expand_depthwise_half.h).
#include "cpu/kernels/expand_depthwise_half.h"

#include <algorithm>
#include <cstring>

#include "cpu/kernels/isa/gemm_half_isa.h"

namespace nn {
namespace conv {
namespace {

// As the float32 pair (gemm_float.cc): a smaller expansion output stays in L2 between the
// layers anyway, and a narrow map's rows are too short for the row GEMM calls.
constexpr double kMinHalfBandFusionBytes = 1024.0 * 1024.0;
constexpr uint32_t kMinHalfBandFusionWidth = 48;
constexpr uint32_t kRing = 3;  // expansion rows a 3x3 window reads

}  // namespace

bool expandDepthwiseHalfAvailable(const ExpandDepthwiseHalf& f) {
  const Geometry &e = f.expand, &d = f.depthwise;
  if (!halfGemmAvailable() || f.weights == nullptr || f.depthwiseWeights == nullptr ||
      halfGemmNarrow(f.weights->n) || e.p.nchw || d.p.nchw)
    return false;
  if (e.filterH != 1 || e.filterW != 1 || e.p.strideH != 1 || e.p.strideW != 1 ||
      e.p.padTop != 0 || e.p.padLeft != 0 || e.inH != e.outH || e.inW != e.outW)
    return false;
  // Stride 2 only. At stride 1 (pose_landmark_heavy's and _full's 64x64x128..192 layers, 1.2-1.5
  // MB) the pair measured as slow as the layers apart or slower, one thread: the ring keeps
  // two of three rows from one output row to the next (moved, 2 x 18-24 KB per row) and the
  // 64-pixel row GEMMs are short; at stride 2 (hand_landmark's 112x112x16->64, pose_landmark's
  // 128x128x16->64 and x24->96) it took 0.85-0.9x their time on one thread; hand_landmark's
  // on two threads, each its own range of rows, 72-92 us against 86-104 apart (lite and full,
  // per-operation medians, in turn in one window).
  if (d.filterH != 3 || d.filterW != 3 || d.p.strideH != 2 ||
      d.p.dilationH != 1 || d.p.dilationW != 1 || d.p.depthMultiplier != 1 ||
      d.inC < kHalfDwMinChannels || d.inC != d.outC || f.depthwiseWeights->channels != d.inC ||
      f.depthwiseWeights->taps != 9)
    return false;
  if (e.batches != d.batches || e.outH != d.inH || e.outW != d.inW || e.outC != d.inC ||
      f.weights->n != e.outC || f.weights->k != e.inC)
    return false;
  return 2.0 * e.batches * e.outH * e.outW * e.outC >= kMinHalfBandFusionBytes &&
         e.outW >= kMinHalfBandFusionWidth;
}

void expandDepthwiseHalf(const ExpandDepthwiseHalf& f, const float* in, const Half* inHalf,
                         Half* out, ThreadPool* pool, KernelScratch& ks) {
  const Geometry &e = f.expand, &d = f.depthwise;
  const PackedHalfWeights& w = *f.weights;
  const uint32_t C = d.inC, inW = d.inW, inH = d.inH, outH = d.outH, outW = d.outW;
  const size_t rowElems = static_cast<size_t>(inW) * C;  // float16 values per expansion row
  const size_t inRow = static_cast<size_t>(inW) * e.inC;   // input values per expansion row
  // The expansion's arguments as halfGemmMixed gives them (gemm_half.cc), one row at a time.
  GemmHalfArgs ga{};
  ga.m = inW;
  ga.n = w.n;
  ga.k = w.k;
  ga.lda = e.inC;
  ga.packed = w.data.data();
  ga.bias = f.expandBias;
  ga.narrow = false;
  activationRangeFloat(e.p.activation, &ga.outputMin, &ga.outputMax);
  const uint32_t tiles = (w.n + kHalfTileN - 1) / kHalfTileN;
  // The depthwise layer's as halfDepthwise gives them, one output row at a time (its input
  // height and top padding set per row).
  DepthwiseHalfArgs da = halfDepthwiseArgs(d);
  da.outH = 1;
  da.filter = f.depthwiseWeights->filter.data();
  da.bias = f.depthwiseWeights->bias.data();
  const size_t gemmScratch = halfGemmScratchElems(w.k, w.n, true) * sizeof(uint32_t);
  const size_t ringBytes = kRing * rowElems * sizeof(uint16_t);
  const size_t rows = static_cast<size_t>(d.batches) * outH;
  // One contiguous range of output rows per thread, each with its own ring and GEMM scratch:
  // the expansion rows two ranges' windows share are computed by both.
  const size_t slots =
      std::min(rows, pool != nullptr ? static_cast<size_t>(std::max(1, pool->numThreads())) : 1);
  ks.slots.reserve(slots, (ringBytes + 63) / 64 * 64 + gemmScratch);
  runSlots(pool, rows, slots, [&](size_t rowBegin, size_t rowEnd, size_t slot) {
    uint8_t* base = ks.slots.slot<uint8_t>(slot);
    uint16_t* ring = reinterpret_cast<uint16_t*>(base);
    uint32_t* scratch = reinterpret_cast<uint32_t*>(base + (ringBytes + 63) / 64 * 64);
    // The ring holds expansion rows [held, held + count) of image heldB in slots 0.. in order.
    size_t heldB = SIZE_MAX;
    int64_t held = 0, count = 0;
    for (size_t r = rowBegin; r < rowEnd; ++r) {
      const size_t b = r / outH;
      const int64_t oh = static_cast<int64_t>(r % outH);
      const int64_t top = oh * d.p.strideH - d.p.padTop;  // input row of tap kh = 0
      const int64_t lo = std::max<int64_t>(top, 0);
      const int64_t hi = std::min<int64_t>(top + 3, inH);
      if (b != heldB) count = 0;
      // Keep the rows this window shares with the last one, moved to the front.
      int64_t keep = 0;
      if (count > 0 && lo >= held && lo < held + count) {
        keep = std::min(held + count, hi) - lo;
        if (lo > held)
          std::memmove(ring, ring + static_cast<size_t>(lo - held) * rowElems,
                       static_cast<size_t>(keep) * rowElems * sizeof(uint16_t));
      }
      for (int64_t ih = lo + keep; ih < hi; ++ih) {
        GemmHalfArgs g = ga;
        const size_t src = (b * inH + static_cast<size_t>(ih)) * inRow;
        if (inHalf != nullptr) {
          g.ah = reinterpret_cast<const uint16_t*>(inHalf) + src;
        } else {
          g.a = in + src;
        }
        g.ch = ring + static_cast<size_t>(ih - lo) * rowElems;
        isa_avx512fp16::gemmHalfPanels(g, 0, inW, 0, tiles, scratch);
      }
      heldB = b;
      held = lo;
      count = hi - lo;
      // Output row oh as row 0 of a layer whose input is the ring's rows (top padding the rows
      // of the window above the image, height the rows held).
      DepthwiseHalfArgs a = da;
      a.in = ring;
      a.inH = static_cast<uint32_t>(count);
      a.padTop = static_cast<int32_t>(lo - top);
      a.out = reinterpret_cast<uint16_t*>(out) + r * static_cast<size_t>(outW) * C;
      isa_avx512fp16::depthwiseHalfRows(a, 0, 1);
    }
  });
}

}  // namespace conv
}  // namespace nn
