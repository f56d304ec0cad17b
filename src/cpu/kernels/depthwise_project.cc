// The depthwise + 1x1 projection band fusion (depthwise_project.h).
#include "cpu/kernels/depthwise_project.h"

#include <algorithm>

#include "cpu/kernels/conv_dispatch.h"

namespace nn {
namespace conv {
namespace {

// As the expansion + depthwise pair (gemm_float.cc): a smaller depthwise output stays in L2
// until the 1x1 layer reads it.
constexpr double kMinProjectFusionBytes = 1024.0 * 1024.0;

}  // namespace

bool depthwiseProjectAvailable(const DepthwiseProject& f) {
  const Geometry &d = f.depthwise, &p = f.project;
  const ConvIsaKernels& k = convIsaKernels();
  if (k.depthwiseFloatRowsDirect == nullptr || !panelGemmAvailable() || f.weights == nullptr ||
      f.depthwiseFilter == nullptr)
    return false;
  // The kernels the layers take apart: fastDepthwiseFloat's direct kernel, fastConvFloat's
  // panel GEMM on the input pixels in place.
  if (d.p.nchw || p.p.nchw || d.p.depthMultiplier != 1 || smallMapDepthwisePreferred(d) ||
      !panelGemmPreferred(p))
    return false;
  if (d.batches != p.batches || d.outH != p.inH || d.outW != p.inW || d.outC != p.inC ||
      d.outC != d.inC || f.weights->n != p.outC || f.weights->k != p.inC)
    return false;
  return 4.0 * d.batches * d.outH * d.outW * d.outC >= kMinProjectFusionBytes;
}

void depthwiseProjectFloat(const DepthwiseProject& f, const float* input, float* output,
                           ThreadPool* pool, KernelScratch& ks) {
  const Geometry &d = f.depthwise, &p = f.project;
  const PackedFloatWeights& w = *f.weights;
  ConvDepthwiseFloatArgs da{};
  setFloatArgs(d, input, f.depthwiseFilter, f.depthwiseBias, nullptr, &da);
  da.channels = d.outC;
  da.dilationH = d.p.dilationH;
  da.dilationW = d.p.dilationW;
  da.depthMultiplier = 1;
  da.batches = 1;
  da.outH = 1;
  GemmFloatArgs ga{};
  ga.m = d.outW;
  ga.n = w.n;
  ga.k = w.k;
  ga.lda = w.k;
  ga.packed = w.data.data();
  ga.bias = f.projectBias;
  activationRangeFloat(p.p.activation, &ga.outputMin, &ga.outputMax);
  ConvFloatRowsFn<ConvDepthwiseFloatArgs>* dwRows = convIsaKernels().depthwiseFloatRowsDirect;
  GemmFloatPanelsFn* gemm = convIsaKernels().gemmFloatPanels;
  const uint32_t outH = d.outH, tiles = (w.n + kConvTileN - 1) / kConvTileN;
  const size_t row = static_cast<size_t>(d.outW) * d.outC;  // floats per depthwise row
  const size_t imageIn = static_cast<size_t>(d.inH) * d.inW * d.inC;
  const size_t rows = static_cast<size_t>(d.batches) * outH;
  // Split like the depthwise layer alone (over 16K elements); one range per thread, so each
  // thread's rows stay in its core's caches.
  const bool split = 4.0 * d.batches * d.outH * d.outW * d.outC >= 4.0 * 16384;
  const size_t threads =
      split && pool != nullptr ? static_cast<size_t>(pool->numThreads()) : 1;
  const size_t slots = std::min(threads, rows);
  ks.slots.reserve(slots, row * sizeof(float));
  runSlots(split ? pool : nullptr, rows, slots, [&](size_t begin, size_t end, size_t slot) {
    float* buf = ks.slots.slot<float>(slot);
    for (size_t r = begin; r < end; ++r) {
      const uint32_t b = static_cast<uint32_t>(r / outH), oh = static_cast<uint32_t>(r % outH);
      // Depthwise row oh as row 0 of a depthwise layer whose top padding is shifted.
      ConvDepthwiseFloatArgs a = da;
      a.input = input + static_cast<size_t>(b) * imageIn;
      a.padTop = d.p.padTop - static_cast<int32_t>(oh) * d.p.strideH;
      a.output = buf;
      dwRows(a, 0, 1, nullptr);
      GemmFloatArgs g = ga;
      g.a = buf;
      g.c = output + r * d.outW * w.n;
      gemm(g, 0, d.outW, 0, tiles);
    }
  });
}

}  // namespace conv
}  // namespace nn
