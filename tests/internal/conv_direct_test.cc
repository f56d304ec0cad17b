// The direct float32 convolution kernels (conv_direct.cc, isa/conv_direct_avx512.cc) against
// the reference kernels on random shapes: widths that are not multiples of the pixel blocks,
// padding on every side (asymmetric, as a folded PAD gives), strides 1-3, dilation, every
// fused activation, batches > 1, channel counts around the 16-lane vectors and the 8-channel
// pixel-pair path. ctest runs this binary at every ISA level (NNAPI_CPU_ISA); below AVX-512
// the depthwise entry is the portable loop and the narrow CONV_2D kernel must not be offered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/conv_reference.h"
#include "float_kernel_check.h"

namespace nn {
namespace conv {
namespace {

using kernel_check::expectClose;
using kernel_check::randomVector;

struct Case {
  Geometry g;
  std::string text;
};

// A random valid geometry; depthwise: depth multiplier 1.
Case randomCase(std::mt19937& rng, bool depthwise, bool allowDilation) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const int kChannels[] = {1, 2, 3, 5, 8, 8, 8, 12, 16, 17, 24, 31, 40, 56, 67, 120};
  Geometry g;
  for (;;) {
    g = Geometry{};
    g.batches = static_cast<uint32_t>(pick(1, 2));
    g.inH = static_cast<uint32_t>(pick(1, 24));
    g.inW = static_cast<uint32_t>(pick(1, 45));
    g.inC = static_cast<uint32_t>(kChannels[pick(0, 15)]);
    g.outC = depthwise ? g.inC : static_cast<uint32_t>(pick(1, 4));
    g.filterH = static_cast<uint32_t>(pick(1, 5));
    g.filterW = static_cast<uint32_t>(pick(1, 5));
    g.p.strideH = pick(1, 3);
    g.p.strideW = pick(1, 3);
    if (pick(0, 2) == 0) g.p.strideH = g.p.strideW = 1;
    g.p.dilationH = allowDilation && pick(0, 3) == 0 ? 2 : 1;
    g.p.dilationW = allowDilation && pick(0, 3) == 0 ? 2 : 1;
    // Up to 6: explicit padding may exceed the window (a folded PAD), so whole output rows
    // and columns can see only padding.
    const int maxPad = pick(0, 3) == 0 ? 6 : 3;
    g.p.padTop = pick(0, maxPad);
    g.p.padBottom = pick(0, maxPad);
    g.p.padLeft = pick(0, maxPad);
    g.p.padRight = pick(0, maxPad);
    g.p.activation = pick(0, 3);
    const int64_t effH = (static_cast<int64_t>(g.filterH) - 1) * g.p.dilationH + 1;
    const int64_t effW = (static_cast<int64_t>(g.filterW) - 1) * g.p.dilationW + 1;
    const int64_t spanH = static_cast<int64_t>(g.inH) + g.p.padTop + g.p.padBottom - effH;
    const int64_t spanW = static_cast<int64_t>(g.inW) + g.p.padLeft + g.p.padRight - effW;
    if (spanH < 0 || spanW < 0) continue;
    g.outH = static_cast<uint32_t>(spanH / g.p.strideH + 1);
    g.outW = static_cast<uint32_t>(spanW / g.p.strideW + 1);
    break;
  }
  char buf[256];
  snprintf(buf, sizeof(buf),
           "b%u in %ux%ux%u out %ux%ux%u filter %ux%u stride %d,%d dilation %d,%d pad t%d b%d "
           "l%d r%d act %d",
           g.batches, g.inH, g.inW, g.inC, g.outH, g.outW, g.outC, g.filterH, g.filterW,
           g.p.strideH, g.p.strideW, g.p.dilationH, g.p.dilationW, g.p.padTop, g.p.padBottom,
           g.p.padLeft, g.p.padRight, g.p.activation);
  return {g, buf};
}

// Elements after the output in the kernels' buffers: they must stay NaN (no write past the end).
constexpr size_t kGuard = 64;

TEST(ConvDirect, DepthwiseMatchesReference) {
  std::mt19937 rng(20261123);
  ThreadPool pool(2);
  KernelScratch ks;
  for (int iter = 0; iter < 400; ++iter) {
    const Case c = randomCase(rng, /*depthwise=*/true, /*allowDilation=*/true);
    const Geometry& g = c.g;
    const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
    const auto filter = randomVector(rng, static_cast<size_t>(g.filterH) * g.filterW * g.outC);
    const auto bias = randomVector(rng, g.outC);
    const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
    std::vector<float> want(outCount), got(outCount + kGuard, NAN);
    kDepthwiseReference.f32(g, in.data(), filter.data(), bias.data(), want.data());
    fastDepthwiseFloat(g, in.data(), filter.data(), bias.data(), got.data(),
                       iter % 2 ? &pool : nullptr, ks);
    expectClose(want, got, kGuard, g.filterH * g.filterW, c.text);
  }
}

// The pose models' shapes: 8 channels (pixel pairs) and 16+ at stride 1 and 2, wide enough
// for the 8-pixel sliding passes, with every padding side, on two threads.
TEST(ConvDirect, DepthwiseModelLikeShapes) {
  std::mt19937 rng(7);
  ThreadPool pool(2);  // the larger of these are split over threads (rows per slot)
  KernelScratch ks;
  for (uint32_t channels : {8u, 16u, 24u, 56u, 120u, 144u}) {
    for (uint32_t k : {3u, 5u}) {
      for (int32_t stride : {1, 2}) {
        Geometry g;
        g.batches = 2;
        g.inH = 19;
        g.inW = 53;
        g.inC = g.outC = channels;
        g.filterH = g.filterW = k;
        g.p.strideH = g.p.strideW = stride;
        g.p.padTop = 1;
        g.p.padLeft = static_cast<int32_t>(k / 2);
        g.p.padBottom = static_cast<int32_t>(k) - 1;
        g.p.padRight = 0;
        g.p.activation = 3;
        g.outH = (g.inH + g.p.padTop + g.p.padBottom - k) / stride + 1;
        g.outW = (g.inW + g.p.padLeft + g.p.padRight - k) / stride + 1;
        const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
        const auto filter = randomVector(rng, static_cast<size_t>(k) * k * channels);
        const auto bias = randomVector(rng, channels);
        const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
        std::vector<float> want(outCount), got(outCount + kGuard, NAN);
        kDepthwiseReference.f32(g, in.data(), filter.data(), bias.data(), want.data());
        fastDepthwiseFloat(g, in.data(), filter.data(), bias.data(), got.data(), &pool, ks);
        expectClose(want, got, kGuard, k * k,
                    "channels " + std::to_string(channels) + " k " + std::to_string(k) +
                        " stride " + std::to_string(stride));
      }
    }
  }
}

TEST(ConvDirect, NarrowConvMatchesReference) {
  Geometry probe;
  probe.p.dilationH = probe.p.dilationW = 1;
  if (isaLevel() < IsaLevel::kAvx512) {
    // Below AVX-512 there is no direct kernel: CONV_2D keeps XNNPACK / the GEMM.
    EXPECT_FALSE(narrowConvAvailable(probe));
    probe.inC = 8;
    probe.outC = 1;
    probe.filterH = probe.filterW = 3;
    EXPECT_FALSE(narrowConvPreferred(probe));
    return;
  }
  ASSERT_TRUE(narrowConvAvailable(probe));
  std::mt19937 rng(1123);
  ThreadPool pool(2);
  KernelScratch ks;
  for (int iter = 0; iter < 400; ++iter) {
    const Case c = randomCase(rng, /*depthwise=*/false, /*allowDilation=*/false);
    const Geometry& g = c.g;
    ASSERT_TRUE(narrowConvAvailable(g)) << c.text;
    const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
    const auto filter =
        randomVector(rng, static_cast<size_t>(g.outC) * g.filterH * g.filterW * g.inC);
    const auto bias = randomVector(rng, g.outC);
    const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
    std::vector<float> want(outCount), got(outCount + kGuard, NAN);
    kConvReference.f32(g, in.data(), filter.data(), bias.data(), want.data());
    fastNarrowConvFloat(g, in.data(), filter.data(), bias.data(), got.data(),
                        iter % 2 ? &pool : nullptr, ks);
    expectClose(want, got, kGuard, static_cast<size_t>(g.filterH) * g.filterW * g.inC, c.text);
  }
}

// The shape the kernel exists for: 3x3, 8 -> 1 channels, wide rows (several 16-pixel passes
// plus a tail), SAME padding and a folded asymmetric PAD.
TEST(ConvDirect, NarrowConvPoseHead) {
  if (isaLevel() < IsaLevel::kAvx512) {
    Geometry g;
    g.inC = 8;
    g.outC = 1;
    g.filterH = g.filterW = 3;
    EXPECT_FALSE(narrowConvPreferred(g));
    return;
  }
  std::mt19937 rng(3);
  KernelScratch ks;
  for (int variant = 0; variant < 2; ++variant) {
    Geometry g;
    g.batches = 1;
    g.inH = 21;
    g.inW = 77;
    g.inC = 8;
    g.outC = 1;
    g.filterH = g.filterW = 3;
    g.p.padTop = g.p.padBottom = g.p.padLeft = g.p.padRight = 1;
    if (variant == 1) {
      g.p.padTop = 0;
      g.p.padLeft = 2;
      g.p.padRight = 0;
      g.p.padBottom = 2;
    }
    g.p.activation = variant;
    g.outH = g.inH + g.p.padTop + g.p.padBottom - 2;
    g.outW = g.inW + g.p.padLeft + g.p.padRight - 2;
    EXPECT_TRUE(narrowConvPreferred(g));
    const auto in = randomVector(rng, static_cast<size_t>(g.inH) * g.inW * g.inC);
    const auto filter = randomVector(rng, 9 * 8);
    const auto bias = randomVector(rng, 1);
    std::vector<float> want(static_cast<size_t>(g.outH) * g.outW), got(want.size() + kGuard, NAN);
    kConvReference.f32(g, in.data(), filter.data(), bias.data(), want.data());
    fastNarrowConvFloat(g, in.data(), filter.data(), bias.data(), got.data(), nullptr, ks);
    expectClose(want, got, kGuard, 72, "variant " + std::to_string(variant));
  }
}

}  // namespace
}  // namespace conv
}  // namespace nn
