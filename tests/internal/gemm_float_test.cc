// The weight-stationary float32 GEMM (gemm_float.cc, isa/gemm_float_avx512.cc) against the
// reference CONV_2D and a plain FULLY_CONNECTED loop: 1x1 stride-1 convolutions of random sizes
// (rows, output channels and k not multiples of the 8/16-row or 32-column blocks, k past the
// L2 row-block size), every fused activation, batches > 1, one and two threads, NaN guard past
// the output. ctest runs it at every NNAPI_CPU_ISA level: below AVX-512 the GEMM must not be
// offered and fastConvFloat keeps the older packed GEMM, which the same checks then cover.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
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
#include "cpu/kernels/isa/conv_isa.h"
#include "cpu/prefaulted_buffer.h"
#include "float_kernel_check.h"

namespace nn {
namespace conv {
namespace {

using kernel_check::expectClose;
using kernel_check::randomVector;

constexpr size_t kGuard = 80;

TEST(PanelGemm, OfferedOnlyWithAvx512) {
  Geometry g;
  g.batches = 1;
  g.inH = g.inW = g.outH = g.outW = 8;
  g.inC = 64;
  g.outC = 64;
  g.filterH = g.filterW = 1;
  g.p.strideH = g.p.strideW = 1;
  const bool avx512 = isaLevel() >= IsaLevel::kAvx512;
  EXPECT_EQ(panelGemmAvailable(), avx512);
  EXPECT_EQ(panelGemmPreferred(g), avx512);
  g.p.padLeft = 1;  // padded: the rows are not the input pixels in place
  EXPECT_FALSE(panelGemmPreferred(g));
  g.p.padLeft = 0;
  g.p.strideH = g.p.strideW = 2;
  EXPECT_FALSE(panelGemmPreferred(g));
  g.p.strideH = g.p.strideW = 1;
  g.filterH = g.filterW = 3;
  EXPECT_FALSE(panelGemmPreferred(g));
}

TEST(PanelGemm, Conv1x1MatchesReference) {
  std::mt19937 rng(2024);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const int kOut[] = {1, 3, 8, 15, 16, 17, 24, 31, 32, 33, 39, 48, 63, 64, 65, 80, 97,
                             130, 200};
  ThreadPool pool(2);
  KernelScratch ks;
  for (int iter = 0; iter < 240; ++iter) {
    Geometry g;
    g.batches = static_cast<uint32_t>(pick(1, 3));
    g.inH = g.outH = static_cast<uint32_t>(pick(1, 13));
    g.inW = g.outW = static_cast<uint32_t>(pick(1, 19));
    // Mostly small k; sometimes past the kernel's row-block size (48K floats / k rows).
    g.inC = static_cast<uint32_t>(pick(0, 5) == 0 ? pick(300, 2000) : pick(1, 200));
    g.outC = static_cast<uint32_t>(kOut[pick(0, 18)]);
    g.filterH = g.filterW = 1;
    g.p.strideH = g.p.strideW = 1;
    g.p.activation = pick(0, 3);
    const std::string text = "b" + std::to_string(g.batches) + " " + std::to_string(g.inH) +
                             "x" + std::to_string(g.inW) + "x" + std::to_string(g.inC) + " -> " +
                             std::to_string(g.outC) + " act " + std::to_string(g.p.activation) +
                             (iter % 2 ? " 2 threads" : " 1 thread");
    const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
    const auto filter = randomVector(rng, static_cast<size_t>(g.outC) * g.inC);
    const auto bias = randomVector(rng, g.outC);
    const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
    std::vector<float> want(outCount), got(outCount + kGuard, NAN);
    kConvReference.f32(g, in.data(), filter.data(), bias.data(), want.data());
    PackedFloatWeights w;
    packFloatWeights(filter.data(), g.outC, g.inC, &w);
    fastConvFloat(g, in.data(), w, bias.data(), got.data(), iter % 2 ? &pool : nullptr, ks);
    expectClose(want, got, kGuard, g.inC, text);
  }
}

// Large enough to be split over two threads both ways (by weight tiles, by rows).
TEST(PanelGemm, ThreadSplits) {
  std::mt19937 rng(7);
  ThreadPool pool(2);
  KernelScratch ks;
  // The last two: weights small enough for 16 rows at a time through every tile, rows split.
  const uint32_t shapes[][3] = {{8, 272, 1632}, {8, 1632, 272}, {16, 160, 48}, {28, 240, 40},
                                {7, 1152, 192}, {3, 96, 77},    {45, 16, 64},  {33, 24, 144}};
  for (const auto& s : shapes) {
    Geometry g;
    g.batches = 2;
    g.inH = g.inW = g.outH = g.outW = s[0];
    g.inC = s[1];
    g.outC = s[2];
    g.filterH = g.filterW = 1;
    g.p.strideH = g.p.strideW = 1;
    g.p.activation = 3;  // RELU6
    const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
    const auto filter = randomVector(rng, static_cast<size_t>(g.outC) * g.inC);
    const auto bias = randomVector(rng, g.outC);
    const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
    std::vector<float> want(outCount), got(outCount + kGuard, NAN);
    kConvReference.f32(g, in.data(), filter.data(), bias.data(), want.data());
    PackedFloatWeights w;
    packFloatWeights(filter.data(), g.outC, g.inC, &w);
    fastConvFloat(g, in.data(), w, bias.data(), got.data(), &pool, ks);
    expectClose(want, got, kGuard, g.inC, std::to_string(s[0]) + "x" + std::to_string(s[1]) + "->" +
                                      std::to_string(s[2]));
  }
}

// splitPanelGemm hands every (row, weight tile) to exactly one call, whatever the split, the
// thread count or the row alignment; and it splits the way its comment says: by rows where the
// weights are the smaller operand (hand_landmark_full 14x14x112->672) or the tiles do not divide
// evenly (8x8x576->96: 3 tiles), by tiles where the weights outweigh A and C (7x7x192->1152),
// also below the multiply-add threshold when the weights are large (2x2x288->288).
TEST(PanelGemm, SplitCoversEachRowAndTileOnce) {
  struct Shape {
    uint32_t m, n, k;
  };
  const Shape shapes[] = {{196, 672, 112}, {49, 1152, 192}, {64, 96, 576}, {196, 480, 80},
                          {49, 192, 1152}, {4, 1632, 272},  {1, 63, 1152}, {3000, 16, 24},
                          {17, 100, 900},  {200, 200, 200}, {64, 144, 864}, {4, 288, 288},
                          {4, 64, 64},     {64, 288, 864}};
  for (int threads = 1; threads <= 4; ++threads) {
    ThreadPool pool(threads);
    for (const Shape& s : shapes) {
      for (uint32_t rowAlign : {1u, 8u}) {
        const uint32_t tiles = (s.n + kConvTileN - 1) / kConvTileN;
        std::vector<std::atomic<int>> covered(static_cast<size_t>(s.m) * tiles);
        for (auto& c : covered) c.store(0);
        std::atomic<int> allTileCalls{0}, calls{0};
        std::vector<std::atomic<size_t>> work(static_cast<size_t>(threads));  // tile-rows per slot
        for (auto& w : work) w.store(0);
        splitPanelGemm(&pool, s.m, s.n, s.k, kConvTileN, rowAlign,
                       [&](uint32_t r0, uint32_t r1, uint32_t t0, uint32_t t1, size_t slot) {
                         EXPECT_LT(slot, static_cast<size_t>(threads));
                         EXPECT_LE(r1, s.m);
                         EXPECT_LE(t1, tiles);
                         EXPECT_TRUE(r0 % rowAlign == 0 && (r1 % rowAlign == 0 || r1 == s.m));
                         calls.fetch_add(1);
                         if (t0 == 0 && t1 == tiles) allTileCalls.fetch_add(1);
                         if (slot < work.size()) work[slot].fetch_add(size_t{r1 - r0} * (t1 - t0));
                         for (uint32_t r = r0; r < r1; ++r)
                           for (uint32_t t = t0; t < t1; ++t)
                             covered[static_cast<size_t>(r) * tiles + t].fetch_add(1);
                       });
        const std::string text = std::to_string(s.m) + "x" + std::to_string(s.k) + "->" +
                                 std::to_string(s.n) + " threads " + std::to_string(threads) +
                                 " rowAlign " + std::to_string(rowAlign);
        for (size_t i = 0; i < covered.size(); ++i)
          ASSERT_EQ(covered[i].load(), 1) << text << " row " << i / tiles << " tile " << i % tiles;
        if (threads != 2) continue;
        // Which way 2 threads split the shapes the rule is about.
        const bool byTiles = calls.load() > 1 && allTileCalls.load() == 0;
        // By tiles, each thread gets half the tile-rows, to a row unit, when a tile has two or
        // more (tiles that do not divide evenly are shared by rows: 8x8x864->288, 9 tiles).
        if (byTiles && s.m > rowAlign) {
          const size_t a = work[0].load(), b = work[1].load();
          EXPECT_LE(a > b ? a - b : b - a, rowAlign) << text << ": " << a << " / " << b;
        }
        // Few multiply-adds: on the caller, unless the weights are large (pose_landmark's
        // 2x2x288->288 layers), then by tiles.
        if (s.m == 4 && s.n == 64) { EXPECT_EQ(calls.load(), 1) << text; }
        if (s.m == 4 && s.n == 288) { EXPECT_TRUE(byTiles) << text; }
        if (static_cast<double>(s.m) * s.n * s.k < 400000.0) continue;
        if (s.m == 196 && s.n == 672) { EXPECT_FALSE(byTiles) << text; }
        if (s.m == 196 && s.n == 480) { EXPECT_FALSE(byTiles) << text; }
        if (s.m == 64 && s.n == 96) { EXPECT_FALSE(byTiles) << text; }
        if (s.m == 49 && s.n == 1152) { EXPECT_TRUE(byTiles) << text; }
        if (s.m == 64 && s.n == 288) { EXPECT_TRUE(byTiles) << text; }
      }
    }
  }
}

// The panel GEMM on the hand/pose landmark 1x1 shapes computes the same bits on 1 and 2
// threads, whichever way they are split.
TEST(PanelGemm, TwoThreadsBitIdenticalOnModelShapes) {
  if (!panelGemmAvailable()) GTEST_SKIP() << "no panel GEMM below AVX-512";
  std::mt19937 rng(11);
  ThreadPool pool(2);
  KernelScratch ks;
  const uint32_t shapes[][3] = {{14, 112, 672}, {14, 80, 480}, {14, 480, 80}, {7, 192, 1152},
                                {7, 1152, 192}, {8, 576, 96},  {8, 528, 144}, {16, 56, 336},
                                {2, 288, 288},  {8, 864, 288}};
  for (const auto& s : shapes) {
    Geometry g;
    g.batches = 1;
    g.inH = g.inW = g.outH = g.outW = s[0];
    g.inC = s[1];
    g.outC = s[2];
    g.filterH = g.filterW = 1;
    g.p.strideH = g.p.strideW = 1;
    g.p.activation = 3;  // RELU6
    const auto in = randomVector(rng, static_cast<size_t>(g.inH) * g.inW * g.inC);
    const auto filter = randomVector(rng, static_cast<size_t>(g.outC) * g.inC);
    const auto bias = randomVector(rng, g.outC);
    const size_t outCount = static_cast<size_t>(g.outH) * g.outW * g.outC;
    std::vector<float> one(outCount + kGuard, NAN), two(outCount + kGuard, NAN);
    PackedFloatWeights w;
    packFloatWeights(filter.data(), g.outC, g.inC, &w);
    fastConvFloat(g, in.data(), w, bias.data(), one.data(), nullptr, ks);
    fastConvFloat(g, in.data(), w, bias.data(), two.data(), &pool, ks);
    const std::string text =
        std::to_string(s[0]) + "x" + std::to_string(s[1]) + "->" + std::to_string(s[2]);
    for (size_t i = 0; i < outCount; ++i) ASSERT_EQ(one[i], two[i]) << text << " element " << i;
    for (size_t i = outCount; i < two.size(); ++i)
      ASSERT_TRUE(std::isnan(two[i])) << text << ": written past the output at " << i;
  }
}

// Row blocks taken last group first (GemmFloatArgs::lastBlockFirst, which panelGemmFloat sets
// for expansions over 1 MB) write every row of the range once and the same bits as in order:
// small k (16-row blocks grouped by 8), large k (one block per group), row ranges that start
// and end off the block and group boundaries, last tiles of 1-31 columns.
TEST(PanelGemm, LastBlockFirstSameBits) {
  GemmFloatPanelsFn* run = convIsaKernels().gemmFloatPanels;
  if (run == nullptr) GTEST_SKIP() << "no panel GEMM below AVX-512";
  std::mt19937 rng(5);
  struct Shape {
    uint32_t m, n, k, rowBegin, rowEnd;
  };
  const Shape shapes[] = {{12544, 64, 16, 0, 12544}, {3000, 96, 16, 5, 2999},
                          {700, 40, 24, 0, 700},     {500, 33, 1200, 3, 497},
                          {300, 64, 16, 17, 18},     {129, 17, 8, 0, 129}};
  for (const Shape& s : shapes) {
    const auto a = randomVector(rng, static_cast<size_t>(s.m) * s.k);
    const auto filter = randomVector(rng, static_cast<size_t>(s.n) * s.k);
    const auto bias = randomVector(rng, s.n);
    PackedFloatWeights w;
    packFloatWeights(filter.data(), s.n, s.k, &w);
    const size_t count = static_cast<size_t>(s.m) * s.n;
    std::vector<float> forward(count + kGuard, NAN), backward(count + kGuard, NAN);
    GemmFloatArgs args{};
    args.m = s.m;
    args.n = s.n;
    args.k = s.k;
    args.lda = s.k;
    args.a = a.data();
    args.packed = w.data.data();
    args.bias = bias.data();
    args.outputMin = -1.0f;
    args.outputMax = 1.0f;
    const uint32_t tiles = (s.n + kConvTileN - 1) / kConvTileN;
    args.c = forward.data();
    args.lastBlockFirst = false;
    run(args, s.rowBegin, s.rowEnd, 0, tiles);
    args.c = backward.data();
    args.lastBlockFirst = true;
    run(args, s.rowBegin, s.rowEnd, 0, tiles);
    const std::string text = std::to_string(s.m) + "x" + std::to_string(s.k) + "->" +
                             std::to_string(s.n) + " rows " + std::to_string(s.rowBegin) + ".." +
                             std::to_string(s.rowEnd);
    for (size_t i = 0; i < forward.size(); ++i) {
      const size_t row = i / s.n;
      const bool inRange = i < count && row >= s.rowBegin && row < s.rowEnd;
      ASSERT_EQ(std::isnan(backward[i]), !inRange) << text << " element " << i;
      if (inRange) {
        ASSERT_EQ(forward[i], backward[i]) << text << " element " << i;
      }
    }
  }
}

// The few-input-channel CONV_2D (stemGemmFloat: filter rows read in place for interior pixels,
// im2col at the edges and for output rows whose window leaves the image) against a plain loop
// that sums bias + taps in the filter's order with one fused multiply-add each, zero for the
// padding: the kernel keeps that order, so the results must be bit-identical. Odd widths,
// paddings that leave no interior column, strides 1-3, filters up to 7x7, 1-4 channels.
TEST(PanelGemm, StemConvMatchesSequentialSums) {
  Geometry probe;
  probe.batches = 1;
  probe.inH = probe.inW = 16;
  probe.inC = 3;
  probe.outC = 24;
  probe.filterH = probe.filterW = 3;
  probe.p.strideH = probe.p.strideW = 2;
  probe.outH = probe.outW = 8;
  const bool avx512 = isaLevel() >= IsaLevel::kAvx512;
  EXPECT_EQ(stemGemmPreferred(probe), avx512);
  if (!avx512) GTEST_SKIP() << "no stem kernel below AVX-512";
  probe.inC = 8;
  EXPECT_FALSE(stemGemmPreferred(probe));
  std::mt19937 rng(99);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const int kOut[] = {8, 15, 16, 17, 24, 32, 33, 40, 64, 70};
  ThreadPool pool(2);
  KernelScratch ks;
  for (int iter = 0; iter < 200; ++iter) {
    Geometry g;
    g.batches = static_cast<uint32_t>(pick(1, 2));
    g.inC = static_cast<uint32_t>(pick(1, 4));
    g.outC = static_cast<uint32_t>(kOut[pick(0, 9)]);
    g.filterH = static_cast<uint32_t>(pick(1, 7));
    g.filterW = static_cast<uint32_t>(pick(g.filterH == 1 ? 2 : 1, 7));
    g.p.strideH = pick(1, 3);
    g.p.strideW = pick(1, 3);
    g.inH = static_cast<uint32_t>(pick(static_cast<int>(g.filterH), 21));
    g.inW = static_cast<uint32_t>(pick(1, 40));
    g.p.padTop = pick(0, static_cast<int>(g.filterH) - 1);
    g.p.padBottom = pick(0, static_cast<int>(g.filterH) - 1);
    g.p.padLeft = pick(0, static_cast<int>(g.filterW) - 1);
    g.p.padRight = pick(0, static_cast<int>(g.filterW) - 1);
    const int spanH = static_cast<int>(g.inH) + g.p.padTop + g.p.padBottom - static_cast<int>(g.filterH);
    const int spanW = static_cast<int>(g.inW) + g.p.padLeft + g.p.padRight - static_cast<int>(g.filterW);
    if (spanH < 0 || spanW < 0) continue;
    g.outH = static_cast<uint32_t>(spanH / g.p.strideH + 1);
    g.outW = static_cast<uint32_t>(spanW / g.p.strideW + 1);
    g.p.activation = pick(0, 3);
    ASSERT_TRUE(stemGemmPreferred(g));
    const std::string text = "b" + std::to_string(g.batches) + " " + std::to_string(g.inH) + "x" +
                             std::to_string(g.inW) + "x" + std::to_string(g.inC) + " f" +
                             std::to_string(g.filterH) + "x" + std::to_string(g.filterW) + " s" +
                             std::to_string(g.p.strideH) + "," + std::to_string(g.p.strideW) +
                             " pad " + std::to_string(g.p.padTop) + "," +
                             std::to_string(g.p.padLeft) + " -> " + std::to_string(g.outC) +
                             (iter % 2 ? " 2 threads" : " 1 thread");
    const uint32_t k = g.filterH * g.filterW * g.inC;
    const auto in = randomVector(rng, static_cast<size_t>(g.batches) * g.inH * g.inW * g.inC);
    const auto filter = randomVector(rng, static_cast<size_t>(g.outC) * k);
    const auto bias = randomVector(rng, g.outC);
    float lo, hi;
    activationRangeFloat(g.p.activation, &lo, &hi);
    const size_t outCount = static_cast<size_t>(g.batches) * g.outH * g.outW * g.outC;
    std::vector<float> want(outCount), got(outCount + kGuard, NAN);
    size_t o = 0;
    for (uint32_t b = 0; b < g.batches; ++b)
      for (uint32_t oh = 0; oh < g.outH; ++oh)
        for (uint32_t ow = 0; ow < g.outW; ++ow)
          for (uint32_t oc = 0; oc < g.outC; ++oc, ++o) {
            float acc = bias[oc];
            const float* f = filter.data() + static_cast<size_t>(oc) * k;
            for (uint32_t kh = 0; kh < g.filterH; ++kh)
              for (uint32_t kw = 0; kw < g.filterW; ++kw)
                for (uint32_t c = 0; c < g.inC; ++c, ++f) {
                  const int ih = static_cast<int>(oh) * g.p.strideH - g.p.padTop + static_cast<int>(kh);
                  const int iw = static_cast<int>(ow) * g.p.strideW - g.p.padLeft + static_cast<int>(kw);
                  const bool inside = ih >= 0 && ih < static_cast<int>(g.inH) && iw >= 0 &&
                                      iw < static_cast<int>(g.inW);
                  const float x = inside ? in[((static_cast<size_t>(b) * g.inH + ih) * g.inW + iw) * g.inC + c] : 0.f;
                  acc = std::fma(x, *f, acc);
                }
            want[o] = std::min(hi, std::max(lo, acc));
          }
    PackedFloatWeights w;
    packFloatWeights(filter.data(), g.outC, k, &w);
    fastConvFloat(g, in.data(), w, bias.data(), got.data(), iter % 2 ? &pool : nullptr, ks);
    for (size_t i = 0; i < outCount; ++i)
      ASSERT_EQ(want[i], got[i]) << text << " element " << i;
    for (size_t i = outCount; i < got.size(); ++i)
      ASSERT_TRUE(std::isnan(got[i])) << text << ": written past the output at " << i;
  }
}

TEST(PanelGemm, FullyConnectedMatchesLoop) {
  std::mt19937 rng(99);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ThreadPool pool(2);
  KernelScratch ks;
  for (int iter = 0; iter < 60; ++iter) {
    const uint32_t batches = static_cast<uint32_t>(pick(1, 21));
    const uint32_t k = static_cast<uint32_t>(pick(1, 700));
    const uint32_t n = static_cast<uint32_t>(pick(1, 300));
    const int32_t activation = pick(0, 3);
    const bool withBias = pick(0, 3) != 0;
    const auto in = randomVector(rng, static_cast<size_t>(batches) * k);
    const auto weights = randomVector(rng, static_cast<size_t>(n) * k);
    const auto bias = randomVector(rng, n);
    float lo, hi;
    activationRangeFloat(activation, &lo, &hi);
    std::vector<float> want(static_cast<size_t>(batches) * n), got(want.size() + kGuard, NAN);
    for (uint32_t b = 0; b < batches; ++b)
      for (uint32_t c = 0; c < n; ++c) {
        double s = withBias ? bias[c] : 0.0;
        for (uint32_t i = 0; i < k; ++i)
          s += static_cast<double>(in[static_cast<size_t>(b) * k + i]) *
               weights[static_cast<size_t>(c) * k + i];
        want[static_cast<size_t>(b) * n + c] =
            std::fmin(hi, std::fmax(lo, static_cast<float>(s)));
      }
    PackedFloatWeights w;
    packFloatWeights(weights.data(), n, k, &w);
    fastFullyConnectedFloat(batches, activation, in.data(), w, withBias ? bias.data() : nullptr,
                            got.data(), iter % 2 ? &pool : nullptr, ks);
    expectClose(want, got, kGuard, k,
                "FC b" + std::to_string(batches) + " k" + std::to_string(k) + " n" +
                    std::to_string(n) + " act " + std::to_string(activation));
  }
}

// The packed layout itself ([tile][k][kTileN], missing columns of the last tile zero), on a
// buffer that held other values before: packing no longer zero-fills its buffer first.
TEST(PanelGemm, PackedLayout) {
  std::mt19937 rng(5);
  const uint32_t shapes[][2] = {{1, 1}, {31, 7}, {32, 5}, {33, 300}, {100, 64}, {2000, 3}};
  for (const auto& s : shapes) {
    const uint32_t n = s[0], k = s[1];
    const uint32_t tiles = (n + kConvTileN - 1) / kConvTileN;
    const size_t size = static_cast<size_t>(tiles) * k * kConvTileN;
    PackedFloatWeights w;
    // Fill a block of the same size with NaN and free it, so the packed buffer likely reuses it.
    {
      PrefaultedArray<float> junk;
      junk.allocate(size);
      for (size_t i = 0; i < size; ++i) junk[i] = NAN;
    }
    const auto weights = randomVector(rng, static_cast<size_t>(n) * k);
    packFloatWeights(weights.data(), n, k, &w);
    ASSERT_EQ(w.data.size(), size);
    ASSERT_EQ(reinterpret_cast<uintptr_t>(w.data.data()) % 64, 0u);
    for (uint32_t t = 0; t < tiles; ++t)
      for (uint32_t kk = 0; kk < k; ++kk)
        for (uint32_t c = 0; c < kConvTileN; ++c) {
          const uint32_t col = t * kConvTileN + c;
          const float want = col < n ? weights[static_cast<size_t>(col) * k + kk] : 0.f;
          const float got = w.data[(static_cast<size_t>(t) * k + kk) * kConvTileN + c];
          ASSERT_EQ(got, want) << n << "x" << k << " tile " << t << " k " << kk << " col " << c;
        }
  }
}

// Float16 weights: the float32 panels (widened a tile at a time, full tiles transposed in
// registers at AVX-512) and the float16 panels (packFloatWeightsHalf: the same layout, the
// source bits) against the layout computed here.
TEST(PanelGemm, PackedLayoutFromFloat16) {
  std::mt19937 rng(6);
  const uint32_t shapes[][2] = {{1, 1}, {31, 7}, {32, 16}, {33, 300}, {64, 17}, {100, 64},
                                {272, 1632}};
  for (const auto& s : shapes) {
    const uint32_t n = s[0], k = s[1];
    SCOPED_TRACE(std::to_string(n) + "x" + std::to_string(k));
    const uint32_t tiles = (n + kConvTileN - 1) / kConvTileN;
    const size_t size = static_cast<size_t>(tiles) * k * kConvTileN;
    const auto values = randomVector(rng, static_cast<size_t>(n) * k);
    std::vector<Half> weights(values.size());
    for (size_t i = 0; i < values.size(); ++i) weights[i] = static_cast<Half>(values[i]);
    PackedFloatWeights wide, half;
    packFloatWeights(weights.data(), n, k, &wide);
    const bool halfPanels = packFloatWeightsHalf(weights.data(), n, k, &half);
    // The float16 form exactly where the panel GEMM that reads it is.
    ASSERT_EQ(halfPanels, panelGemmAvailable());
    ASSERT_EQ(wide.data.size(), size);
    ASSERT_FALSE(wide.halfPanels());
    if (halfPanels) {
      ASSERT_EQ(half.half.size(), size);
      ASSERT_TRUE(half.data.empty());
      ASSERT_EQ(reinterpret_cast<uintptr_t>(half.half.data()) % 64, 0u);
    }
    for (uint32_t t = 0; t < tiles; ++t)
      for (uint32_t kk = 0; kk < k; ++kk)
        for (uint32_t c = 0; c < kConvTileN; ++c) {
          const uint32_t col = t * kConvTileN + c;
          const Half want = col < n ? weights[static_cast<size_t>(col) * k + kk] : Half(0);
          const size_t at = (static_cast<size_t>(t) * k + kk) * kConvTileN + c;
          ASSERT_EQ(wide.data[at], static_cast<float>(want)) << "tile " << t << " k " << kk
                                                             << " col " << c;
          if (!halfPanels) continue;
          uint16_t bits;
          std::memcpy(&bits, &want, sizeof(bits));
          ASSERT_EQ(half.half[at], bits) << "tile " << t << " k " << kk << " col " << c;
        }
  }
}

// Which layers keep float16 panels: 1x1 layers the panel GEMM runs with at most 64 rows.
TEST(PanelGemm, Float16PanelsOnlyForFewRows) {
  auto layer = [](uint32_t batches, uint32_t side, uint32_t filter) {
    Geometry g;
    g.batches = batches;
    g.inH = g.inW = g.outH = g.outW = side;
    g.inC = 272;
    g.outC = 1632;
    g.filterH = g.filterW = filter;
    g.p.strideH = g.p.strideW = 1;
    return g;
  };
  const bool gemm = panelGemmAvailable();
  EXPECT_EQ(halfPanelsPreferred(layer(1, 8, 1)), gemm);   // 64 rows
  EXPECT_EQ(halfPanelsPreferred(layer(1, 2, 1)), gemm);   // 4 rows
  EXPECT_FALSE(halfPanelsPreferred(layer(1, 9, 1)));      // 81 rows
  EXPECT_FALSE(halfPanelsPreferred(layer(2, 8, 1)));      // 128 rows over two batches
  EXPECT_FALSE(halfPanelsPreferred(layer(1, 8, 3)));      // not 1x1
  Geometry nchw = layer(1, 8, 1);
  nchw.p.nchw = true;
  EXPECT_FALSE(halfPanelsPreferred(nchw));
}

// The panel GEMM on float16 panels (GemmFloatArgs::packedHalf) computes the same bits as on
// the widened float32 panels: the low-resolution 1x1 shapes of pose_landmark_heavy and
// smaller ones with tile tails, with and without the residual epilogue, one and two threads.
TEST(PanelGemm, Float16PanelsSameBitsAsWidened) {
  if (!panelGemmAvailable()) GTEST_SKIP() << "no panel GEMM below AVX-512";
  std::mt19937 rng(12);
  ThreadPool pool(2);
  struct Shape {
    uint32_t m, n, k, resC;  // resC 0: no residual
    int32_t activation;
  };
  const Shape shapes[] = {{64, 272, 1632, 0, 0},  {64, 1632, 272, 0, 3}, {64, 272, 1632, 272, 0},
                          {49, 40, 24, 32, 1},    {4, 33, 17, 0, 2},     {16, 288, 288, 288, 3},
                          {1, 7, 5, 0, 0},        {300, 100, 40, 90, 1}};
  for (const Shape& s : shapes) {
    SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.k) + "->" + std::to_string(s.n) +
                 " res " + std::to_string(s.resC) + " act " + std::to_string(s.activation));
    const auto a = randomVector(rng, static_cast<size_t>(s.m) * s.k);
    const auto values = randomVector(rng, static_cast<size_t>(s.n) * s.k);
    std::vector<Half> filter(values.size());
    for (size_t i = 0; i < values.size(); ++i) filter[i] = static_cast<Half>(values[i]);
    const auto bias = randomVector(rng, s.n);
    const auto res = randomVector(rng, static_cast<size_t>(s.m) * std::max(s.resC, 1u));
    PackedFloatWeights wide, half;
    packFloatWeights(filter.data(), s.n, s.k, &wide);
    ASSERT_TRUE(packFloatWeightsHalf(filter.data(), s.n, s.k, &half));
    const size_t count = static_cast<size_t>(s.m) * s.n;
    for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
      std::vector<float> want(count + kGuard, NAN), got(count + kGuard, NAN);
      for (auto [w, out] : {std::pair{&wide, &want}, std::pair{&half, &got}}) {
        if (s.resC == 0)
          panelGemmFloat(s.m, a.data(), s.k, *w, bias.data(), s.activation, out->data(), p);
        else
          panelGemmFloatResidual(s.m, a.data(), s.k, *w, bias.data(), s.activation, res.data(),
                                 s.resC, /*RELU6*/ 3, out->data(), p);
      }
      for (size_t i = 0; i < count; ++i)
        ASSERT_EQ(std::memcmp(&want[i], &got[i], sizeof(float)), 0)
            << "element " << i << ": " << want[i] << " vs " << got[i]
            << (p ? " 2 threads" : " 1 thread");
      for (size_t i = count; i < got.size(); ++i)
        ASSERT_TRUE(std::isnan(got[i])) << "written past the output at " << i;
    }
  }
}

TEST(PrefaultedBuffer, SizesAndAlignment) {
  for (size_t size : {size_t{0}, size_t{1}, size_t{4096}, size_t{65536}, size_t{3} << 20}) {
    for (size_t alignment : {size_t{16}, size_t{64}, size_t{4096}}) {
      void* p = allocatePrefaulted(alignment, size);
      ASSERT_NE(p, nullptr) << size;
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % alignment, 0u) << size << " " << alignment;
      if (size >= 2) {  // the first and the last byte are writable
        auto* b = static_cast<unsigned char*>(p);
        b[0] = 1;
        b[size - 1] = 2;
        EXPECT_EQ(b[0] + b[size - 1], 3);
      }
      free(p);
    }
  }
}

}  // namespace
}  // namespace conv
}  // namespace nn
