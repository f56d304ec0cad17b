// The weight-stationary float32 GEMM (gemm_float.cc, isa/gemm_float_avx512.cc) against the
// reference CONV_2D and a plain FULLY_CONNECTED loop: 1x1 stride-1 convolutions of random sizes
// (rows, output channels and k not multiples of the 8/16-row or 32-column blocks, k past the
// L2 row-block size), every fused activation, batches > 1, one and two threads, NaN guard past
// the output. ctest runs it at every NNAPI_CPU_ISA level: below AVX-512 the GEMM must not be
// offered and fastConvFloat keeps the older packed GEMM, which the same checks then cover.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cpu/isa.h"
#include "cpu/kernels/conv_common.h"
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
