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

bool depthwiseProjectPairsApply(const DepthwiseProject& f) {
  const Geometry& d = f.depthwise;
  const uint32_t c = d.outC;
  return convIsaKernels().depthwiseProjectRow != nullptr &&
         (c == 24 || c == 32 || c == 40 || c == 56) &&
         f.weights->n <= 16 && d.filterH == 3 && d.filterW == 3 && d.p.strideH == 1 &&
         d.p.strideW == 1 && d.p.dilationH == 1 && d.p.dilationW == 1 && d.p.padLeft >= 0 &&
         d.p.padLeft <= 2 && d.p.padTop >= 0 && d.p.padTop <= 2;
}

bool depthwiseProjectStemAvailable(const DepthwiseProject& f) {
  const Geometry &s = f.stem, &d = f.depthwise;
  if (f.stemWeights == nullptr || !depthwiseProjectPairsApply(f) || !stemGemmPreferred(s) ||
      s.p.nchw || f.stemWeights->n != s.outC || f.stemWeights->k != s.filterH * s.filterW * s.inC)
    return false;
  const uint32_t pairs = (d.outW + 1) / 2;
  return s.batches == d.batches && s.outH == d.inH && s.outW == d.inW && s.outC == d.inC &&
         static_cast<uint32_t>(d.p.padLeft) + d.inW <= 2 * pairs + 2;
}

namespace {

// The pair on DepthwiseProjectRowFn (depthwiseProjectPairsApply): each thread copies the input
// rows its output rows read once into a ring of three zero-padded rows.
void depthwiseProjectPairs(const DepthwiseProject& f, const float* input, float* output,
                           ThreadPool* pool, KernelScratch& ks) {
  const Geometry& d = f.depthwise;
  const PackedFloatWeights& w = *f.weights;
  const uint32_t C = d.outC, outW = d.outW, outH = d.outH, inW = d.inW, inH = d.inH;
  const uint32_t pairs = (outW + 1) / 2;
  const size_t padW = static_cast<size_t>(2 * pairs + 2);  // columns of a padded row
  const size_t padRow = padW * C, dwRow = static_cast<size_t>(8) * C;
  const uint32_t padLeft = static_cast<uint32_t>(d.p.padLeft);
  const uint32_t copyCols =
      static_cast<uint32_t>(std::min<size_t>(inW, padW > padLeft ? padW - padLeft : 0));
  // The depthwise weights and bias twice over: lanes [0, C) pixel 2p, [C, 2C) pixel 2p + 1.
  alignas(64) float pairFilter[9 * 2 * 56];
  alignas(64) float pairBias[2 * 56];
  // At most 8 outputs: the 1x1 layer's weights and bias with each output in two lanes (one
  // per pixel of a pair).
  alignas(64) float projectPairW[56 * 16];
  alignas(64) float projectPairBias[16] = {};
  for (uint32_t t = 0; t < 9; ++t)
    for (uint32_t c = 0; c < 2 * C; ++c)
      pairFilter[t * 2 * C + c] = f.depthwiseFilter[t * C + c % C];
  for (uint32_t c = 0; c < 2 * C; ++c)
    pairBias[c] = f.depthwiseBias != nullptr ? f.depthwiseBias[c % C] : 0.0f;
  DepthwiseProjectRowArgs base{};
  base.channels = C;
  base.outW = outW;
  base.n = w.n;
  base.pairFilter = pairFilter;
  base.pairBias = pairBias;
  activationRangeFloat(d.p.activation, &base.dwMin, &base.dwMax);
  base.packed = w.data.data();
  base.bias = f.projectBias;
  if (w.n <= 8) {
    // Tile 0 of the panel layout holds output j of input k at k * kConvTileN + j.
    for (uint32_t k = 0; k < C; ++k)
      for (uint32_t l = 0; l < 16; ++l)
        projectPairW[k * 16 + l] = l / 2 < w.n ? w.data[k * kConvTileN + l / 2] : 0.0f;
    for (uint32_t l = 0; l < 16; ++l)
      if (l / 2 < w.n && f.projectBias != nullptr) projectPairBias[l] = f.projectBias[l / 2];
    base.projectPairW = projectPairW;
    base.projectPairBias = projectPairBias;
  }
  activationRangeFloat(f.project.p.activation, &base.outMin, &base.outMax);
  DepthwiseProjectRowFn* rowFn = convIsaKernels().depthwiseProjectRow;
  const size_t imageIn = static_cast<size_t>(inH) * inW * C;
  const size_t rows = static_cast<size_t>(d.batches) * outH;
  const bool split = 4.0 * d.batches * d.outH * d.outW * d.outC >= 4.0 * 16384;
  const size_t threads =
      split && pool != nullptr ? static_cast<size_t>(pool->numThreads()) : 1;
  const size_t slots = std::min(threads, rows);
  // With the stem: one stem output row at a time into the ring, through the im2col panel.
  const bool stem = f.stemWeights != nullptr;
  ConvIm2colFloatArgs sa{};
  size_t stemImage = 0, panelFloats = 0;
  if (stem) {
    setFloatArgs(f.stem, nullptr, nullptr, f.stemBias, nullptr, &sa.conv);
    sa.conv.outC = f.stem.outC;
    sa.conv.batches = 1;
    sa.packed = f.stemWeights->data.data();
    stemImage = static_cast<size_t>(f.stem.inH) * f.stem.inW * f.stem.inC;
    panelFloats = static_cast<size_t>(f.stem.outW) * f.stemWeights->k;
  }
  ConvIm2colFloatRowsFn* stemRow = convIsaKernels().im2colFloatRows;
  ks.slots.reserve(slots, (3 * padRow + dwRow + panelFloats) * sizeof(float));
  runSlots(split ? pool : nullptr, rows, slots, [&](size_t begin, size_t end, size_t slot) {
    float* ring = ks.slots.slot<float>(slot);
    float* panel = ring + 3 * padRow + dwRow;
    std::fill(ring, ring + 3 * padRow, 0.0f);  // the padding columns stay zero
    int64_t held[3] = {-1, -1, -1};            // batch * inH + input row in each ring row
    DepthwiseProjectRowArgs a = base;
    a.dwRow = ring + 3 * padRow;
    for (size_t r = begin; r < end; ++r) {
      const size_t b = r / outH;
      const int64_t oh = static_cast<int64_t>(r % outH);
      for (int kh = 0; kh < 3; ++kh) {
        const int64_t ih = oh - d.p.padTop + kh;
        if (ih < 0 || ih >= static_cast<int64_t>(inH)) {
          a.rows[kh] = nullptr;
          continue;
        }
        const int64_t key = static_cast<int64_t>(b) * inH + ih;
        float* dst = ring + static_cast<size_t>(key % 3) * padRow;
        if (held[key % 3] != key) {
          if (stem) {
            // Stem row ih as row 0 of a stem whose top padding is shifted (same sums).
            ConvIm2colFloatArgs ra = sa;
            ra.conv.input = input + b * stemImage;
            ra.conv.padTop = f.stem.p.padTop - static_cast<int32_t>(ih) * f.stem.p.strideH;
            ra.conv.outH = 1;
            ra.conv.output = dst + static_cast<size_t>(padLeft) * C;
            stemRow(ra, 0, 1, panel);
          } else {
            std::copy_n(input + b * imageIn + static_cast<size_t>(ih) * inW * C,
                        static_cast<size_t>(copyCols) * C, dst + static_cast<size_t>(padLeft) * C);
          }
          held[key % 3] = key;
        }
        a.rows[kh] = dst;
      }
      a.out = output + r * outW * w.n;
      rowFn(a);
    }
  });
}

}  // namespace

void depthwiseProjectFloat(const DepthwiseProject& f, const float* input, float* output,
                           ThreadPool* pool, KernelScratch& ks) {
  // With a stem (depthwiseProjectStemAvailable, which includes depthwiseProjectPairsApply),
  // `input` is the stem's.
  if (f.stemWeights != nullptr || depthwiseProjectPairsApply(f))
    return depthwiseProjectPairs(f, input, output, pool, ks);
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
