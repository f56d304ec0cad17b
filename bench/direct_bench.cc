// The AVX-512 direct convolution kernels (src/cpu/kernels/isa/conv_direct_avx512.cc) against
// the XNNPACK operator the fast device would otherwise run, on the MediaPipe models' layer
// shapes, in one process and one thread: min time of each over --runs rounds, GFLOP/s both
// ways, the ratio, and the largest difference between the two outputs. conv_direct.cc takes a
// shape only where the direct kernel measured faster; the last column says what it chooses.
//
//   nnapi_bench_direct [--runs N] [--filter SUBSTRING] [--threads N (gemm layers)]
// Reaches below the C API (links the library's objects) to time both kernels on one input.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/xnnpack_util.h"

namespace {

using nn::conv::Geometry;

struct Layer {
  const char* name;
  bool depthwise;
  uint32_t inH, inW, inC, outC, filter, stride;
  int32_t padTop, padLeft, padBottom, padRight;
};

// SAME padding for the given sizes (TFLite's split: the extra row/column at the end).
Layer same(const char* name, bool dw, uint32_t in, uint32_t c, uint32_t outC, uint32_t k,
           uint32_t s) {
  const uint32_t out = (in + s - 1) / s;
  const int32_t total = std::max<int32_t>(0, static_cast<int32_t>((out - 1) * s + k) - static_cast<int32_t>(in));
  return {name, dw, in, in, c, outC, k, s, total / 2, total / 2, total - total / 2,
          total - total / 2};
}
Layer padded(const char* name, bool dw, uint32_t in, uint32_t c, uint32_t outC, uint32_t k,
             uint32_t s, int32_t t, int32_t l, int32_t b, int32_t r) {
  return {name, dw, in, in, c, outC, k, s, t, l, b, r};
}

std::vector<Layer> layers() {
  return {
      // depthwise 3x3 stride 1 (pose lite/full/heavy, hand)
      same("dw3x3 256x256x8", true, 256, 8, 8, 3, 1),
      same("dw3x3 128x128x8", true, 128, 8, 8, 3, 1),
      same("dw3x3 128x128x16", true, 128, 16, 16, 3, 1),
      same("dw3x3 128x128x24", true, 128, 24, 24, 3, 1),
      same("dw3x3 112x112x24", true, 112, 24, 24, 3, 1),
      // face_detection_full_range (BlazeFace residual blocks)
      same("dw3x3 96x96x32", true, 96, 32, 32, 3, 1),
      same("dw3x3 48x48x48", true, 48, 48, 48, 3, 1),
      same("dw3x3 64x64x16", true, 64, 16, 16, 3, 1),
      same("dw3x3 64x64x32", true, 64, 32, 32, 3, 1),
      same("dw3x3 64x64x48", true, 64, 48, 48, 3, 1),
      same("dw3x3 64x64x96", true, 64, 96, 96, 3, 1),
      same("dw3x3 64x64x144", true, 64, 144, 144, 3, 1),
      same("dw3x3 64x64x192", true, 64, 192, 192, 3, 1),
      same("dw3x3 56x56x144", true, 56, 144, 144, 3, 1),
      // depthwise 3x3 stride 2: after an explicit PAD (VALID), and with the PAD folded in
      padded("dw3x3s2 130x130x32 valid", true, 130, 32, 32, 3, 2, 0, 0, 0, 0),
      padded("dw3x3s2 128x128x32 pad0101", true, 128, 32, 32, 3, 2, 0, 0, 1, 1),
      padded("dw3x3s2 130x130x64 valid", true, 130, 64, 64, 3, 2, 0, 0, 0, 0),
      same("dw3x3s2 112x112x64", true, 112, 64, 64, 3, 2),
      // depthwise 5x5
      same("dw5x5 32x32x144", true, 32, 144, 144, 5, 1),
      same("dw5x5 32x32x336", true, 32, 336, 336, 5, 1),
      same("dw5x5 28x28x240", true, 28, 240, 240, 5, 1),
      same("dw5x5 16x16x336", true, 16, 336, 336, 5, 1),
      same("dw5x5 16x16x960", true, 16, 960, 960, 5, 1),
      same("dw5x5 14x14x672", true, 14, 672, 672, 5, 1),
      same("dw5x5 8x8x576", true, 8, 576, 576, 5, 1),
      same("dw5x5 7x7x1152", true, 7, 1152, 1152, 5, 1),
      same("dw3x3 7x7x576", true, 7, 576, 576, 3, 1),
      same("dw3x3 7x7x1152", true, 7, 1152, 1152, 3, 1),
      same("dw5x5 7x7x336", true, 7, 336, 336, 5, 1),
      same("dw5x5 7x7x672", true, 7, 672, 672, 5, 1),
      padded("dw5x5s2 68x68x96 valid", true, 68, 96, 96, 5, 2, 0, 0, 0, 0),
      padded("dw5x5s2 68x68x192 valid", true, 68, 192, 192, 5, 2, 0, 0, 0, 0),
      padded("dw5x5s2 64x64x144 pad1223", true, 64, 144, 144, 5, 2, 1, 2, 2, 3),
      same("dw5x5s2 56x56x144", true, 56, 144, 144, 5, 2),
      // MobileNet v1 (nnapi_bench_e2e)
      same("mnv1 dw3x3 112x112x32", true, 112, 32, 32, 3, 1),
      same("mnv1 dw3x3s2 112x112x64", true, 112, 64, 64, 3, 2),
      same("mnv1 dw3x3 56x56x128", true, 56, 128, 128, 3, 1),
      same("mnv1 dw3x3s2 56x56x128", true, 56, 128, 128, 3, 2),
      same("mnv1 dw3x3 28x28x256", true, 28, 256, 256, 3, 1),
      same("mnv1 dw3x3s2 28x28x256", true, 28, 256, 256, 3, 2),
      same("mnv1 dw3x3 14x14x512", true, 14, 512, 512, 3, 1),
      same("mnv1 dw3x3s2 14x14x512", true, 14, 512, 512, 3, 2),
      same("mnv1 dw3x3 7x7x1024", true, 7, 1024, 1024, 3, 1),
      // CONV_2D with few output channels (pose segmentation head) and neighbours
      same("conv3x3 256x256x8->1", false, 256, 8, 1, 3, 1),
      same("conv3x3 256x256x8->2", false, 256, 8, 2, 3, 1),
      same("conv3x3 256x256x8->4", false, 256, 8, 4, 3, 1),
      same("conv3x3 256x256x8->8", false, 256, 8, 8, 3, 1),
      same("conv3x3 128x128x16->1", false, 128, 16, 1, 3, 1),
      same("conv1x1 256x256x16->1", false, 256, 16, 1, 1, 1),
      same("conv1x1 128x128x24->2", false, 128, 24, 2, 1, 1),
      same("conv1x1 48x48x48->1", false, 48, 48, 1, 1, 1),
      same("conv1x1 48x48x48->4", false, 48, 48, 4, 1, 1),
      same("conv1x1 16x16x88->2", false, 16, 88, 2, 1, 1),
      padded("conv2x2 2x2x288->1 valid", false, 2, 288, 1, 2, 1, 0, 0, 0, 0),
      same("conv1x1 256x256x8->1", false, 256, 8, 1, 1, 1),
      // 1x1 with 8-32 channels at high resolution (pose models): XNNPACK's GEMM, for scale
      same("conv1x1 256x256x8->8", false, 256, 8, 8, 1, 1),
      same("conv1x1 128x128x8->8", false, 128, 8, 8, 1, 1),
      same("conv1x1 128x128x24->8", false, 128, 24, 8, 1, 1),
      same("conv1x1 128x128x16->8", false, 128, 16, 8, 1, 1),
      same("conv1x1 128x128x8->32", false, 128, 8, 32, 1, 1),
      same("conv1x1 128x128x24->16", false, 128, 24, 16, 1, 1),
      // The 1x1 layers of pose_landmark_heavy/full, hand_landmark_full/lite and
      // face_detection_full_range, timed with the panel GEMM (gemm_float.cc)
      same("gemm 8x8x272->1632", false, 8, 272, 1632, 1, 1),
      same("gemm 8x8x1632->272", false, 8, 1632, 272, 1, 1),
      same("gemm 8x8x288->288", false, 8, 288, 288, 1, 1),
      same("gemm 8x8x1632->288", false, 8, 1632, 288, 1, 1),
      same("gemm 8x8x144->864", false, 8, 144, 864, 1, 1),
      same("gemm 8x8x864->144", false, 8, 864, 144, 1, 1),
      same("gemm 4x4x288->288", false, 4, 288, 288, 1, 1),
      same("gemm 2x2x288->288", false, 2, 288, 288, 1, 1),
      same("gemm 16x16x192->192", false, 16, 192, 192, 1, 1),
      same("gemm 16x16x160->960", false, 16, 160, 960, 1, 1),
      same("gemm 16x16x960->160", false, 16, 960, 160, 1, 1),
      same("gemm 16x16x112->672", false, 16, 112, 672, 1, 1),
      same("gemm 16x16x672->112", false, 16, 672, 112, 1, 1),
      same("gemm 16x16x88->528", false, 16, 88, 528, 1, 1),
      same("gemm 16x16x528->88", false, 16, 528, 88, 1, 1),
      same("gemm 16x16x64->384", false, 16, 64, 384, 1, 1),
      same("gemm 16x16x160->48", false, 16, 160, 48, 1, 1),
      same("gemm 32x32x96->96", false, 32, 96, 96, 1, 1),
      same("gemm 32x32x56->336", false, 32, 56, 336, 1, 1),
      same("gemm 32x32x336->56", false, 32, 336, 56, 1, 1),
      same("gemm 32x32x32->192", false, 32, 32, 192, 1, 1),
      same("gemm 64x64x32->192", false, 64, 32, 192, 1, 1),
      same("gemm 64x64x192->32", false, 64, 192, 32, 1, 1),
      same("gemm 64x64x24->144", false, 64, 24, 144, 1, 1),
      same("gemm 64x64x48->39", false, 64, 48, 39, 1, 1),
      same("gemm 64x64x48->8", false, 64, 48, 8, 1, 1),
      same("gemm 128x128x24->96", false, 128, 24, 96, 1, 1),
      same("gemm 128x128x24->24", false, 128, 24, 24, 1, 1),
      same("gemm 128x128x16->64", false, 128, 16, 64, 1, 1),
      same("gemm 128x128x8->8", false, 128, 8, 8, 1, 1),
      same("gemm 256x256x8->8", false, 256, 8, 8, 1, 1),
      same("gemm 7x7x192->1152", false, 7, 192, 1152, 1, 1),
      same("gemm 7x7x1152->192", false, 7, 1152, 192, 1, 1),
      same("gemm 7x7x112->672", false, 7, 112, 672, 1, 1),
      same("gemm 7x7x672->112", false, 7, 672, 112, 1, 1),
      same("gemm 14x14x80->480", false, 14, 80, 480, 1, 1),
      same("gemm 14x14x112->672", false, 14, 112, 672, 1, 1),
      same("gemm 14x14x672->112", false, 14, 672, 112, 1, 1),
      same("gemm 14x14x480->80", false, 14, 480, 80, 1, 1),
      same("gemm 14x14x64->384", false, 14, 64, 384, 1, 1),
      same("gemm 14x14x48->288", false, 14, 48, 288, 1, 1),
      same("gemm 28x28x40->240", false, 28, 40, 240, 1, 1),
      same("gemm 28x28x240->40", false, 28, 240, 40, 1, 1),
      same("gemm 28x28x24->144", false, 28, 24, 144, 1, 1),
      same("gemm 56x56x24->144", false, 56, 24, 144, 1, 1),
      same("gemm 56x56x144->24", false, 56, 144, 24, 1, 1),
      same("gemm 112x112x24->16", false, 112, 24, 16, 1, 1),
      same("gemm 112x112x64->24", false, 112, 64, 24, 1, 1),
      same("gemm 28x28x144->40", false, 28, 144, 40, 1, 1),
      same("gemm 56x56x16->96", false, 56, 16, 96, 1, 1),
      same("gemm 56x56x96->16", false, 56, 96, 16, 1, 1),
      same("gemm 56x56x64->16", false, 56, 64, 16, 1, 1),
      same("gemm 28x28x96->24", false, 28, 96, 24, 1, 1),
      same("gemm 28x28x144->24", false, 28, 144, 24, 1, 1),
      same("gemm 14x14x288->48", false, 14, 288, 48, 1, 1),
      same("gemm 14x14x144->48", false, 14, 144, 48, 1, 1),
      same("gemm 14x14x240->80", false, 14, 240, 80, 1, 1),
      same("gemm 14x14x288->64", false, 14, 288, 64, 1, 1),
      same("gemm 14x14x384->64", false, 14, 384, 64, 1, 1),
      same("gemm 112x112x16->64", false, 112, 16, 64, 1, 1),
      same("gemm 112x112x24->16", false, 112, 24, 16, 1, 1),
      same("gemm 6x6x96->384", false, 6, 96, 384, 1, 1),
      same("gemm 6x6x384->96", false, 6, 384, 96, 1, 1),
      same("gemm 12x12x96->48", false, 12, 96, 48, 1, 1),
      same("gemm 12x12x64->256", false, 12, 64, 256, 1, 1),
      same("gemm 24x24x32->128", false, 24, 32, 128, 1, 1),
      same("gemm 24x24x64->32", false, 24, 64, 32, 1, 1),
      same("gemm 48x48x48->16", false, 48, 48, 16, 1, 1),
      same("gemm 48x48x12->48", false, 48, 12, 48, 1, 1),
      same("gemm 96x96x8->32", false, 96, 8, 32, 1, 1),
      same("gemm 96x96x32->8", false, 96, 32, 8, 1, 1),
  };
}

Geometry geometryOf(const Layer& l) {
  Geometry g;
  g.p.padTop = l.padTop;
  g.p.padLeft = l.padLeft;
  g.p.padBottom = l.padBottom;
  g.p.padRight = l.padRight;
  g.p.strideH = g.p.strideW = static_cast<int32_t>(l.stride);
  g.p.activation = 3;  // RELU6
  g.batches = 1;
  g.inH = l.inH;
  g.inW = l.inW;
  g.inC = l.inC;
  g.outC = l.outC;
  g.filterH = g.filterW = l.filter;
  g.outH = (l.inH + l.padTop + l.padBottom - l.filter) / l.stride + 1;
  g.outW = (l.inW + l.padLeft + l.padRight - l.filter) / l.stride + 1;
  return g;
}

bool gCold = false;
std::vector<char> gEvict;
template <typename Fn>
double minSeconds(int runs, const Fn& fn) {
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    if (gCold) {
      // Touch 16 MB so the layer's weights and data leave L2 (they stay in L3).
      gEvict.resize(16 << 20);
      for (size_t j = 0; j < gEvict.size(); j += 64) gEvict[j] = static_cast<char>(gEvict[j] + 1);
    }
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, s);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 50;
  int threads = 1;  // the gemm layers (both sides) on a pool of this many threads
  bool half = false;  // Also time the float16 GEMM of relaxed models on the gemm layers
  std::string filter;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--half")) half = true;
    else if (!strcmp(argv[i], "--cold")) gCold = true;
  }
  printf("%-30s %9s %9s %9s %9s %6s %9s %s\n", "layer", "xnn ms", "xnn GF/s", "direct ms",
         "dir GF/s", "ratio", "max|diff|", "chosen");
  nn::ThreadPool gemmPool(threads > 1 ? threads : 1);
  nn::ThreadPool* pool = threads > 1 ? &gemmPool : nullptr;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (const Layer& l : layers()) {
    if (!filter.empty() && std::string(l.name).find(filter) == std::string::npos) continue;
    const Geometry g = geometryOf(l);
    const size_t inCount = static_cast<size_t>(g.inH) * g.inW * g.inC;
    const size_t outCount = static_cast<size_t>(g.outH) * g.outW * g.outC;
    const size_t wCount = l.depthwise ? static_cast<size_t>(l.filter) * l.filter * l.outC
                                      : static_cast<size_t>(l.outC) * l.filter * l.filter * l.inC;
    std::vector<float> in(inCount), w(wCount), bias(l.outC), outX(outCount), outD(outCount);
    for (float& v : in) v = dist(rng);
    for (float& v : w) v = dist(rng) * 0.3f;
    for (float& v : bias) v = dist(rng);
    const double macs = static_cast<double>(outCount) * l.filter * l.filter *
                        (l.depthwise ? 1 : l.inC);

    nn::XnnConvolution xnn;
    std::string error;
    const nn::XnnConvConfig cfg =
        l.depthwise ? nn::conv::xnnConvConfig(g, g.inC, 1, 1, true)
                    : nn::conv::xnnConvConfig(g, 1, g.inC, g.outC, false);
    double xs = 0;
    if (xnn.create(cfg, w.data(), bias.data(), &error)) {
      nn::ThreadPool* xp = !strncmp(l.name, "gemm ", 5) ? pool : nullptr;
      xs = minSeconds(runs, [&] { xnn.run(1, g.inH, g.inW, in.data(), outX.data(), xp, &error); });
    } else {
      printf("%-30s XNNPACK: %s\n", l.name, error.c_str());
    }
    nn::conv::KernelScratch ks;
    bool have = true, chosen = false;
    double ds = 0;
    nn::conv::PackedFloatWeights packed;
    if (!strncmp(l.name, "gemm ", 5)) {
      have = nn::conv::panelGemmAvailable();
      chosen = nn::conv::panelGemmPreferred(g);
      nn::conv::packFloatWeights(w.data(), g.outC, g.inC, &packed);
      if (have)
        ds = minSeconds(runs, [&] {
          nn::conv::panelGemmFloat(g.outH * g.outW, in.data(), g.inC, packed, bias.data(),
                                   g.p.activation, outD.data(), pool);
        });
    } else if (l.depthwise) {
      chosen = nn::conv::directDepthwisePreferred(g);
      ds = minSeconds(runs, [&] {
        nn::conv::fastDepthwiseFloat(g, in.data(), w.data(), bias.data(), outD.data(), nullptr, ks);
      });
    } else if (nn::conv::narrowConvAvailable(g)) {
      chosen = nn::conv::narrowConvPreferred(g);
      ds = minSeconds(runs, [&] {
        nn::conv::fastNarrowConvFloat(g, in.data(), w.data(), bias.data(), outD.data(), nullptr, ks);
      });
    } else {
      have = false;
    }
    double diff = 0;
    for (size_t i = 0; i < outCount && have && xs > 0; ++i)
      diff = std::max(diff, static_cast<double>(std::fabs(outX[i] - outD[i])));
    printf("%-30s %9.4f %9.1f %9.4f %9.1f %6.2f %9.2g %s\n", l.name, xs * 1e3,
           xs > 0 ? 2 * macs / xs * 1e-9 : 0.0, ds * 1e3, ds > 0 ? 2 * macs / ds * 1e-9 : 0.0,
           xs > 0 && ds > 0 ? ds / xs : 0.0, diff, !have ? "-" : chosen ? "own" : "xnnpack");
    // The float16 GEMM (relaxed models, AVX512-FP16), its time over the float32 GEMM's
    // ("direct ms") and its largest difference from it.
    if (half && !strncmp(l.name, "gemm ", 5) && have && nn::conv::halfGemmAvailable()) {
      nn::conv::PackedHalfWeights hw;
      nn::conv::packHalfWeights(w.data(), g.outC, g.inC, &hw);
      std::vector<float> outH(outCount);
      const double hs = minSeconds(runs, [&] {
        nn::conv::halfGemmFloat(g.outH * g.outW, in.data(), g.inC, hw, bias.data(),
                                g.p.activation, outH.data(), pool, ks);
      });
      double hd = 0;
      for (size_t i = 0; i < outCount; ++i)
        hd = std::max(hd, static_cast<double>(std::fabs(outH[i] - outD[i])));
      printf("%-30s %9s %9s %9.4f %9.1f %6.2f %9.2g f16/f32\n", "  float16", "", "", hs * 1e3,
             2 * macs / hs * 1e-9, ds > 0 ? hs / ds : 0.0, hd);
      // With float16 data in and out (the relaxed models' float16 temporaries).
      std::vector<nn::Half> inH(inCount), outHH(outCount);
      for (size_t i = 0; i < inCount; ++i) inH[i] = static_cast<nn::Half>(in[i]);
      const double hh = minSeconds(runs, [&] {
        nn::conv::halfGemmMixed(g.outH * g.outW, nullptr, inH.data(), g.inC, hw, bias.data(),
                                g.p.activation, nullptr, outHH.data(), pool, ks);
      });
      printf("%-30s %9s %9s %9.4f %9.1f %6.2f\n", "  float16 data", "", "", hh * 1e3,
             2 * macs / hh * 1e-9, ds > 0 ? hh / ds : 0.0);
      // Float16 input, float32 output (the landmark models' residual-stream projections).
      std::vector<float> outHF(outCount);
      const double hf = minSeconds(runs, [&] {
        nn::conv::halfGemmMixed(g.outH * g.outW, nullptr, inH.data(), g.inC, hw, bias.data(),
                                g.p.activation, outHF.data(), nullptr, pool, ks);
      });
      double hfd = 0;
      for (size_t i = 0; i < outCount; ++i)
        hfd = std::max(hfd, static_cast<double>(std::fabs(outHF[i] - outD[i])));
      printf("%-30s %9s %9s %9.4f %9.1f %6.2f %9.2g\n", "  float16 in, float32 out", "", "",
             hf * 1e3, 2 * macs / hf * 1e-9, ds > 0 ? hf / ds : 0.0, hfd);
    }
    // The float16 depthwise kernel on float16 data (relaxed models), its time over the
    // float32 kernel's and its largest difference from it.
    if (half && l.depthwise && nn::conv::halfGemmAvailable() &&
        g.inC >= nn::conv::kHalfDwMinChannels) {
      nn::conv::PackedHalfDepthwise hw;
      nn::conv::packHalfDepthwise(w.data(), bias.data(), l.filter * l.filter, g.inC, &hw);
      std::vector<nn::Half> inH(inCount), outH(outCount);
      for (size_t i = 0; i < inCount; ++i) inH[i] = static_cast<nn::Half>(in[i]);
      const double hs = minSeconds(runs, [&] {
        nn::conv::halfDepthwise(g, inH.data(), hw, outH.data(), nullptr, nullptr);
      });
      double hd = 0;
      for (size_t i = 0; i < outCount; ++i)
        hd = std::max(hd, static_cast<double>(std::fabs(static_cast<float>(outH[i]) - outD[i])));
      printf("%-30s %9s %9s %9.4f %9.1f %6.2f %9.2g f16/f32\n", "  float16", "", "", hs * 1e3,
             2 * macs / hs * 1e-9, ds > 0 ? hs / ds : 0.0, hd);
      // Float16 input, float32 output summed in float32 (the layer before a 1x1 projection
      // without a float16 kernel).
      std::vector<float> outF(outCount);
      const double ws = minSeconds(runs, [&] {
        nn::conv::halfDepthwise(g, inH.data(), hw, nullptr, outF.data(), nullptr);
      });
      double wd = 0;
      for (size_t i = 0; i < outCount; ++i)
        wd = std::max(wd, static_cast<double>(std::fabs(outF[i] - outD[i])));
      printf("%-30s %9s %9s %9.4f %9.1f %6.2f %9.2g f16in/f32\n", "  float16 in, f32 sums", "",
             "", ws * 1e3, 2 * macs / ws * 1e-9, ds > 0 ? ws / ds : 0.0, wd);
    }
  }
  return 0;
}
