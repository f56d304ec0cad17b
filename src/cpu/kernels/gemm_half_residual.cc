// The driver of the float16 1x1 layer + residual ADD fusion (gemm_half_residual.h): the split over
// threads, the row blocks, and which form adds the shortcut.
#include "cpu/kernels/gemm_half_residual.h"

#include <algorithm>

#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/isa/gemm_half_isa.h"
#include "cpu/kernels/isa/gemm_half_small_isa.h"
#include "cpu/kernels/isa/residual_half_isa.h"
#include "spec/ops/common.h"

namespace nn {
namespace conv {
namespace {

// Bytes of one thread's block of convolution output (float32 or float16 values, rows of n):
// with the GEMM's converted rows (none for float16 input) it stays in L1/L2 until the ADD reads
// it. 24 KB: 256 rows of face_detection_short_range's 24-channel 64x64 layers.
constexpr size_t kBlockBytes = 24 * 1024;
// As splitPanelGemm: below this many multiply-adds one thread.
constexpr double kMinParallelMacs = 400000.0;
// Rows per piece of the small-n kernel's split over threads (as gemm_half.cc's).
constexpr size_t kSmallGrain = 256;

}  // namespace

void halfGemmResidual(const HalfGemmResidual& f, ThreadPool* pool, KernelScratch& ks) {
  const PackedHalfWeights& w = *f.weights;
  const uint32_t n = w.n, k = w.k;
  GemmHalfArgs base{};
  base.n = n;
  base.k = k;
  base.lda = k;
  base.packed = w.data.data();
  base.bias = f.bias;
  base.narrow = halfGemmNarrow(n);
  base.feedsAdd = true;
  activationRangeFloat(f.convActivation, &base.outputMin, &base.outputMax);
  const int threads = pool != nullptr ? pool->numThreads() : 1;
  const bool parallel = threads > 1 && static_cast<double>(f.m) * n * k >= kMinParallelMacs;
  const size_t units = (f.m + kHalfRowAlign - 1) / kHalfRowAlign;
  const size_t slots = parallel ? std::min<size_t>(static_cast<size_t>(threads), units) : 1;
  const bool allHalf = f.convHalfOut && f.resH != nullptr && f.outH != nullptr;
  // Where the GEMM apart takes the small-n kernel (float16 data both sides, its shapes:
  // gemm_half.cc), the convolution here does too, so that the bits stay the same.
  const bool small = f.ah != nullptr && f.convHalfOut && !w.small.empty() &&
                     halfGemmSmallShape(n, k);
  // Else where it takes the small-n layout's float32-sum form (float16 input), so does this.
  const bool wide =
      !small && f.ah != nullptr && !w.small.empty() && halfGemmSmallWidePreferred(n, k);
  // The arguments of a GEMM that writes the ADD's output itself: all rows, the input and the
  // output as the fusion has them, the shortcut and the ADD's clamp.
  auto epilogueArgs = [&]() {
    GemmHalfArgs g = base;
    g.m = f.m;
    if (f.ah != nullptr)
      g.ah = reinterpret_cast<const uint16_t*>(f.ah);
    else
      g.a = f.a;
    if (f.outH != nullptr)
      g.ch = reinterpret_cast<uint16_t*>(f.outH);
    else
      g.c = f.out;
    g.residual = true;
    g.resC = f.resC;
    if (f.resH != nullptr)
      g.rh = reinterpret_cast<const uint16_t*>(f.resH);
    else
      g.rf = f.res;
    activationRangeFloat(f.addActivation, &g.addMin, &g.addMax);
    return g;
  };
  if (allHalf && small) {
    // The small-n kernel adds the float16 shortcut to its float16 results in registers
    // (gemm_half_small_isa.h), the same bits as the ADD kernel's.
    GemmHalfArgs g = epilogueArgs();
    g.small = w.small.data();
    auto rows = [&](size_t b, size_t e) {
      isa_avx512fp16::gemmHalfSmallN(g, static_cast<uint32_t>(b), static_cast<uint32_t>(e));
    };
    if (slots > 1)
      pool->parallelFor(f.m, kSmallGrain, rows);
    else
      rows(0, f.m);
    return;
  }
  if (wide && !f.convHalfOut) {
    // The float32-sum form adds the shortcut to its float32 results in registers, as the ADD
    // kernel adds it to the convolution's float32 output (gemm_half_small_isa.h).
    GemmHalfArgs g = epilogueArgs();
    g.small = w.small.data();
    splitPanelGemm(pool, f.m, n, k, n, kHalfRowAlign,
                   [&](uint32_t r0, uint32_t r1, uint32_t, uint32_t, size_t) {
                     isa_avx512fp16::gemmHalfSmallNFloat(g, r0, r1);
                   });
    return;
  }
  if (base.narrow && f.resC < n && !allHalf && !small && !wide) {
    // The narrow kernel adds the shortcut in its epilogue, on the 4x8 blocks still in registers,
    // and writes the ADD's output directly: where the separate pass below would take its
    // slowest form, float32 data row by row for a narrower shortcut (one thread,
    // face_detection_short_range's 64x64x24->28 1x1 + PAD + ADD 0.83x). Elsewhere the pass is
    // as fast or faster (all-float16 data: 32-lane float16 adds; the 24->24 layer with its
    // float32 output 1.06x, the 28->32 float16 one 1.08x in the epilogue).
    GemmHalfArgs g = epilogueArgs();
    g.roundConv = f.convHalfOut;
    const size_t bytes = halfGemmScratchElems(k, n, g.ch != nullptr) * sizeof(uint32_t);
    ks.slots.reserve(slots, bytes);
    if (slots <= 1) {
      isa_avx512fp16::gemmHalfPanels(g, 0, f.m, 0, 1, ks.slots.slot<uint32_t>(0));
      return;
    }
    runSlots(pool, units, slots, [&](size_t b, size_t e, size_t s) {
      isa_avx512fp16::gemmHalfPanels(
          g, static_cast<uint32_t>(b * kHalfRowAlign),
          static_cast<uint32_t>(std::min<size_t>(f.m, e * kHalfRowAlign)), 0, 1,
          ks.slots.slot<uint32_t>(s));
    });
    return;
  }
  ResidualAddHalfArgs add{};
  add.n = n;
  add.resC = f.resC;
  activationRangeFloat(f.addActivation, &add.outputMin, &add.outputMax);
  const size_t elemBytes = f.convHalfOut ? sizeof(uint16_t) : sizeof(float);
  const size_t blockRows = std::max<size_t>(
      kHalfRowAlign, kBlockBytes / (n * elemBytes) / kHalfRowAlign * kHalfRowAlign);
  const size_t gemmBytes = halfGemmScratchElems(k, n, f.convHalfOut) * sizeof(uint32_t);
  const size_t gemmBytesAligned = (gemmBytes + 63) / 64 * 64;
  const size_t slotBytes = gemmBytesAligned + blockRows * n * elemBytes;
  const uint32_t tiles = (n + kHalfTileN - 1) / kHalfTileN;
  ks.slots.reserve(slots, slotBytes);
  // Rows [r0, r1) of one thread, block by block: the GEMM writes the block, the ADD reads it.
  auto runRows = [&](size_t r0, size_t r1, size_t slot) {
    uint8_t* mem = ks.slots.slot<uint8_t>(slot);
    uint32_t* gemmScratch = reinterpret_cast<uint32_t*>(mem);
    void* block = mem + gemmBytesAligned;
    for (size_t b = r0; b < r1; b += blockRows) {
      const size_t len = std::min(blockRows, r1 - b);
      GemmHalfArgs g = base;
      g.m = static_cast<uint32_t>(len);
      if (f.ah != nullptr)
        g.ah = reinterpret_cast<const uint16_t*>(f.ah) + b * k;
      else
        g.a = f.a + b * k;
      if (f.convHalfOut)
        g.ch = static_cast<uint16_t*>(block);
      else
        g.c = static_cast<float*>(block);
      if (small) {
        g.small = w.small.data();
        isa_avx512fp16::gemmHalfSmallN(g, 0, static_cast<uint32_t>(len));
      } else if (wide) {
        g.small = w.small.data();
        isa_avx512fp16::gemmHalfSmallNFloat(g, 0, static_cast<uint32_t>(len));
      } else {
        isa_avx512fp16::gemmHalfPanels(g, 0, static_cast<uint32_t>(len), 0, tiles, gemmScratch);
      }
      ResidualAddHalfArgs r = add;
      if (f.convHalfOut)
        r.ch = static_cast<const uint16_t*>(block);
      else
        r.cf = static_cast<const float*>(block);
      if (f.resH != nullptr)
        r.rh = reinterpret_cast<const uint16_t*>(f.resH) + b * f.resC;
      else
        r.rf = f.res + b * f.resC;
      if (f.outH != nullptr)
        r.oh = reinterpret_cast<uint16_t*>(f.outH) + b * n;
      else
        r.of = f.out + b * n;
      isa_avx512fp16::addResidualRows(r, 0, len);
    }
  };
  if (slots <= 1) {
    runRows(0, f.m, 0);
    return;
  }
  runSlots(pool, units, slots, [&](size_t b, size_t e, size_t s) {
    runRows(b * kHalfRowAlign, std::min<size_t>(f.m, e * kHalfRowAlign), s);
  });
}

}  // namespace conv
}  // namespace nn
