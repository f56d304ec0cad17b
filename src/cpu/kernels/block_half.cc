// The driver of the float16 inverted bottleneck (block_half.h): packing the threads' shares
// and the one parallel region.
#include "cpu/kernels/block_half.h"

#include <algorithm>
#include <atomic>
#include <limits>

#include <emmintrin.h>  // _mm_pause (SSE2: baseline x86-64)

#include "cpu/kernels/isa/block_half_isa.h"
#include "spec/ops/common.h"

namespace nn {
namespace conv {
namespace {

size_t align64(size_t bytes) { return (bytes + 63) / 64 * 64; }
// Share boundaries at multiples of 32 channels, the nearest to equal shares: the GEMM's
// 64-column tiles run a tail of up to 32 columns at half the cost and the depthwise kernel
// works in 32-channel vectors, so this balances the work better than equal channel counts
// (144 hidden channels: 64 + 80, 1 and 1.5 tiles, where 72 + 72 took 2 tiles each).
uint32_t boundary(uint32_t h, uint32_t s, uint32_t chunks) {
  return std::min(h, (h * s / chunks + 16) / 32 * 32);
}
uint32_t tilesOf(uint32_t n) { return halfGemmNarrow(n) ? 1 : (n + kHalfTileN - 1) / kHalfTileN; }

}  // namespace

void packHalfBlock(const float* expand, const float* expandBias, const float* depthwise,
                   const float* depthwiseBias, const float* project, uint32_t k, uint32_t h,
                   uint32_t n, uint32_t taps, uint32_t chunks, PackedHalfBlock* out) {
  out->chunks.clear();
  out->chunks.resize(chunks);
  std::vector<float> tmp;
  for (uint32_t s = 0; s < chunks; ++s) {
    HalfBlockChunk& c = out->chunks[s];
    c.c0 = s == 0 ? 0 : boundary(h, s, chunks);
    c.c1 = s + 1 == chunks ? h : boundary(h, s + 1, chunks);
    const uint32_t w = c.c1 - c.c0;
    packHalfWeights(expand + static_cast<size_t>(c.c0) * k, w, k, &c.expand);
    c.expandBias.assign(expandBias + c.c0, expandBias + c.c1);
    tmp.resize(static_cast<size_t>(taps) * w);
    for (uint32_t t = 0; t < taps; ++t)
      std::copy(depthwise + static_cast<size_t>(t) * h + c.c0,
                depthwise + static_cast<size_t>(t) * h + c.c1, tmp.begin() + t * w);
    packHalfDepthwise(tmp.data(), depthwiseBias + c.c0, taps, w, &c.depthwise);
    tmp.resize(static_cast<size_t>(n) * w);
    for (uint32_t j = 0; j < n; ++j)
      std::copy(project + static_cast<size_t>(j) * h + c.c0,
                project + static_cast<size_t>(j) * h + c.c1, tmp.begin() + j * w);
    packHalfWeights(tmp.data(), n, w, &c.project);
  }
}

void halfBlock(const HalfBlock& f, ThreadPool* pool, KernelScratch& ks) {
  const std::vector<HalfBlockChunk>& chunks = f.packed->chunks;
  const size_t parts = chunks.size();
  uint32_t maxW = 0;
  for (const HalfBlockChunk& c : chunks) maxW = std::max(maxW, c.c1 - c.c0);
  // One slot per share: its expanded map, its depthwise output, its partial sums, the GEMMs'
  // row scratch.
  const size_t eBytes = align64(static_cast<size_t>(f.inPixels) * maxW * sizeof(uint16_t));
  const size_t dBytes = align64(static_cast<size_t>(f.outPixels) * maxW * sizeof(uint16_t));
  const size_t pBytes = align64(static_cast<size_t>(f.outPixels) * f.n * sizeof(float));
  const size_t sBytes = std::max(halfGemmScratchElems(f.k, maxW, true),
                                 halfGemmScratchElems(maxW, f.n, false)) *
                        sizeof(uint32_t);
  ks.slots.reserve(parts, eBytes + dBytes + pBytes + sBytes);
  const uint32_t dwRows = f.depthwise.outH * (f.outPixels / (f.depthwise.outH * f.depthwise.outW));
  auto share = [&](size_t s) {
    const HalfBlockChunk& c = chunks[s];
    const uint32_t w = c.c1 - c.c0;
    uint8_t* mem = ks.slots.slot<uint8_t>(s);
    uint16_t* expanded = reinterpret_cast<uint16_t*>(mem);
    uint16_t* dwOut = reinterpret_cast<uint16_t*>(mem + eBytes);
    float* partial = reinterpret_cast<float*>(mem + eBytes + dBytes);
    uint32_t* scratch = reinterpret_cast<uint32_t*>(mem + eBytes + dBytes + pBytes);
    GemmHalfArgs e{};
    e.m = f.inPixels;
    e.n = w;
    e.k = f.k;
    e.lda = f.k;
    e.a = f.a;
    e.ah = reinterpret_cast<const uint16_t*>(f.ah);
    e.packed = c.expand.data.data();
    e.bias = c.expandBias.data();
    e.narrow = halfGemmNarrow(w);
    activationRangeFloat(f.expandActivation, &e.outputMin, &e.outputMax);
    e.ch = expanded;
    isa_avx512fp16::gemmHalfPanels(e, 0, e.m, 0, tilesOf(w), scratch);
    DepthwiseHalfArgs d = f.depthwise;
    d.channels = w;
    d.in = expanded;
    d.filter = c.depthwise.filter.data();
    d.bias = c.depthwise.bias.data();
    d.out = dwOut;
    d.outF = nullptr;
    if (f.depthwiseChannelRows)
      isa_avx512fp16::depthwiseHalfChannelRows(d, 0, dwRows, 0,
                                               (w + kHalfDwLanes - 1) / kHalfDwLanes);
    else
      isa_avx512fp16::depthwiseHalfRows(d, 0, dwRows);
    GemmHalfArgs p{};
    p.m = f.outPixels;
    p.n = f.n;
    p.k = w;
    p.lda = w;
    p.ah = dwOut;
    p.packed = c.project.data.data();
    p.bias = nullptr;
    p.narrow = halfGemmNarrow(f.n);
    p.outputMin = -std::numeric_limits<float>::infinity();
    p.outputMax = std::numeric_limits<float>::infinity();
    p.c = partial;
    isa_avx512fp16::gemmHalfPanels(p, 0, p.m, 0, tilesOf(f.n), scratch);
  };
  BlockReduceHalfArgs r{};
  r.n = f.n;
  r.parts = static_cast<uint32_t>(parts);
  for (size_t s = 0; s < parts; ++s)
    r.partial[s] = reinterpret_cast<const float*>(ks.slots.slot<uint8_t>(s) + eBytes + dBytes);
  r.bias = f.projectBias;
  activationRangeFloat(f.projectActivation, &r.convMin, &r.convMax);
  r.roundConv = f.roundProject;
  r.rh = reinterpret_cast<const uint16_t*>(f.resH);
  r.rf = f.res;
  activationRangeFloat(f.addActivation, &r.addMin, &r.addMax);
  r.oh = reinterpret_cast<uint16_t*>(f.outH);
  r.of = f.out;
  // The reduction in pieces of rows, taken by whichever shares are there to take them: the
  // last share to finish, and each other one that finished while all the rest were running
  // (then on other threads: it waits for them and shares the pass). A share finishing while
  // another has not started does not wait (that one may be queued behind it on the same
  // thread, when the pool runs the slots one after the other).
  const size_t pieceRows = std::max<size_t>(8, (f.outPixels + 4 * parts - 1) / (4 * parts));
  const uint32_t pieces = static_cast<uint32_t>((f.outPixels + pieceRows - 1) / pieceRows);
  std::atomic<uint32_t> started{0}, done{0}, next{0};
  runSlots(pool, parts, parts, [&](size_t b, size_t e, size_t) {
    for (size_t s = b; s < e; ++s) {
      started.fetch_add(1, std::memory_order_acq_rel);
      share(s);
      if (done.fetch_add(1, std::memory_order_acq_rel) + 1 < parts) {
        if (started.load(std::memory_order_acquire) < parts) continue;
        while (done.load(std::memory_order_acquire) < parts) _mm_pause();
      }
      for (uint32_t p = next.fetch_add(1, std::memory_order_relaxed); p < pieces;
           p = next.fetch_add(1, std::memory_order_relaxed)) {
        isa_avx512fp16::reduceBlockHalf(r, p * pieceRows,
                                        std::min<size_t>(f.outPixels, (p + 1) * pieceRows));
      }
    }
  });
}

}  // namespace conv
}  // namespace nn
