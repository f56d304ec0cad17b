// The driver of the weight-stationary float32 GEMM (isa/gemm_float_avx512.cc): which 1x1
// convolutions take it instead of XNNPACK, and how it is split over threads.
#include <algorithm>

#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/conv_fast.h"

namespace nn {
namespace conv {

bool panelGemmAvailable() { return convIsaKernels().gemmFloatPanels != nullptr; }

bool panelGemmPreferred(const Geometry& g) {
  if (!panelGemmAvailable()) return false;
  const Params& p = g.p;
  if (g.filterH != 1 || g.filterW != 1 || p.strideH != 1 || p.strideW != 1 || p.padTop != 0 ||
      p.padLeft != 0 || p.padBottom != 0 || p.padRight != 0)
    return false;
  // nnapi_bench_direct, one thread, on every 1x1 layer of pose_landmark_heavy/full,
  // hand_landmark_full/lite and face_detection_full_range: 0.53-0.94x XNNPACK's time (8 to 1632
  // output channels, 2x2 to 256x256 maps). 1-2 output channels stay with the narrow kernel.
  return !narrowConvPreferred(g);
}

// At most 64 rows (8x8 maps and smaller): each weight is used by so few rows that the GEMM
// waits on weight bytes, and VCVTPH2PS is nearly free. pose_landmark_heavy's 1x1 filters are
// float16 in the model (12.7M weights, 9.4M of them on such maps): its compilation went from
// 31 to 23 ms (half the packed bytes to fault in and write) and one-thread inference to 0.96x.
// With 256 rows (16x16 maps) hand_landmark_full's 14x14 layers were 2-10% slower.
constexpr uint64_t kMaxHalfPanelRows = 64;

bool halfPanelsPreferred(const Geometry& g) {
  return panelGemmPreferred(g) && !g.p.nchw &&
         static_cast<uint64_t>(g.batches) * g.outH * g.outW <= kMaxHalfPanelRows;
}

bool stemGemmPreferred(const Geometry& g) {
  if (convIsaKernels().im2colFloatRows == nullptr) return false;
  const Params& p = g.p;
  if (p.dilationH != 1 || p.dilationW != 1 || (g.filterH == 1 && g.filterW == 1)) return false;
  // XNNPACK's indirect GEMM reads 3 floats per indirection pointer: the 3-channel first layers
  // of face_detection_short_range (5x5 stride 2 -> 64x64x24), face_detection_full_range and
  // hand_landmark_full/lite (3x3 stride 2 -> 96x96x32, 112x112x24) measured 38-48 GMAC/s there.
  return g.inC <= 4 && g.outC >= 8 && g.filterH * g.filterW * g.inC <= 256 &&
         !narrowConvPreferred(g);
}

void stemGemmFloat(const Geometry& g, const float* input, const PackedFloatWeights& w,
                   const float* bias, float* output, ThreadPool* pool, KernelScratch& ks,
                   uint16_t* outputHalf) {
  ConvIm2colFloatArgs a{};
  setFloatArgs(g, input, nullptr, bias, outputHalf != nullptr ? nullptr : output, &a.conv);
  a.conv.outC = g.outC;
  a.packed = w.data.data();
  a.outputHalf = outputHalf;
  ConvIm2colFloatRowsFn* rows = convIsaKernels().im2colFloatRows;
  // With a float16 output each row's float32 results go through the panel first.
  const size_t panelFloats =
      static_cast<size_t>(g.outW) * (w.k + (outputHalf != nullptr ? g.outC : 0));
  runSlotted<float>(directPool(pool, g, g.filterH * g.filterW * g.inC),
                    ks, static_cast<size_t>(g.batches) * g.outH, panelFloats,
                    [&](size_t begin, size_t end, float* panel) { rows(a, begin, end, panel); });
}

namespace {

void runPanelGemm(GemmFloatArgs& args, const PackedFloatWeights& w, ThreadPool* pool) {
  const uint32_t m = args.m;
  // An expansion whose output is over 1 MB is written last rows first: the operation after it
  // (which reads rows in order) then starts on the rows still in L2 instead of on the ones
  // evicted first. hand_landmark_lite, 1 thread: 112x112x16->64 (3.2 MB) took as long, the
  // stride-2 depthwise that reads it 0.83x the time. Same values either way.
  const double inBytes = 4.0 * m * w.k, outBytes = 4.0 * m * w.n;
  args.lastBlockFirst = outBytes > inBytes && outBytes >= 1024.0 * 1024.0;
  GemmFloatPanelsFn* run = convIsaKernels().gemmFloatPanels;
  splitPanelGemm(pool, m, w.n, w.k, kConvTileN, 8,
                 [&](uint32_t r0, uint32_t r1, uint32_t t0, uint32_t t1, size_t) {
                   run(args, r0, r1, t0, t1);
                 });
}

GemmFloatArgs panelArgs(uint32_t m, const float* a, size_t lda, const PackedFloatWeights& w,
                        const float* bias, int32_t activation, float* c) {
  GemmFloatArgs args{};
  args.m = m;
  args.n = w.n;
  args.k = w.k;
  args.lda = lda;
  args.a = a;
  args.packed = w.data.data();
  args.packedHalf = w.halfPanels() ? w.half.data() : nullptr;
  args.bias = bias;
  activationRangeFloat(activation, &args.outputMin, &args.outputMax);
  args.c = c;
  return args;
}

}  // namespace

void panelGemmFloatResidual(uint32_t m, const float* a, size_t lda, const PackedFloatWeights& w,
                            const float* bias, int32_t activation, const float* res,
                            uint32_t resC, int32_t addActivation, float* c, ThreadPool* pool) {
  GemmFloatArgs args = panelArgs(m, a, lda, w, bias, activation, c);
  args.res = res;
  args.resC = resC;
  activationRangeFloat(addActivation, &args.addMin, &args.addMax);
  runPanelGemm(args, w, pool);
}

void panelGemmFloat(uint32_t m, const float* a, size_t lda, const PackedFloatWeights& w,
                    const float* bias, int32_t activation, float* c, ThreadPool* pool) {
  GemmFloatArgs args = panelArgs(m, a, lda, w, bias, activation, c);
  runPanelGemm(args, w, pool);
}

namespace {

// Where the pair gained (1 thread, both forms interleaved in one process, hand_landmark,
// pose_landmark_full/heavy, selfie_segmentation): expansions of 1.2-6.3 MB on maps 64-128
// wide took 0.77-0.91x the two layers' time. Smaller ones stay in L2 between the layers
// anyway; on a 32-wide map (pose_landmark_heavy's 32x32x56->336, 1.4 MB) the row GEMMs are
// short and the fused form took 1.06x.
constexpr double kMinBandFusionBytes = 1024.0 * 1024.0;
constexpr uint32_t kMinBandFusionWidth = 48;

// Rows of one channel tile of the expansion a thread keeps: the 3 a window reads and the
// one more a stride-2 step adds (indexed by input row modulo this).
constexpr uint32_t kRingRows = 4;

}  // namespace

bool expandDepthwiseAvailable(const ExpandDepthwise& f) {
  const Geometry &e = f.expand, &d = f.depthwise;
  const ConvIsaKernels& k = convIsaKernels();
  if (!panelGemmAvailable() || k.depthwise3x3FloatRowXnnOrder == nullptr ||
      f.weights == nullptr)
    return false;
  if (!panelGemmPreferred(e) || e.p.nchw || d.p.nchw || d.p.depthMultiplier != 1 ||
      d.p.dilationH != 1 || d.p.dilationW != 1 || d.p.strideH != 2 || d.p.strideW != 2 ||
      d.filterH != 3 || d.filterW != 3)
    return false;
  if (d.batches != e.batches || d.inH != e.outH || d.inW != e.outW || d.inC != e.outC ||
      d.outC != d.inC || f.weights->n != e.outC || f.weights->k != e.inC)
    return false;
  return e.outW >= kMinBandFusionWidth &&
         4.0 * e.batches * e.outH * e.outW * e.outC >= kMinBandFusionBytes;
}

void expandDepthwiseFloat(const ExpandDepthwise& f, const float* input, float* output,
                          ThreadPool* pool, KernelScratch& ks) {
  const Geometry &e = f.expand, &d = f.depthwise;
  const PackedFloatWeights& w = *f.weights;
  const uint32_t C = d.outC, inW = d.inW, K = w.k, outH = d.outH, outW = d.outW;
  const int32_t inH = static_cast<int32_t>(d.inH), sH = d.p.strideH, padTop = d.p.padTop;
  const uint32_t tiles = (C + kConvTileN - 1) / kConvTileN;
  const size_t ringRow = static_cast<size_t>(inW) * kConvTileN;  // floats per ring row
  GemmFloatArgs ga{};
  ga.m = inW;
  ga.k = K;
  ga.lda = K;
  activationRangeFloat(e.p.activation, &ga.outputMin, &ga.outputMax);
  ConvDepthwise3x3RowArgs ra{};
  ra.inW = inW;
  ra.outW = outW;
  ra.strideW = d.p.strideW;
  ra.padLeft = d.p.padLeft;
  ra.filterTapStride = C;
  activationRangeFloat(d.p.activation, &ra.outputMin, &ra.outputMax);
  ra.outPixelStride = C;
  GemmFloatPanelsFn* gemm = convIsaKernels().gemmFloatPanels;
  ConvDepthwise3x3RowFn* dwRow = convIsaKernels().depthwise3x3FloatRowXnnOrder;
  const size_t rows = static_cast<size_t>(d.batches) * outH;
  // Split like the GEMM it replaces (xnnpack_util.h's threshold); one range per thread, so
  // each thread's rows stay in its core's caches.
  constexpr double kMinParallelMacs = 400000.0;
  const size_t threads = pool != nullptr ? static_cast<size_t>(pool->numThreads()) : 1;
  const bool split =
      static_cast<double>(e.batches) * e.outH * e.outW * w.n * w.k >= kMinParallelMacs;
  const size_t slots = split ? std::min(threads, rows) : 1;
  ks.slots.reserve(slots, kRingRows * ringRow * sizeof(float));
  runSlots(split ? pool : nullptr, rows, slots, [&](size_t begin, size_t end, size_t slot) {
    float* ring = ks.slots.slot<float>(slot);
    // One 32-channel tile at a time, so that the rows a window reads stay near L1
    // (hand_landmark_lite, 1 thread: 16-channel tiles took longer, through the GEMM's 16-wide
    // form; 64 the same time).
    for (uint32_t t = 0; t < tiles; ++t) {
      const uint32_t c0 = t * kConvTileN, cols = std::min(kConvTileN, C - c0);
      GemmFloatArgs g = ga;  // the tile as a GEMM of its own: ldc = cols
      g.n = cols;
      g.packed = w.data.data() + static_cast<size_t>(t) * K * kConvTileN;
      g.bias = f.expandBias != nullptr ? f.expandBias + c0 : nullptr;
      ConvDepthwise3x3RowArgs a = ra;
      a.channels = cols;
      a.inPixelStride = cols;
      a.filter = f.depthwiseFilter + c0;
      a.bias = f.depthwiseBias + c0;
      uint32_t batch = UINT32_MAX;
      int32_t computed = 0;  // input rows below this (of `batch`) were expanded already
      for (size_t r = begin; r < end; ++r) {
        const uint32_t b = static_cast<uint32_t>(r / outH), oh = static_cast<uint32_t>(r % outH);
        const int32_t ih0 = static_cast<int32_t>(oh) * sH - padTop;
        if (b != batch) {
          batch = b;
          computed = std::max(ih0, 0);
        }
        const int32_t top = std::min(ih0 + 3, inH);
        for (int32_t ih = std::max({ih0, computed, 0}); ih < top; ++ih) {
          g.a = input + (static_cast<size_t>(b) * inH + ih) * inW * K;
          g.c = ring + static_cast<size_t>(ih % kRingRows) * ringRow;
          gemm(g, 0, inW, 0, 1);
        }
        computed = std::max(computed, top);
        for (int32_t ky = 0; ky < 3; ++ky) {
          const int32_t ih = ih0 + ky;
          a.rows[ky] =
              ih >= 0 && ih < inH ? ring + static_cast<size_t>(ih % kRingRows) * ringRow : nullptr;
        }
        a.out = output + (static_cast<size_t>(b) * outH + oh) * outW * C + c0;
        dwRow(a);
      }
    }
  });
}

}  // namespace conv
}  // namespace nn
