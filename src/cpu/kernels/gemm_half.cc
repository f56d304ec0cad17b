// The driver of the float16 GEMM (isa/gemm_half_avx512fp16.cc): which operations may
// take it, weight packing, and the split over threads (as gemm_float.cc's).
#include "cpu/kernels/gemm_half.h"

#include <algorithm>
#include <cstring>

#include "cpu/isa.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/depthwise_half_narrow.h"
#include "cpu/kernels/depthwise_half_rows.h"
#include "cpu/kernels/isa/gemm_half_isa.h"
#include "cpu/kernels/isa/gemm_half_small_isa.h"

namespace nn {
namespace conv {
namespace {

uint16_t bits(Half h) {
  uint16_t b;
  std::memcpy(&b, &h, sizeof(b));
  return b;
}

// The small-n layout (gemm_half_small_isa.h): [quad j][group v][lane 4c + i] = weight of
// column 8v + c, input 4j + i.
template <typename T>
void packSmall(const T* w, uint32_t n, uint32_t k, PackedHalfWeights* out) {
  out->small.clear();
  if (!halfGemmSmallWidePreferred(n, k)) return;
  const uint32_t groups = (n + kHalfNarrowGroup - 1) / kHalfNarrowGroup;
  out->small.assign(halfGemmSmallElems(n, k), 0);
  for (uint32_t col = 0; col < n; ++col)
    for (uint32_t kk = 0; kk < k; ++kk)
      out->small[(static_cast<size_t>(kk / 4) * groups + col / 8) * 32 + (col % 8) * 4 + kk % 4] =
          bits(static_cast<Half>(w[static_cast<size_t>(col) * k + kk]));
}

template <typename T>
void pack(const T* w, uint32_t n, uint32_t k, PackedHalfWeights* out) {
  out->n = n;
  out->k = k;
  packSmall(w, n, k, out);
  if (halfGemmNarrow(n)) {
    // [k][group][column j of 8][4 copies]: lane 4j + i of a group's vector multiplies row i of
    // a 4-row group by column 8 * group + j.
    const uint32_t groups = (n + kHalfNarrowGroup - 1) / kHalfNarrowGroup;
    const size_t stride = static_cast<size_t>(groups) * kHalfNarrowGroup * 4;
    out->data.assign(stride * k, 0);
    for (uint32_t col = 0; col < n; ++col) {
      const T* src = w + static_cast<size_t>(col) * k;
      for (uint32_t kk = 0; kk < k; ++kk) {
        const uint16_t b = bits(static_cast<Half>(src[kk]));
        for (uint32_t i = 0; i < 4; ++i) out->data[kk * stride + col * 4 + i] = b;
      }
    }
    return;
  }
  const uint32_t tiles = (n + kHalfTileN - 1) / kHalfTileN;
  out->data.assign(static_cast<size_t>(tiles) * k * kHalfTileN, 0);
  for (uint32_t col = 0; col < n; ++col) {
    uint16_t* dst = out->data.data() + static_cast<size_t>(col / kHalfTileN) * k * kHalfTileN +
                    col % kHalfTileN;
    const T* src = w + static_cast<size_t>(col) * k;
    for (uint32_t kk = 0; kk < k; ++kk) dst[static_cast<size_t>(kk) * kHalfTileN] =
        bits(static_cast<Half>(src[kk]));
  }
}

}  // namespace

bool halfGemmAvailable() {
  const CpuFeatures& f = cpuFeatures();
  return f.avx512fp16 && isaLevel() >= IsaLevel::kAvx512;
}

bool halfArithmeticAllowed(const OpContext& ctx) {
  return ctx.relaxed() || ctx.inputType(0) == OperandType::TENSOR_FLOAT16;
}

namespace {
// Measured with the 64-column tiles: at least 32 output channels filling 32-lane vectors to
// 3/4 or more, k >= 12 (32 and 48 columns now run on the narrow kernel, at about the same
// speed: 24x24x64->32 1.04 against 1.01 with float32 data).
bool wideRule(uint32_t n, uint32_t k) {
  const uint32_t lanes = (n + 31) / 32 * 32;
  return n >= 32 && 4 * n >= 3 * lanes && k >= 12;
}
}  // namespace

bool halfGemmPreferred(const OpContext& ctx, const Geometry& g) {
  // nnapi_bench_direct --half, one thread, the 1x1 layers of the MediaPipe models: 0.5-0.7x
  // the float32 panel GEMM's time with many channels, 0.85-1.0 with k <= 48 (the per-row
  // conversion and the float32 flushes weigh more), slower with k = 8, or where the last 32-lane
  // float16 vector of a 64-column tile is mostly empty (n = 65..87). Up to kHalfNarrowMaxN
  // columns (the narrow kernel, 8-column groups): with float32 data on both sides 0.7-0.8 from
  // k = 64 (56x56x144->24 0.71, 112x112x64->24 0.78, 28x28x240->40 0.76), 1.0-1.3 below
  // (the conversion of each input row dominates: 112x112x24->16 1.21, 48x48x48->16 1.11); with
  // float16 data see halfGemmShapePreferred.
  if (!halfGemmAvailable() || !halfArithmeticAllowed(ctx) || !panelGemmPreferred(g)) return false;
  const uint32_t n = g.outC, k = g.filterH * g.filterW * g.inC;
  const bool halfData = ctx.inputType(0) == OperandType::TENSOR_FLOAT16 ||
                        ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16;
  if (halfData || !halfGemmNarrow(n) || wideRule(n, k)) return halfGemmShapePreferred(n, k);
  return n >= kHalfNarrowGroup && k >= 64;
}

bool halfGemmShapePreferred(uint32_t n, uint32_t k) {
  if (!halfGemmAvailable() || !panelGemmAvailable()) return false;
  // The narrow kernel on float16 data ("float16 data" lines of nnapi_bench_direct --half):
  // 0.53-0.65 of the float32 GEMM's time from k = 48 (56x56x144->24 0.57, 112x112x64->24 0.53,
  // 64x64x48->39 0.60, 48x48x48->16 0.93), 0.9-1.2 below. From k = 24 as well: on its own the
  // layer is no faster there, but BlazeFace's blocks (depthwise -> 1x1 to 24-42 channels with
  // k = 24-36, then ADD) otherwise break the float16 chain at every 1x1: the depthwise layer
  // before it then reads float16 and sums and writes float32. face_detection_short_range, one
  // thread, per operation: 32x32 depthwise 8.0 -> 3.1 us and 11.8 -> 6.0, the 1x1 after them
  // 18.3 -> 12.9 and 20.1 -> 18.1, the 64x64 depthwise 31 -> 12; whole model 0.92x. Relaxed
  // agreement (tests/tflite_e2e_test.cc, seed 5): face short range 0.0037 -> 0.0074, full range
  // 0.0053 -> 0.0065 of max |fp32| (over `nnapi run` seeds 1-8 worst 0.0068 -> 0.0081 and
  // 0.0063 -> 0.0036); the hand models' figures do not change (their narrow layers with k < 48
  // read float32: the stem's 112x112x24 output). Not below k = 24: the float32 narrow outputs
  // (graph_fusion.cc, kHalfStoreMinColumns) feed 1x1 layers with k = 8-16 there, which would
  // then read float32 rows into the narrow kernel (96x96x8->32 35 -> 57 us).
  if (wideRule(n, k)) return true;
  return halfGemmNarrow(n) && n >= kHalfNarrowGroup && k >= kHalfNarrowMinK;
}

bool halfDepthwisePreferred(const OpContext& ctx, const Geometry& g) {
  return halfGemmAvailable() && ctx.relaxed() && !g.p.nchw && g.p.depthMultiplier == 1 &&
         (g.inC >= kHalfDwMinChannels || halfDepthwiseNarrowPreferred(g)) && g.inC == g.outC &&
         ctx.inputType(0) == OperandType::TENSOR_FLOAT16 &&
         (ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16 ||
          ctx.outputShape(0).type == OperandType::TENSOR_FLOAT32);
}

void packHalfDepthwise(const float* filter, const float* bias, uint32_t taps, uint32_t channels,
                       PackedHalfDepthwise* out) {
  const size_t stride = (channels + kHalfDwLanes - 1) / kHalfDwLanes * kHalfDwLanes;
  out->channels = channels;
  out->taps = taps;
  out->filter.assign(stride * taps, 0);
  out->bias.assign(stride, 0);
  for (uint32_t t = 0; t < taps; ++t)
    for (uint32_t c = 0; c < channels; ++c)
      out->filter[t * stride + c] = bits(static_cast<Half>(filter[static_cast<size_t>(t) * channels + c]));
  if (bias != nullptr)
    for (uint32_t c = 0; c < channels; ++c) out->bias[c] = bits(static_cast<Half>(bias[c]));
}

DepthwiseHalfArgs halfDepthwiseArgs(const Geometry& g) {
  DepthwiseHalfArgs a{};
  a.inH = g.inH;
  a.inW = g.inW;
  a.channels = g.inC;
  a.outH = g.outH;
  a.outW = g.outW;
  a.filterH = g.filterH;
  a.filterW = g.filterW;
  a.strideH = g.p.strideH;
  a.strideW = g.p.strideW;
  a.padTop = g.p.padTop;
  a.padLeft = g.p.padLeft;
  a.dilationH = g.p.dilationH;
  a.dilationW = g.p.dilationW;
  activationRangeFloat(g.p.activation, &a.outputMin, &a.outputMax);
  return a;
}

void halfDepthwise(const Geometry& g, const Half* in, const PackedHalfDepthwise& w, Half* out,
                   float* outF, ThreadPool* pool) {
  DepthwiseHalfArgs a = halfDepthwiseArgs(g);
  a.in = reinterpret_cast<const uint16_t*>(in);
  a.filter = w.filter.data();
  a.bias = w.bias.data();
  a.out = reinterpret_cast<uint16_t*>(out);
  a.outF = outF;
  if (g.inC < kHalfDwMinChannels) {
    halfDepthwiseNarrow(g, a, pool);
    return;
  }
  if (out != nullptr && halfDepthwiseChannelRowsPreferred(g)) {
    halfDepthwiseChannelRows(g, a, pool);
    return;
  }
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  ThreadPool* p = depthwisePool(pool, g);
  if (p == nullptr || p->numThreads() <= 1 || rows < 2) {
    isa_avx512fp16::depthwiseHalfRows(a, 0, static_cast<uint32_t>(rows));
    return;
  }
  p->parallelFor(rows, 1, [&](size_t b, size_t e) {
    isa_avx512fp16::depthwiseHalfRows(a, static_cast<uint32_t>(b), static_cast<uint32_t>(e));
  });
}

void packHalfWeights(const float* w, uint32_t n, uint32_t k, PackedHalfWeights* out) {
  pack(w, n, k, out);
}
void packHalfWeights(const Half* w, uint32_t n, uint32_t k, PackedHalfWeights* out) {
  pack(w, n, k, out);
}

namespace {

// The small-n kernel (gemm_half_small_isa.h) on float16 data both sides, at most 48 columns
// and k up to 64: face_detection_full_range's 96x96x32 -> 8 layer 40 -> 28 us on one thread,
// BlazeFace's 32x32 and 16x16 28..42 -> 32..48 layers 10-25% faster (the narrow kernel's
// float32 sums and row transposition are not needed there).
constexpr size_t kSmallNGrain = 256;  // rows per piece of the split over threads
bool smallNPreferred(const GemmHalfArgs& a) {
  return a.small != nullptr && a.ah != nullptr && a.ch != nullptr && a.lda == a.k &&
         halfGemmSmallShape(a.n, a.k);
}

// The small-n layout with float32 sums (gemm_half_small_isa.h) on float16 input for the other
// outputs of at most 48 channels: float32 outputs (the landmark models' residual-stream
// projections) and float16 ones with k over 64. The narrow kernel's row transposition is not
// needed there either.
bool smallNFloatPreferred(const GemmHalfArgs& a) {
  return a.small != nullptr && a.ah != nullptr && a.lda == a.k &&
         halfGemmSmallWidePreferred(a.n, a.k);
}

void run(GemmHalfArgs& args, const PackedHalfWeights& w, const float* bias, int32_t activation,
         ThreadPool* pool, KernelScratch& ks) {
  args.n = w.n;
  args.k = w.k;
  args.packed = w.data.data();
  args.bias = bias;
  args.narrow = halfGemmNarrow(w.n);
  args.small = w.small.empty() ? nullptr : w.small.data();
  activationRangeFloat(activation, &args.outputMin, &args.outputMax);
  if (smallNPreferred(args)) {
    // No scratch: rows read in place (gemm_half_small_isa.h).
    auto rows = [&](size_t b, size_t e) {
      isa_avx512fp16::gemmHalfSmallN(args, static_cast<uint32_t>(b), static_cast<uint32_t>(e));
    };
    if (pool != nullptr && pool->numThreads() > 1 && args.m >= 2 * kSmallNGrain)
      pool->parallelFor(args.m, kSmallNGrain, rows);
    else
      rows(0, args.m);
    return;
  }
  if (smallNFloatPreferred(args)) {
    splitPanelGemm(pool, args.m, w.n, w.k, w.n, kHalfRowAlign,
                   [&](uint32_t r0, uint32_t r1, uint32_t, uint32_t, size_t) {
                     isa_avx512fp16::gemmHalfSmallNFloat(args, r0, r1);
                   });
    return;
  }
  const bool halfOut = args.ch != nullptr;
  // An expansion whose output is over 1 MB (hand_landmark_full/lite's 112x112x16->64 into
  // float16, 1.6 MB) written last rows first, as panelGemmFloat does: the stride-2 depthwise
  // layer after it starts on the rows still in L2. Relaxed, each layer's time in one process
  // against rows in order, one thread: that depthwise layer 0.89x (lite 49.3 -> 43.8 us, full
  // 49.8 -> 44.2), the expansion 0.96-0.98x; two threads: lite unchanged, full's depthwise
  // 31 -> 25 us. Same values either way.
  const double inBytes = (args.ah != nullptr ? 2.0 : 4.0) * args.m * w.k;
  const double outBytes = (halfOut ? 2.0 : 4.0) * args.m * w.n;
  args.lastBlockFirst = outBytes > inBytes && outBytes >= 1024.0 * 1024.0;
  const size_t scratchBytes = halfGemmScratchElems(w.k, w.n, halfOut) * sizeof(uint32_t);
  // Each slot converts its rows to float16 in its own scratch region (one per thread).
  ks.slots.reserve(pool != nullptr ? static_cast<size_t>(std::max(1, pool->numThreads())) : 1,
                   scratchBytes);
  // Split by rows at any row: with kHalfRowAlign-row units the 49 rows of a 7x7 map went
  // 32 / 17 to two threads (the register blocks even out any count of rows).
  splitPanelGemm(pool, args.m, w.n, w.k, kHalfTileN, 1,
                 [&](uint32_t r0, uint32_t r1, uint32_t t0, uint32_t t1, size_t slot) {
                   isa_avx512fp16::gemmHalfPanels(args, r0, r1, t0, t1,
                                                  ks.slots.slot<uint32_t>(slot));
                 });
}

const uint16_t* halfBits(const Half* p) { return reinterpret_cast<const uint16_t*>(p); }
uint16_t* halfBits(Half* p) { return reinterpret_cast<uint16_t*>(p); }

}  // namespace

void halfGemmFloat(uint32_t m, const float* a, size_t lda, const PackedHalfWeights& w,
                   const float* bias, int32_t activation, float* c, ThreadPool* pool,
                   KernelScratch& ks) {
  GemmHalfArgs args{};
  args.m = m;
  args.lda = lda;
  args.a = a;
  args.c = c;
  run(args, w, bias, activation, pool, ks);
}

void halfGemmMixed(uint32_t m, const float* a, const Half* ah, size_t lda,
                   const PackedHalfWeights& w, const float* bias, int32_t activation, float* c,
                   Half* ch, ThreadPool* pool, KernelScratch& ks) {
  GemmHalfArgs args{};
  args.m = m;
  args.lda = lda;
  args.a = a;
  args.ah = ah != nullptr ? halfBits(ah) : nullptr;
  args.c = c;
  args.ch = ch != nullptr ? halfBits(ch) : nullptr;
  run(args, w, bias, activation, pool, ks);
}

}  // namespace conv
}  // namespace nn
