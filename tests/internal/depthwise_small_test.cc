// The narrow-map depthwise kernel (depthwise_small.cc, isa/depthwise_small_avx512.cc) against
// the row kernel it replaces on narrow maps (bit for bit: same taps in the same order) and the
// reference (close), on random narrow shapes: 3x3 and 5x5 windows with any height, horizontal
// stride 1 and 2, any vertical stride, padding beyond the window (whole rows and columns of
// padding), channel counts around the 16-lane blocks and the 64-channel work units, batches,
// every fused activation, one and two threads. ctest runs it at every ISA level (the
// conv_direct_isa_* entries); below AVX-512 the kernel must not be offered.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/kernels/conv_reference.h"
#include "float_kernel_check.h"

namespace nn {
namespace conv {
namespace {

using kernel_check::expectClose;
using kernel_check::randomVector;

constexpr size_t kGuard = 64;

Geometry randomNarrow(std::mt19937& rng, std::string* text) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const int kChannels[] = {1, 7, 16, 17, 24, 40, 64, 65, 96, 130, 192};
  for (;;) {
    Geometry g;
    g.batches = static_cast<uint32_t>(pick(1, 2));
    g.inH = static_cast<uint32_t>(pick(1, 16));
    g.inW = static_cast<uint32_t>(pick(1, 34));
    g.inC = g.outC = static_cast<uint32_t>(kChannels[pick(0, 10)]);
    g.filterW = pick(0, 1) ? 5 : 3;
    g.filterH = static_cast<uint32_t>(pick(0, 3) == 0 ? pick(1, 5) : static_cast<int>(g.filterW));
    g.p.strideW = pick(1, 2);
    g.p.strideH = pick(1, 3);
    g.p.dilationH = g.p.dilationW = 1;
    const int maxPad = pick(0, 3) == 0 ? 6 : 2;
    g.p.padTop = pick(0, maxPad);
    g.p.padBottom = pick(0, maxPad);
    g.p.padLeft = pick(0, maxPad);
    g.p.padRight = pick(0, maxPad);
    g.p.activation = pick(0, 3);
    const int64_t spanH = static_cast<int64_t>(g.inH) + g.p.padTop + g.p.padBottom - g.filterH;
    const int64_t spanW = static_cast<int64_t>(g.inW) + g.p.padLeft + g.p.padRight - g.filterW;
    if (spanH < 0 || spanW < 0) continue;
    g.outH = static_cast<uint32_t>(spanH / g.p.strideH + 1);
    g.outW = static_cast<uint32_t>(spanW / g.p.strideW + 1);
    char buf[256];
    snprintf(buf, sizeof(buf),
             "b%u in %ux%ux%u out %ux%u filter %ux%u stride %d,%d pad t%d b%d l%d r%d act %d",
             g.batches, g.inH, g.inW, g.inC, g.outH, g.outW, g.filterH, g.filterW, g.p.strideH,
             g.p.strideW, g.p.padTop, g.p.padBottom, g.p.padLeft, g.p.padRight, g.p.activation);
    *text = buf;
    return g;
  }
}

TEST(ConvDirect, SmallMapDepthwiseMatchesRowKernel) {
  Geometry probe;
  probe.inC = probe.outC = 64;
  probe.filterH = probe.filterW = 5;
  probe.p.strideH = probe.p.strideW = 1;
  probe.p.dilationH = probe.p.dilationW = 1;
  probe.outH = probe.outW = 7;
  if (isaLevel() < IsaLevel::kAvx512) {
    EXPECT_FALSE(smallMapDepthwiseAvailable(probe));
    EXPECT_FALSE(smallMapDepthwisePreferred(probe));
    return;
  }
  ASSERT_TRUE(smallMapDepthwiseAvailable(probe));
  EXPECT_TRUE(smallMapDepthwisePreferred(probe));
  ConvFloatRowsFn<ConvDepthwiseFloatArgs>* rowKernel = convIsaKernels().depthwiseFloatRowsDirect;
  ASSERT_NE(rowKernel, nullptr);
  std::mt19937 rng(20261127);
  ThreadPool pool(2);
  KernelScratch ks;
  for (int iter = 0; iter < 600; ++iter) {
    std::string text;
    const Geometry g = randomNarrow(rng, &text);
    ASSERT_TRUE(smallMapDepthwiseAvailable(g)) << text;
    const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
    const auto filter = randomVector(rng, static_cast<size_t>(g.filterH) * g.filterW * g.outC);
    const auto bias = randomVector(rng, g.outC);
    const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
    std::vector<float> want(outCount), rows(outCount + kGuard, NAN), got(outCount + kGuard, NAN);
    kDepthwiseReference.f32(g, in.data(), filter.data(), bias.data(), want.data());
    ConvDepthwiseFloatArgs a{};
    setFloatArgs(g, in.data(), filter.data(), bias.data(), rows.data(), &a);
    a.channels = g.outC;
    a.dilationH = a.dilationW = 1;
    a.depthMultiplier = 1;
    runFloatRows(rowKernel, a, g, nullptr, ks);
    smallMapDepthwiseFloat(g, in.data(), filter.data(), bias.data(), got.data(),
                           iter % 2 ? &pool : nullptr);
    expectClose(want, got, kGuard, g.filterH * g.filterW, text);
    ASSERT_EQ(0, memcmp(rows.data(), got.data(), outCount * sizeof(float)))
        << text << ": not bit-identical with the row kernel";
  }
}

// The layers the kernel was written for (hand/pose landmark tails), through the dispatch
// (fastDepthwiseFloat picks it there) on two threads, against the row kernel bit for bit.
TEST(ConvDirect, SmallMapDepthwiseModelShapes) {
  if (isaLevel() < IsaLevel::kAvx512) GTEST_SKIP() << "no AVX-512";
  std::mt19937 rng(11);
  ThreadPool pool(2);
  KernelScratch ks;
  struct Shape {
    uint32_t in, channels, k;
    int32_t stride;
  };
  for (const Shape s : {Shape{7, 1152, 5, 1}, Shape{7, 1152, 3, 1}, Shape{14, 672, 5, 1},
                        Shape{14, 672, 5, 2}, Shape{14, 480, 5, 1}, Shape{7, 672, 5, 1}}) {
    Geometry g;
    g.batches = 1;
    g.inH = g.inW = s.in;
    g.inC = g.outC = s.channels;
    g.filterH = g.filterW = s.k;
    g.p.strideH = g.p.strideW = s.stride;
    g.p.dilationH = g.p.dilationW = 1;
    g.outH = g.outW = (s.in + static_cast<uint32_t>(s.stride) - 1) / static_cast<uint32_t>(s.stride);
    const int32_t padTotal = static_cast<int32_t>((g.outW - 1) * s.stride + s.k) -
                             static_cast<int32_t>(s.in);
    g.p.padTop = g.p.padLeft = padTotal / 2;
    g.p.padBottom = g.p.padRight = padTotal - padTotal / 2;
    g.p.activation = 0;
    const std::string text = std::to_string(s.in) + "x" + std::to_string(s.channels) + " k" +
                             std::to_string(s.k) + " s" + std::to_string(s.stride);
    ASSERT_TRUE(smallMapDepthwisePreferred(g)) << text;
    ASSERT_TRUE(directDepthwisePreferred(g)) << text;  // so the convolution skips XNNPACK
    const auto in = randomVector(rng, static_cast<size_t>(g.inH) * g.inW * g.inC);
    const auto filter = randomVector(rng, static_cast<size_t>(s.k) * s.k * g.outC);
    const auto bias = randomVector(rng, g.outC);
    const size_t outCount = static_cast<size_t>(g.outH) * g.outW * g.outC;
    std::vector<float> rows(outCount + kGuard, NAN), got(outCount + kGuard, NAN);
    ConvDepthwiseFloatArgs a{};
    setFloatArgs(g, in.data(), filter.data(), bias.data(), rows.data(), &a);
    a.channels = g.outC;
    a.dilationH = a.dilationW = 1;
    a.depthMultiplier = 1;
    runFloatRows(convIsaKernels().depthwiseFloatRowsDirect, a, g, nullptr, ks);
    fastDepthwiseFloat(g, in.data(), filter.data(), bias.data(), got.data(), &pool, ks);
    // The guards too: both NaN with the same bits, neither kernel writes past the output.
    ASSERT_EQ(0, memcmp(rows.data(), got.data(), (outCount + kGuard) * sizeof(float))) << text;
  }
}

// Both unit orders (row-major and channel-group-major, which the driver picks per shape) and any
// cut of the units into ranges compute the same bits: every unit is written once, whole.
TEST(ConvDirect, SmallMapDepthwiseUnitOrders) {
  if (isaLevel() < IsaLevel::kAvx512) GTEST_SKIP() << "no AVX-512";
  ConvDepthwiseFloatUnitsFn* run = convIsaKernels().depthwiseFloatSmallMap;
  ASSERT_NE(run, nullptr);
  std::mt19937 rng(5);
  for (int iter = 0; iter < 100; ++iter) {
    std::string text;
    const Geometry g = randomNarrow(rng, &text);
    const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
    const auto filter = randomVector(rng, static_cast<size_t>(g.filterH) * g.filterW * g.outC);
    const auto bias = randomVector(rng, g.outC);
    const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
    std::vector<float> want(outCount + kGuard, NAN);
    smallMapDepthwiseFloat(g, in.data(), filter.data(), bias.data(), want.data(), nullptr);
    const uint32_t groupBlocks = static_cast<uint32_t>(1 + iter % 5);
    const size_t groups = ((g.outC + 15) / 16 + groupBlocks - 1) / groupBlocks;
    const size_t units = static_cast<size_t>(g.batches) * g.outH * groups;
    for (bool rowMajor : {false, true}) {
      std::vector<float> got(outCount + kGuard, NAN);
      ConvDepthwiseFloatArgs a{};
      setFloatArgs(g, in.data(), filter.data(), bias.data(), got.data(), &a);
      a.channels = g.outC;
      a.dilationH = a.dilationW = 1;
      a.depthMultiplier = 1;
      // Three uneven ranges, the last first.
      const size_t cut1 = units / 3, cut2 = units - units / 4;
      run(a, groupBlocks, rowMajor, cut2, units);
      run(a, groupBlocks, rowMajor, 0, cut1);
      run(a, groupBlocks, rowMajor, cut1, cut2);
      ASSERT_EQ(0, memcmp(want.data(), got.data(), (outCount + kGuard) * sizeof(float)))
          << text << (rowMajor ? " row-major" : " channel-major") << " groups of "
          << groupBlocks;
    }
  }
}

}  // namespace
}  // namespace conv
}  // namespace nn
