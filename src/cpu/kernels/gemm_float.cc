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
                   const float* bias, float* output, ThreadPool* pool, KernelScratch& ks) {
  ConvIm2colFloatArgs a{};
  setFloatArgs(g, input, nullptr, bias, output, &a.conv);
  a.conv.outC = g.outC;
  a.packed = w.data.data();
  ConvIm2colFloatRowsFn* rows = convIsaKernels().im2colFloatRows;
  runSlotted<float>(directPool(pool, g, g.filterH * g.filterW * g.inC),
                    ks, static_cast<size_t>(g.batches) * g.outH,
                    static_cast<size_t>(g.outW) * w.k,
                    [&](size_t begin, size_t end, float* panel) { rows(a, begin, end, panel); });
}

void panelGemmFloat(uint32_t m, const float* a, size_t lda, const PackedFloatWeights& w,
                    const float* bias, int32_t activation, float* c, ThreadPool* pool) {
  GemmFloatArgs args{};
  args.m = m;
  args.n = w.n;
  args.k = w.k;
  args.lda = lda;
  args.a = a;
  args.packed = w.data.data();
  args.bias = bias;
  activationRangeFloat(activation, &args.outputMin, &args.outputMax);
  args.c = c;
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

}  // namespace conv
}  // namespace nn
